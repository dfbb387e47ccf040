/* pagemap_speed [thp] MIB...: how fast the pagemap probe counts a mapping's
 * pages, side by side with its limit, a bare loop that preads the same
 * range 512 entries at a time and counts the present ones.  For each size
 * it maps MIB of anonymous memory (4K pages, or with "thp" 2 MiB aligned
 * and asking for THPs), touches every page, then times pagemap_scan (with
 * THP counts when kpageflags can be read: root) and the bare loop in turn,
 * ROUNDS times (VMR_BENCH_ROUNDS, default 11), in CPU time of this thread
 * (the machine may be shared), and prints one row per size.  THP sizes as
 * root get a second row against a bare loop that also learns the THP
 * count, one kpageflags word per whole PMD, and must agree with the probe:
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

/* Whether the 512 entries of a PMD map one THP, the bare way: present,
 * consecutive PFNs from an aligned one, and the kpageflags word of the
 * middle page says THP tail. */
static bool bare_pmd_thp(int kpf, const uint64_t *e)
{
	uint64_t pfn = e[0] & PM_PFN_MASK, f = 0;
	if (!(e[0] & PM_PRESENT) || !pfn || pfn % 512 || (e[511] & PM_PFN_MASK) != pfn + 511)
		return false;
	if (pread(kpf, &f, 8, (off_t)((pfn + 256) * 8)) != 8) {
		perror("pagemap_speed: pread kpageflags");
		exit(1);
	}
	return ((f >> KPF_THP) & 1) && ((f >> KPF_COMPOUND_TAIL) & 1);
}

/* The bare loop: the present entries of [p, p + len); with kpf >= 0 also
 * the THP pages of its whole PMDs, one kpageflags word each, in *thp. */
static uint64_t bare_once(int fd, int kpf, char *p, size_t len, size_t ps, uint64_t *thp)
{
	static uint64_t e[512];
	uint64_t n = 0, first = (uintptr_t)p / ps, pages = len / ps;
	*thp = 0;
	for (uint64_t i = 0; i < pages; i += 512) {
		size_t k = pages - i < 512 ? (size_t)(pages - i) : 512;
		if (pread(fd, e, k * 8, (off_t)((first + i) * 8)) != (ssize_t)(k * 8)) {
			perror("pagemap_speed: pread");
			exit(1);
		}
		for (size_t j = 0; j < k; j++)
			n += e[j] >> 63;
		if (kpf >= 0 && k == 512 && (first + i) % 512 == 0)
			*thp += bare_pmd_thp(kpf, e) ? 512 : 0;
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

/* The sides timed: the probe, the bare loop alone, and (THP rows, as root)
 * the bare loop with its kpageflags word per PMD. */
enum side { SIDE_PROBE, SIDE_BARE, SIDE_BARE_KPF, SIDES };

struct bench_ctx {
	struct pagemap pm;
	int fd, kpf;
	char *p;
	size_t len, ps;
};

/* One run of a side; its THP count (UINT64_MAX: not known) in *thp. */
static uint64_t side_run(struct bench_ctx *b, enum side s, uint64_t *thp)
{
	if (s == SIDE_PROBE)
		return probe_once(&b->pm, b->p, b->len, thp);
	uint64_t n = bare_once(b->fd, s == SIDE_BARE_KPF ? b->kpf : -1, b->p, b->len, b->ps, thp);
	*thp = s == SIDE_BARE_KPF ? *thp : UINT64_MAX;
	return n;
}

static void print_row(const char *what, const char *ref, double *probe_ns, double *ref_ns, int rounds)
{
	double ratio[100] = { 0 }, lo = 0, hi = 0;
	for (int r = 0; r < rounds; r++) {
		ratio[r] = probe_ns[r] / ref_ns[r];
		lo = r == 0 || ratio[r] < lo ? ratio[r] : lo;
		hi = r == 0 || ratio[r] > hi ? ratio[r] : hi;
	}
	printf("row\t%s%s, ns/page\t%.2f\t%.2f\t%.2f\t%.2f-%.2f\t%d\n", what, ref,
	       median(probe_ns, rounds), median(ref_ns, rounds), median(ratio, rounds), lo, hi, rounds);
}

static void bench_size(size_t mib, bool thp, int rounds)
{
	char err[PROBE_ERR_MAX];
	struct bench_ctx b = { .fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC), .kpf = -1,
			       .len = mib << 20, .ps = (size_t)vmr_page_size() };
	size_t pages = b.len / b.ps;
	double ns[SIDES][100] = { { 0 } };
	uint64_t thp_pages = 0;
	b.p = map_touched(b.len, thp);
	if (b.fd < 0 || pagemap_open(&b.pm, 0, !getenv("VMR_BENCH_NO_THP"), err) < 0) {
		fprintf(stderr, "pagemap_speed: cannot open pagemap\n");
		exit(3);
	}
	if (thp && b.pm.kpf_fd >= 0)
		b.kpf = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	int sides = b.kpf >= 0 ? SIDES : SIDE_BARE_KPF;
	for (int s = 0; s < sides; s++)         /* warm all: page tables, caches */
		side_run(&b, (enum side)s, &thp_pages);
	for (int r = 0; r < rounds; r++) {
		/* Forwards, then backwards: whichever goes first pays for
		 * what ran before it, so the order alternates. */
		uint64_t thp_of[SIDES] = { 0 };
		for (int k = 0; k < sides; k++) {
			enum side s = (enum side)(r % 2 ? sides - 1 - k : k);
			uint64_t t = cpu_ns(), n = side_run(&b, s, &thp_of[s]);
			ns[s][r] = (double)(cpu_ns() - t) / (double)pages;
			if (n != pages) {
				fprintf(stderr, "pagemap_speed: side %d counted %llu present, want %zu\n",
					s, (unsigned long long)n, pages);
				exit(1);
			}
		}
		if (sides == SIDES && thp_of[SIDE_PROBE] != thp_of[SIDE_BARE_KPF]) {
			fprintf(stderr, "pagemap_speed: the probe counted %llu THP pages, the bare loop %llu\n",
				(unsigned long long)thp_of[SIDE_PROBE], (unsigned long long)thp_of[SIDE_BARE_KPF]);
			exit(1);
		}
		thp_pages = thp_of[SIDE_PROBE];
	}
	char what[160];
	if (thp_pages == UINT64_MAX)
		snprintf(what, sizeof(what), "pagemap %zuM %s, no THP info (not root)", mib, thp ? "THP" : "4K");
	else
		snprintf(what, sizeof(what), "pagemap %zuM %s, THP info (%llu THP pages)", mib,
			 thp ? "THP" : "4K", (unsigned long long)thp_pages);
	print_row(what, "", ns[SIDE_PROBE], ns[SIDE_BARE], rounds);
	if (sides == SIDES)
		print_row(what, ", against pread and a kpageflags word per PMD", ns[SIDE_PROBE],
			  ns[SIDE_BARE_KPF], rounds);
	fflush(stdout);
	pagemap_close(&b.pm);
	if (b.kpf >= 0)
		close(b.kpf);
	close(b.fd);
	munmap(b.p, b.len);
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
	uint64_t thp = 0;
	uint64_t n = bare_once(fd, -1, (char *)(uintptr_t)strtoull(argv[1], NULL, 16),
			       strtoull(argv[2], NULL, 10) * ps, ps, &thp);
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
