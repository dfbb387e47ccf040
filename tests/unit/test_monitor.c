/* The monitor samples on its interval with times relative to its start,
 * and its per-interval /proc/vmstat deltas add up to the change /proc/vmstat
 * itself shows over the same span. */
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "harness/monitor.h"
#include "core/util.h"
#include "t.h"

static uint64_t vmstat_now(const char *name)
{
	struct vmstat s = { 0 };
	char err[PROBE_ERR_MAX] = "";
	uint64_t v = 0;
	vmstat_init(&s);
	if (vmstat_read(&s, NULL, err) == 0)
		vmstat_get(&s, name, &v);
	vmstat_free(&s);
	return v;
}

static double series_sum(const struct series *s)
{
	double sum = 0;
	for (size_t i = 0; s && i < s->n; i++)
		sum += s->v[i];
	return sum;
}

/* Fault in fresh anonymous pages for at least ms milliseconds and until the
 * monitor has taken want timed samples (its count is written by its thread),
 * or 20 s pass: on a busy machine its thread may run late. */
static size_t fault_for(long ms, const struct monitor *m, size_t want)
{
	size_t pages = 0, len = 16u << 20;
	uint64_t start = vmr_now_ns(), end = start + (uint64_t)ms * 1000000u, cap = start + 20000000000ull;
	for (;;) {
		uint64_t now = vmr_now_ns();
		if (now >= cap || (now >= end && __atomic_load_n(&m->samples, __ATOMIC_RELAXED) >= want))
			break;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		for (size_t i = 0; i < len; i += 4096, pages++)
			p[i] = 1;
		munmap(p, len);
	}
	return pages;
}

int main(void)
{
	struct monitor m = { 0 };
	struct result r = { 0 };
	monitor_init(&m, 10000000);
	CHECK(m.interval_ns == MONITOR_MIN_INTERVAL_NS, "an interval below 50 ms is raised to 50 ms");
	result_init(&r, "null");
	uint64_t f0 = vmstat_now("pgfault");
	uint64_t before = vmr_now_ns();
	CHECK(monitor_start(&m, NULL) == 0, "monitor starts");
	size_t pages = fault_for(400, &m, 3);
	monitor_stop(&m, &r);
	double elapsed = (double)(vmr_now_ns() - before) / 1e9, iv = (double)m.interval_ns / 1e9;
	uint64_t f1 = vmstat_now("pgfault");

	const struct series *pgf = NULL, *free_s = NULL;
	for (size_t i = 0; i < r.nseries; i++) {
		if (!strcmp(r.series[i].name, "vmstat.pgfault"))
			pgf = &r.series[i];
		if (!strcmp(r.series[i].name, "meminfo.MemFree"))
			free_s = &r.series[i];
	}
	/* Each timed sample waits a whole interval past the one before, and a late
	 * one does not shorten the next wait, so the k-th comes no sooner than k
	 * intervals after the start; stop adds one final sample. How many fit in
	 * the run depends on the scheduler, so the bounds come from the measured
	 * time, and the run lasts until at least 3 timed samples were taken. */
	size_t most = (size_t)(elapsed / iv) + 1;
	CHECK(pgf && pgf->n >= 4 && pgf->n <= most,
	      "3 or more timed samples and the last, at most %zu in %.3f s at 50 ms (got %zu)", most, elapsed,
	      pgf ? pgf->n : 0);
	bool spaced = pgf != NULL;
	for (size_t i = 0; pgf && i + 1 < pgf->n; i++)
		spaced = spaced && pgf->t[i] >= (double)(i + 1) * iv - 1e-6;
	CHECK(spaced, "the k-th timed sample comes k intervals or more after the start (first %.3f s)",
	      pgf ? pgf->t[0] : -1);
	CHECK(pgf && pgf->t[pgf->n - 1] <= elapsed, "times are relative to the start (last %.3f s of %.3f s)",
	      pgf && pgf->n ? pgf->t[pgf->n - 1] : -1, elapsed);
	bool rising = pgf != NULL;
	for (size_t i = 1; pgf && i < pgf->n; i++)
		rising = rising && pgf->t[i] > pgf->t[i - 1];
	CHECK(rising, "sample times rise");
	double sum = series_sum(pgf);
	CHECK(sum >= (double)pages && sum <= (double)(f1 - f0),
	      "pgfault deltas cover our %zu faults and stay within /proc/vmstat's %llu", pages,
	      (unsigned long long)(f1 - f0));
	CHECK(free_s && free_s->n == pgf->n && free_s->v[0] > 0, "meminfo gauges sampled with the counters");
	CHECK(r.nmetrics == 0, "the monitor adds series, not metrics");
	json_t *info = json_object_get(r.info, "monitor");
	CHECK(json_integer_value(json_object_get(info, "samples")) == (json_int_t)pgf->n &&
	      json_integer_value(json_object_get(info, "cpu_ns")) > 0, "info counts samples and the thread's CPU time");
	result_free(&r);

	/* A second start on the same monitor begins afresh (one per iteration).
	 * On a 10 s interval no timed sample falls in, however late this thread
	 * runs, and a stop that waited for the next tick would take 10 s. */
	m.interval_ns = 10000000000ull;
	result_init(&r, "null");
	CHECK(monitor_start(&m, NULL) == 0, "monitor restarts");
	uint64_t t0 = vmr_now_ns();
	monitor_stop(&m, &r);
	CHECK(vmr_now_ns() - t0 < 5000000000ull, "stop is prompt: it does not wait for the next sample");
	const struct series *s = r.nseries ? &r.series[0] : NULL;
	CHECK(s && s->n == 1, "an immediate stop still takes the final sample");
	result_free(&r);
	monitor_destroy(&m);
	T_DONE();
}
