/* Resource usage of workload processes: the fields /usr/bin/time -v prints
 * (the seed's kernel comparisons were made of them), as result metrics, and
 * cheap in-process counters a workload reads around one pass or phase. */
#ifndef VMR_RUSAGE_H
#define VMR_RUSAGE_H

#include <stdint.h>
#include <sys/resource.h>

#include "core/result.h"

/* Counters of the calling process (or thread) at one moment. */
struct rusage_counts {
	uint64_t user_ns, sys_ns;
	uint64_t minflt, majflt;
	uint64_t nvcsw, nivcsw;   /* voluntary and involuntary context switches */
};

/* The whole process (RUSAGE_SELF). */
void rusage_self(struct rusage_counts *c);
/* The calling thread only (RUSAGE_THREAD). */
void rusage_thread(struct rusage_counts *c);
/* d = b - a, field by field. */
void rusage_delta(const struct rusage_counts *a, const struct rusage_counts *b,
		  struct rusage_counts *d);
void rusage_from_sys(const struct rusage *ru, struct rusage_counts *c);

/* Add the /usr/bin/time -v fields of a finished process as metrics:
 * user-time, sys-time, elapsed (ns), cpu-percent, major-faults,
 * minor-faults, voluntary-switches, involuntary-switches, max-rss (bytes). */
void rusage_metrics(struct result *r, const struct rusage *ru, uint64_t elapsed_ns);

#endif
