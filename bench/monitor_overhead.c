/* The monitor's cost: CPU time of the sampling thread against elapsed time,
 * at the default interval (1 s) and the smallest (50 ms), and the whole
 * process's CPU over the same span with and without a monitor running,
 * side by side.  With root a real sandbox is built so that the memcg
 * stats are sampled too.  Prints one line per setting. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "harness/monitor.h"
#include "core/util.h"
#include "sandbox/sandbox.h"

static uint64_t self_cpu_ns(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void idle(double seconds)
{
	struct timespec ts = { .tv_sec = (time_t)seconds, .tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9) };
	nanosleep(&ts, NULL);
}

static int measure(struct sandbox *sb, uint64_t interval_ns, double seconds)
{
	/* without: the process idles for the same span */
	uint64_t c0 = self_cpu_ns(), t0 = vmr_now_ns();
	idle(seconds);
	double base_cpu = (double)(self_cpu_ns() - c0), base_el = (double)(vmr_now_ns() - t0);

	struct monitor m = { 0 };
	struct result r = { 0 };
	monitor_init(&m, interval_ns);
	result_init(&r, "bench");
	c0 = self_cpu_ns();
	t0 = vmr_now_ns();
	if (monitor_start(&m, sb) < 0) {
		fprintf(stderr, "monitor_overhead: cannot start the monitor\n");
		result_free(&r);
		monitor_destroy(&m);
		return -1;
	}
	idle(seconds);
	monitor_stop(&m, &r);
	double cpu = (double)(self_cpu_ns() - c0), el = (double)(vmr_now_ns() - t0);
	printf("monitor interval %6.0f ms, %4zu samples, %zu series: thread CPU %.4f%% of elapsed; "
	       "process CPU with monitor %.4f%%, without %.4f%%\n",
	       (double)interval_ns / 1e6, m.samples, r.nseries, 100.0 * (double)m.cpu_ns / el, 100.0 * cpu / el,
	       100.0 * base_cpu / base_el);
	result_free(&r);
	monitor_destroy(&m);
	return m.samples > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 10;
	struct sandbox *sb = NULL;
	if (vmr_is_root()) {
		struct sandbox_cfg cfg = { 0 };
		OPT_DEFAULTS(sandbox_opts, &cfg);
		free(cfg.swap);
		cfg.swap = xstrdup("none");
		sandbox_install_signal_handlers();
		int rc = sandbox_open(&sb, &cfg);
		opt_free(sandbox_opts, &cfg);
		if (rc < 0) {  /* as root a sandbox is expected: say why not, do not measure less */
			fprintf(stderr, "monitor_overhead: cannot build a sandbox (see above)\n");
			return 1;
		}
	}
	printf("memcg stats sampled: %s\n", sb ? "yes" : "no (not root)");
	int rc = measure(sb, 1000000000ull, seconds);
	if (rc == 0)
		rc = measure(sb, 50000000ull, seconds / 2);
	if (sb)
		sandbox_close(sb);
	return rc < 0 ? 1 : 0;
}
