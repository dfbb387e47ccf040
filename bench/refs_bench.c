/* Benchmarks of the reference-trace code, side by side in one run:
 *  - generation rate of random, linear and smooth_sin (and the rest, for
 *    information) against the 50 M references/s target, on one core;
 *  - replay of a fully resident region, timed in adaptive batches of 32 to
 *    1024 references (the default), in fixed batches of 32 and per
 *    reference (batch 1), against a bare loop doing the same accesses and
 *    the same per-word check (reads), read and write, for several patterns.  The four run in turn in every round
 *    and the best of each is compared, so a busy machine hurts them alike;
 *  - the same for random reads over 16M, 64M, 256M and 1G, so that the cost
 *    per reference is seen as the region grows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "core/util.h"
#include "refs/gen.h"
#include "refs/replay.h"
#include "refs/trace.h"

#define GEN_REFS 50000000ull
#define REPLAY_PAGES 25000
#define REPLAY_REFS 4000000ull
#define ROUNDS 11

/* The region's pages in the replay benchmarks: REPLAY_PAGES, or each of
 * the scaling sizes in turn. */
static uint32_t replay_pages = REPLAY_PAGES;

/* CPU time of this thread: on a shared machine, time spent preempted
 * would otherwise count against whichever loop happened to be running. */
static uint64_t cpu_ns(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double gen_rate(enum refs_pattern pat, uint32_t *buf, uint64_t n)
{
	struct refs_params p = { 0 };
	refs_params_default(&p);
	p.phases = "linear:1,random:1";
	double best = 0;
	for (int r = 0; r < 3; r++) {
		uint64_t t0 = cpu_ns();
		refs_generate(buf, REPLAY_PAGES, n, pat, &p, (uint64_t)r + 1);
		double rate = (double)n / ((double)(cpu_ns() - t0) / 1e9);
		best = rate > best ? rate : best;
	}
	return best;
}

static void bench_generate(void)
{
	uint32_t *buf = malloc(GEN_REFS * 4);
	double rows[REFS_NPATTERNS];
	printf("generation (%llu references over %d pages, best of 3, CPU time of one thread)\n", GEN_REFS, REPLAY_PAGES);
	printf("  %-11s %14s %12s\n", "pattern", "refs/s", "vs 50M/s");
	for (int pat = 0; pat < REFS_NPATTERNS; pat++) {
		uint64_t n = pat == REFS_ZIPF || pat == REFS_GAUSS ? GEN_REFS / 10 : GEN_REFS;
		double r = gen_rate(pat, buf, n);
		printf("  %-11s %14.0f %11.2fx\n", refs_pattern_name(pat), r, r / 50e6);
		rows[pat] = r;
	}
	/* the report's rows: cost per reference against the 50M/s goal's */
	for (int pat = 0; pat < REFS_NPATTERNS; pat++)
		printf("row\ttrace generation %s, ns/ref (goal 50M refs/s)\t%.2f\t20.00\t%.2f\t-\t3\n",
		       refs_pattern_name(pat), 1e9 / rows[pat], 50e6 / rows[pat]);
	free(buf);
}

struct timed {
	uint64_t best, slow;
	double p50, p99;
	double ratio[ROUNDS]; /* against the bare loop of the same round */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_ratio(struct timed *t)
{
	qsort(t->ratio, ROUNDS, sizeof(double), cmp_double);
	return t->ratio[ROUNDS / 2];
}

/* One timed replay with batches of batch to batch_max references, CPU ns
 * of replay_run_pass alone. */
static uint64_t timed_run(struct timed *t, const uint32_t *refs, bool write, char *region, size_t ps, uint32_t batch,
			  uint32_t batch_max)
{
	struct replay_cfg cfg = { .write = write, .verify = !write, .salt = 5, .slow_ns = 2000, .max_slow = 100000,
				  .batch = batch, .batch_max = batch_max };
	struct replay rp = { 0 };
	struct replay_pass pass = { 0 };
	replay_init(&rp, replay_pages, &cfg);
	uint64_t t0 = cpu_ns();
	replay_run_pass(&rp, refs, REPLAY_REFS, region, ps, 0, &pass);
	uint64_t d = cpu_ns() - t0;
	if (rp.bad)
		printf("  (replay found %llu bad words)\n", (unsigned long long)rp.bad);
	struct hist *h = replay_finish(&rp);
	if (d < t->best) {
		t->best = d;
		t->slow = pass.slow;
		t->p50 = hist_percentile(h, 50);
		t->p99 = hist_percentile(h, 99);
	}
	free(h);
	replay_free(&rp);
	return d;
}

/* The bare loop the replay is measured against, doing the same work per
 * reference: a read compares the word with the one the page should hold
 * (what the replay's verify does), a write stores it.  The page shift is
 * a constant, as in the replay's loops for 4K pages. */
static inline __attribute__((always_inline)) uint64_t bare_loop(const uint32_t *refs, uint64_t n, char *region,
								 unsigned shift, bool write, uint64_t salt)
{
	uint64_t bad = 0;
	if (write) {
		for (uint64_t i = 0; i < n; i++) {
			uint32_t p = refs_at(refs, i);
			*(volatile uint64_t *)(region + ((size_t)p << shift)) = replay_word(p, salt);
		}
		return n;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint32_t p = refs_at(refs, i);
		bad += *(volatile uint64_t *)(region + ((size_t)p << shift)) != replay_word(p, salt);
	}
	return bad;
}

static uint64_t bare_run(const uint32_t *refs, uint64_t n, char *region, size_t ps, bool write, uint64_t salt)
{
	return ps == 4096 ? bare_loop(refs, n, region, 12, write, salt)
			  : bare_loop(refs, n, region, (unsigned)__builtin_ctzll(ps), write, salt);
}

/* Bare loop, adaptive batches, batch 32 and batch 1, interleaved in every
 * round (the order reversed every other round): the best time of each, and
 * the median over the rounds of each one's ratio to the bare loop of its
 * round. */
static void bench_replay_one(enum refs_pattern pat, bool write, char *region, size_t ps)
{
	struct refs_params p = { 0 };
	refs_params_default(&p);
	uint32_t *refs = malloc(REPLAY_REFS * 4);
	refs_generate(refs, replay_pages, REPLAY_REFS, pat, &p, 1);
	uint64_t best_bare = UINT64_MAX, sink = 0;
	struct timed ad = { .best = UINT64_MAX }, b32 = { .best = UINT64_MAX }, b1 = { .best = UINT64_MAX };
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t d[4] = { 0 };
		for (int step = 0; step < 4; step++) {
			int which = r % 2 ? 3 - step : step;
			if (which == 0) {
				uint64_t t0 = cpu_ns();
				uint64_t got = bare_run(refs, REPLAY_REFS, region, ps, write, 5);
				if (!write && got) {
					fprintf(stderr, "refs_bench: the bare loop found %llu bad words\n",
						(unsigned long long)got);
					exit(1);
				}
				sink += got;
				d[0] = cpu_ns() - t0;
				best_bare = d[0] < best_bare ? d[0] : best_bare;
			} else if (which == 1) {
				d[1] = timed_run(&ad, refs, write, region, ps, 32, 1024);
			} else if (which == 2) {
				d[2] = timed_run(&b32, refs, write, region, ps, 32, 32);
			} else {
				d[3] = timed_run(&b1, refs, write, region, ps, 1, 1);
			}
		}
		ad.ratio[r] = (double)d[1] / (double)d[0];
		b32.ratio[r] = (double)d[2] / (double)d[0];
		b1.ratio[r] = (double)d[3] / (double)d[0];
	}
	double bare = (double)best_bare;
	printf("  %-11s %-5s %6.2f %6.2f %6.3f %6.2f %6.3f %6.2f %6.3f %6llu %6llu %6llu %5.0f %5.0f\n",
	       refs_pattern_name(pat), write ? "write" : "read", bare / REPLAY_REFS, (double)ad.best / REPLAY_REFS,
	       median_ratio(&ad), (double)b32.best / REPLAY_REFS, median_ratio(&b32), (double)b1.best / REPLAY_REFS,
	       median_ratio(&b1), (unsigned long long)ad.slow, (unsigned long long)b32.slow,
	       (unsigned long long)b1.slow, ad.p50, ad.p99);
	double m = median_ratio(&ad);
	char size[32] = "";
	if (replay_pages != REPLAY_PAGES)
		snprintf(size, sizeof(size), " of %zuM", (size_t)replay_pages * ps >> 20);
	printf("row\treplay %s %s%s (adaptive batches), ns/ref\t%.2f\t%.2f\t%.2f\t%.2f-%.2f\t%d\n",
	       refs_pattern_name(pat), write ? "write" : "read", size, (double)ad.best / REPLAY_REFS,
	       bare / REPLAY_REFS, m, ad.ratio[0], ad.ratio[ROUNDS - 1], ROUNDS);
	if (sink == 42)
		putchar(' ');
	free(refs);
}

static void bench_replay(const char *only)
{
	size_t ps = vmr_page_size();
	char *region = mmap(NULL, REPLAY_PAGES * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	replay_fill(region, REPLAY_PAGES, ps, 5);
	printf("\nreplay of a resident region (%d pages, %llu references, best of %d, timer %s)\n", REPLAY_PAGES,
	       REPLAY_REFS, ROUNDS, REPLAY_TIMER);
	uint64_t t0 = cpu_ns(), acc = 0;
	for (int i = 0; i < 1000000; i++)
		acc += replay_ticks();
	printf("  one timer read (%s): %.1f ns of CPU%s\n", REPLAY_TIMER, (double)(cpu_ns() - t0) / 1e6, acc == 1 ? " " : "");
	printf("  %d rounds, each running the bare loop, the replay timed in adaptive batches of 32 to 1024\n"
	       "  references (adapt, the default), in fixed batches of 32 (b32) and per reference (b1), in\n"
	       "  turn; times are the best CPU ns per reference (CLOCK_THREAD_CPUTIME_ID); a ratio is the\n"
	       "  median over the rounds of the time against the bare loop of the same round; slow counts\n"
	       "  slow batches or accesses; p50 and p99 (ns) are adapt's\n", ROUNDS);
	printf("  %-11s %-5s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %5s %5s\n", "pattern", "mode", "bare", "adapt",
	       "ratio", "b32", "ratio", "b1", "ratio", "slowA", "slow32", "slow1", "p50", "p99");
	enum refs_pattern pats[] = { REFS_SMOOTH_SIN, REFS_RANDOM, REFS_LINEAR, REFS_ZIPF };
	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
		for (int w = 0; w < 2 && (!only || !strcmp(only, refs_pattern_name(pats[i]))); w++)
			bench_replay_one(pats[i], w, region, ps);
	munmap(region, REPLAY_PAGES * ps);
}

/* Scaling: random reads over 16M to 1G of resident pages, the same number
 * of references at each size, so that the cost per reference is seen
 * against the bare loop's as the region outgrows the caches and the TLB. */
static void bench_replay_scaling(void)
{
	size_t ps = vmr_page_size();
	printf("\nreplay scaling: random reads of %llu references over 16M to 1G (columns as above)\n",
	       REPLAY_REFS);
	for (size_t mib = 16; mib <= 1024; mib *= 4) {
		replay_pages = (uint32_t)((mib << 20) / ps);
		char *region = mmap(NULL, (size_t)replay_pages * ps, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (region == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		replay_fill(region, replay_pages, ps, 5);
		bench_replay_one(REFS_RANDOM, false, region, ps);
		munmap(region, (size_t)replay_pages * ps);
	}
	replay_pages = REPLAY_PAGES;
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "generate"))
		bench_generate();
	if (argc < 2 || !strcmp(argv[1], "replay"))
		bench_replay(argc > 2 ? argv[2] : NULL);
	if (argc < 2 || !strcmp(argv[1], "scaling"))
		bench_replay_scaling();
	return 0;
}
