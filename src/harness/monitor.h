/* The monitor: what `vmstat 1` was to the seed, kept with the result.
 *
 * A runner_hook whose thread samples, every interval (default 1 s, at
 * least 50 ms) from the workload's start until it exits, plus once at the
 * end:
 *   vmstat.NAME     /proc/vmstat counters, the change over each interval:
 *                   the VMSTAT_MONITOR ones of probe/vmstat_counters.h
 *                   (pswpin, pswpout, pgmajfault, pgscan_*, compact_*,
 *                   thp_*, zswp*..., allocstall over all zones,
 *                   workingset_refault anon+file); summed, a series gives
 *                   the change over the whole case
 *   meminfo.NAME    /proc/meminfo MemFree, MemAvailable, Cached, Dirty,
 *                   AnonPages, SwapFree, SwapCached, and Zswap, Zswapped
 *                   where the kernel has them (bytes, the value at the sample)
 *   pressure.some,  /proc/pressure/memory: % of the interval stalled
 *   pressure.full   (absent when the kernel has no PSI)
 *   memcg.NAME      the sandbox's memory cgroup counters (sandbox_stats),
 *                   the value at the sample
 *   mthp.SIZE.NAME  per multi-size THP size whose policy is not never at
 *                   the start, the change of its stats/ counters
 *                   (thp_sampler_names: anon_fault_alloc, swpout, swpin,
 *                   split, ...) over each interval
 * Each series' times are seconds since the workload started.  The result's
 * info gets "monitor": {interval_ns, samples, cpu_ns (the thread's own CPU
 * time, for the overhead bench), error (first read error, if any)}.
 * Sampling never prints. */
#ifndef VMR_MONITOR_H
#define VMR_MONITOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "harness/runner.h"
#include "probe/meminfo.h"
#include "probe/pressure.h"
#include "probe/probe.h"
#include "probe/thp.h"
#include "probe/vmstat.h"

#define MONITOR_MIN_INTERVAL_NS 50000000ull

struct monitor {
	uint64_t interval_ns;
	struct sandbox *sb;
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;
	uint64_t t0, last;          /* start, and the previous sample (ns) */
	struct vmstat prev, cur;
	int64_t *delta;
	size_t delta_cap;
	struct meminfo mi;
	struct pressure psi;
	bool have_psi;
	struct thp_sampler thp;
	struct result acc;          /* the series gathered so far */
	size_t samples;
	uint64_t cpu_ns;
	char err[PROBE_ERR_MAX + 32];
};

/* interval_ns below MONITOR_MIN_INTERVAL_NS is raised to it. */
void monitor_init(struct monitor *m, uint64_t interval_ns);
void monitor_destroy(struct monitor *m);
struct runner_hook monitor_hook(struct monitor *m);

/* By hand, for tests and benches: start (sb may be NULL) and stop.
 * start: 0 or -1 (errno).  stop adds the series and info to r. */
int monitor_start(struct monitor *m, struct sandbox *sb);
void monitor_stop(struct monitor *m, struct result *r);

#endif
