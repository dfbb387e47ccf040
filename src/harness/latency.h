/* The latency probe: a stand-in for the seed's "listen to mp3blaster while
 * the test runs".  A thread of vmregress itself, outside the sandbox, wakes
 * every period (default 10 ms) on an absolute deadline, as an audio player
 * does, and touches a small buffer.  It records how late each wake-up was
 * and how long the touch took; a deadline is missed when the wake-up came so
 * late that the touch ended after the next deadline, or was skipped.
 *
 * The probe is a runner_hook: started when the workload starts, stopped when
 * it exits, it adds to the result
 *   metrics probe-late-p50, probe-late-p99, probe-late-max (ns, lower is
 *           better), probe-touch-p99 (ns) and probe-missed (% of deadlines)
 *   hists   probe-lateness and probe-touch (raw buckets, ns)
 *   info    probe: {period_ns, wakeups, deadlines, missed}. */
#ifndef VMR_PROBE_LATENCY_H
#define VMR_PROBE_LATENCY_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/hist.h"
#include "harness/runner.h"

#define PROBE_BUFFER_BYTES (64 * 1024)

struct probe {
	uint64_t period_ns;
	pthread_t thread;
	bool running;
	atomic_bool stop;
	/* the thread sleeps on wake until its next deadline, so that stopping
	 * it is a signal rather than a cancellation (which unwinds its stack
	 * without the sanitizers' bookkeeping, and it need not wait a period) */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	unsigned char *buf;
	struct hist *late, *touch;
	uint64_t wakeups, deadlines, missed;
	const cpu_set_t *cpus;      /* the thread's CPUs (core/pin.h); NULL: any */
};

/* Set up a probe (allocates its buffer and histograms). */
void probe_init(struct probe *p, uint64_t period_ns);
void probe_destroy(struct probe *p);
/* The hook to put in runner_cfg.hooks; ctx is p. */
struct runner_hook probe_hook(struct probe *p);

/* For tests and benches: start and stop by hand.  start: 0 or -1 (errno). */
int probe_start(struct probe *p);
void probe_stop(struct probe *p, struct result *r);

#endif
