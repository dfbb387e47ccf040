/* rusage: the /usr/bin/time -v fields as metrics, and counter deltas. */
#include <string.h>
#include <sys/mman.h>

#include "core/rusage.h"
#include "core/util.h"
#include "t.h"

static double metric(const struct result *r, const char *name)
{
	const struct metric *m = result_find_metric(r, name);
	return m ? m->value : -1;
}

int main(void)
{
	struct rusage ru = { 0 };
	memset(&ru, 0, sizeof(ru));
	ru.ru_utime.tv_sec = 1;
	ru.ru_stime.tv_usec = 500000;
	ru.ru_majflt = 7;
	ru.ru_minflt = 1000;
	ru.ru_nvcsw = 3;
	ru.ru_nivcsw = 4;
	ru.ru_maxrss = 2048;
	struct result r = { 0 };
	result_init(&r, "x");
	rusage_metrics(&r, &ru, 3000000000ull);
	CHECK_NEAR(metric(&r, "user-time"), 1e9, 0, "user time in ns");
	CHECK_NEAR(metric(&r, "sys-time"), 5e8, 0, "system time in ns");
	CHECK_NEAR(metric(&r, "elapsed"), 3e9, 0, "elapsed in ns");
	CHECK_NEAR(metric(&r, "cpu-percent"), 50, 1e-9, "cpu percent is (user+sys)/elapsed");
	CHECK_NEAR(metric(&r, "major-faults"), 7, 0, "major faults");
	CHECK_NEAR(metric(&r, "minor-faults"), 1000, 0, "minor faults");
	CHECK_NEAR(metric(&r, "voluntary-switches"), 3, 0, "voluntary switches");
	CHECK_NEAR(metric(&r, "involuntary-switches"), 4, 0, "involuntary switches");
	CHECK_NEAR(metric(&r, "max-rss"), 2048 * 1024.0, 0, "max rss in bytes (from KiB)");
	CHECK(result_find_metric(&r, "user-time")->better == BETTER_LOWER, "times are better lower");
	result_free(&r);

	result_init(&r, "x");
	rusage_metrics(&r, &ru, 0);
	CHECK_NEAR(metric(&r, "cpu-percent"), 0, 0, "zero elapsed gives 0%%, not a division by zero");
	result_free(&r);

	/* The real counters move: touching fresh anonymous pages is minor faults. */
	struct rusage_counts a = { 0 }, b = { 0 }, d = { 0 };
	size_t n = 64, ps = vmr_page_size();
	char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	rusage_thread(&a);
	for (size_t i = 0; i < n; i++)
		p[i * ps] = 1;
	rusage_thread(&b);
	rusage_delta(&a, &b, &d);
	CHECK(d.minflt >= n, "touching %zu new pages counts at least as many minor faults (%llu)", n,
	      (unsigned long long)d.minflt);
	CHECK(d.majflt == 0, "and no major faults");
	munmap(p, n * ps);
	T_DONE();
}
