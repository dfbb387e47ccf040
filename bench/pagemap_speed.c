/* pagemap_speed [thp] MIB...: how fast the pagemap probe counts a mapping's
 * pages, side by side with its limit, a bare loop that preads the same
 * range 512 entries at a time and counts the present ones.  For each size
 * it maps MIB of anonymous memory (4K pages, or with "thp" 2 MiB aligned
 * and asking for THPs), touches every page, then times pagemap_scan (with
 * THP counts when kpageflags can be read: root) and the bare loop in turn,
 * ROUNDS times (VMR_BENCH_ROUNDS, default 11), in CPU time of this thread
 * (the machine may be shared), and prints one row per size:
 *   row <TAB> measurement <TAB> vmregress ns/page <TAB> bare ns/page <TAB>
 *   median ratio <TAB> min-max ratio <TAB> rounds
 * "pagemap_speed read PID ADDR PAGES" is the bare loop alone over another
 * process, for timing whole commands.  The ratio is probe time / bare time of each pair (1.0: at the limit;
 * 1.11: 0.9x the limit's speed).  VMR_BENCH_NO_THP=1 leaves THP counts out. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "probe/pagemap.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* This thread's CPU time: on a shared, busy machine the wall clock also
 * counts the time other processes held the CPU. */
static uint64_t cpu_ns(void)
{
	struct timespec t = { 0 };
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static uint64_t probe_once(struct pagemap *pm, char *p, size_t len, uint64_t *thp)
{
	struct pagemap_counts c = { 0 };
	char err[PROBE_ERR_MAX];
	if (pagemap_scan(pm, (uintptr_t)p, (uintptr_t)p + len, &c, NULL, err) < 0) {
		fprintf(stderr, "pagemap_speed: %s\n", err);
		exit(1);
	}
	*thp = c.thp_known ? c.thp : UINT64_MAX;
	return c.present;
}

static uint64_t bare_once(int fd, char *p, size_t len, size_t ps)
{
	static uint64_t e[512];
	uint64_t n = 0, first = (uintptr_t)p / ps, pages = len / ps;
	for (uint64_t i = 0; i < pages; i += 512) {
		size_t k = pages - i < 512 ? (size_t)(pages - i) : 512;
		if (pread(fd, e, k * 8, (off_t)((first + i) * 8)) != (ssize_t)(k * 8)) {
			perror("pagemap_speed: pread");
			exit(1);
		}
		for (size_t j = 0; j < k; j++)
			n += e[j] >> 63;
	}
	return n;
}

static char *map_touched(size_t len, bool thp)
{
	size_t align = 2u << 20;
	char *p = mmap(NULL, len + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		perror("pagemap_speed: mmap");
		exit(3);
	}
	p = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	madvise(p, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 1;
	return p;
}

static void bench_size(size_t mib, bool thp, int rounds)
{
	size_t ps = (size_t)vmr_page_size(), len = mib << 20, pages = len / ps;
	char *p = map_touched(len, thp), err[PROBE_ERR_MAX];
	struct pagemap pm = { 0 };
	double probe_ns[100] = { 0 }, bare_ns[100] = { 0 }, ratio[100] = { 0 };
	uint64_t thp_pages = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || pagemap_open(&pm, 0, !getenv("VMR_BENCH_NO_THP"), err) < 0) {
		fprintf(stderr, "pagemap_speed: cannot open pagemap\n");
		exit(3);
	}
	probe_once(&pm, p, len, &thp_pages);    /* warm both: page tables, caches */
	bare_once(fd, p, len, ps);
	for (int r = 0; r < rounds; r++) {
		/* A B, then B A: whichever goes first in a pair pays for what
		 * ran before it, so the order alternates. */
		uint64_t t0, t1, t2, n1, n2;
		if (r % 2 == 0) {
			t0 = cpu_ns(), n1 = probe_once(&pm, p, len, &thp_pages);
			t1 = cpu_ns(), n2 = bare_once(fd, p, len, ps);
			t2 = cpu_ns();
		} else {
			t1 = cpu_ns(), n2 = bare_once(fd, p, len, ps);
			t0 = cpu_ns(), n1 = probe_once(&pm, p, len, &thp_pages);
			t2 = t0, t0 = t1, t1 = cpu_ns();
			uint64_t bare = t2 - t0, probe = t1 - t2;
			t0 = 0, t1 = probe, t2 = probe + bare;
		}
		if (n1 != pages || n2 != pages) {
			fprintf(stderr, "pagemap_speed: counted %llu and %llu present, want %zu\n",
				(unsigned long long)n1, (unsigned long long)n2, pages);
			exit(1);
		}
		probe_ns[r] = (double)(t1 - t0) / (double)pages;
		bare_ns[r] = (double)(t2 - t1) / (double)pages;
		ratio[r] = probe_ns[r] / bare_ns[r];
	}
	double lo = ratio[0], hi = ratio[0];
	for (int r = 1; r < rounds; r++) {
		lo = ratio[r] < lo ? ratio[r] : lo;
		hi = ratio[r] > hi ? ratio[r] : hi;
	}
	char what[160];
	if (thp_pages == UINT64_MAX)
		snprintf(what, sizeof(what), "pagemap %zuM %s, no THP info (not root)", mib, thp ? "THP" : "4K");
	else
		snprintf(what, sizeof(what), "pagemap %zuM %s, THP info (%llu THP pages)", mib,
			 thp ? "THP" : "4K", (unsigned long long)thp_pages);
	printf("row\t%s, ns/page\t%.2f\t%.2f\t%.2f\t%.2f-%.2f\t%d\n", what,
	       median(probe_ns, rounds), median(bare_ns, rounds), median(ratio, rounds), lo, hi, rounds);
	fflush(stdout);
	pagemap_close(&pm);
	close(fd);
	munmap(p, len);
}

/* read PID ADDR PAGES: the whole-command reference, a bare chunked pread
 * of another process's pagemap; prints the present count. */
static int bare_read(char **argv)
{
	char path[64];
	size_t ps = (size_t)vmr_page_size();
	snprintf(path, sizeof(path), "/proc/%s/pagemap", argv[0]);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror("pagemap_speed: open");
		return 3;
	}
	uint64_t n = bare_once(fd, (char *)(uintptr_t)strtoull(argv[1], NULL, 16), strtoull(argv[2], NULL, 10) * ps, ps);
	printf("%llu\n", (unsigned long long)n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "read"))
		return bare_read(argv + 2);
	int a = 1, rounds = getenv("VMR_BENCH_ROUNDS") ? atoi(getenv("VMR_BENCH_ROUNDS")) : 11;
	bool thp = argc > 1 && !strcmp(argv[1], "thp");
	a += thp;
	if (rounds < 1 || rounds > 100 || a >= argc) {
		fprintf(stderr, "usage: pagemap_speed [thp] MIB... (VMR_BENCH_ROUNDS 1-100)\n");
		return 2;
	}
	for (; a < argc; a++)
		bench_size(strtoul(argv[a], NULL, 10), thp, rounds);
	return 0;
}
