/* perf events for a workload child: counters with perf_event_open, and a
 * profile of where CPU time went with perf record (Debian's linux-perf).
 *
 * Counters are opened on the child before it runs, inherited by whatever it
 * forks, and read after it exited.  A counter the machine lacks (a virtual
 * machine without a PMU has no dTLB-miss counter) is not an error: it is
 * listed with the kernel's reason and its metric is left out. */
#ifndef VMR_PERF_H
#define VMR_PERF_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/result.h"

struct perf_counters;

/* Open every counter on pid.  Returns 0 (some counters may be
 * unsupported), or -2 with *why (malloc'd) when perf events cannot be used
 * at all here. */
int perf_counters_open(struct perf_counters **pc, pid_t pid, char **why);
/* Read the counters and add them to r as metrics ("perf-page-faults", ...);
 * unsupported ones go into r->info "perf_unsupported" {name: reason}. */
void perf_counters_result(struct perf_counters *pc, struct result *r);
void perf_counters_close(struct perf_counters *pc);

/* One line of `perf report --stdio --sort sym`: "  12.34%  [k] clear_page_erms". */
struct perf_sym {
	double percent;
	bool kernel;        /* [k] */
	char sym[128];
};

/* Parse one line of perf report output.  Returns 0, or -1 when the line is
 * not a symbol line (comments, blank lines, call-graph lines). */
int perf_parse_report_line(const char *line, size_t len, struct perf_sym *out);

struct perf_profile;

/* Find perf; NULL when usable, else a static reason. */
const char *perf_profile_supported(void);
/* Start `perf record -g` on pid, writing into dir.  Returns when perf is
 * recording.  0, or -1 with *why (malloc'd: "cannot create a directory in
 * DIR: ERROR", "perf record did not start on pid N"); nothing is printed. */
int perf_profile_start(struct perf_profile **pp, pid_t pid, const char *dir, char **why);
/* Stop recording and summarise: the top kernel symbols (up to max) as a
 * JSON array of {"symbol","percent"}.  Returns NULL with *why (malloc'd;
 * why may be NULL) when perf report found nothing.  Frees pp. */
json_t *perf_profile_stop(struct perf_profile *pp, size_t max, char **why);

/* Remove profile directories (TMPDIR or /tmp, vmregress-perf-PID-*) whose
 * process is gone, adding one action object each to actions (the shape
 * `vmregress cleanup` prints).  0, or -1 when one could not be removed. */
int perf_cleanup_report(json_t *actions);

#endif
