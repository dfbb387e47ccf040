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

/* Fault in fresh anonymous pages for about ms milliseconds. */
static size_t fault_for(long ms)
{
	size_t pages = 0, len = 16u << 20;
	uint64_t end = vmr_now_ns() + (uint64_t)ms * 1000000u;
	while (vmr_now_ns() < end) {
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
	CHECK(monitor_start(&m, NULL) == 0, "monitor starts");
	size_t pages = fault_for(400);
	monitor_stop(&m, &r);
	uint64_t f1 = vmstat_now("pgfault");

	const struct series *pgf = NULL, *free_s = NULL;
	for (size_t i = 0; i < r.nseries; i++) {
		if (!strcmp(r.series[i].name, "vmstat.pgfault"))
			pgf = &r.series[i];
		if (!strcmp(r.series[i].name, "meminfo.MemFree"))
			free_s = &r.series[i];
	}
	CHECK(pgf && pgf->n >= 6 && pgf->n <= 10, "about 8 samples in 400 ms at 50 ms, plus the last (got %zu)",
	      pgf ? pgf->n : 0);
	CHECK(pgf && pgf->t[0] > 0.04 && pgf->t[0] < 0.2, "times are relative to the start (first %.3f s)",
	      pgf ? pgf->t[0] : -1);
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

	/* A second start on the same monitor begins afresh (one per iteration). */
	result_init(&r, "null");
	CHECK(monitor_start(&m, NULL) == 0, "monitor restarts");
	uint64_t t0 = vmr_now_ns();
	monitor_stop(&m, &r);
	CHECK(vmr_now_ns() - t0 < 40000000, "stop is prompt");
	const struct series *s = r.nseries ? &r.series[0] : NULL;
	CHECK(s && s->n == 1, "an immediate stop still takes the final sample");
	result_free(&r);
	monitor_destroy(&m);
	T_DONE();
}
