/* Benchmarks of the reference-trace code, side by side in one run:
 *  - generation rate of random, linear and smooth_sin (and the rest, for
 *    information) against the 50 M references/s target, on one core;
 *  - replay of a fully resident region, timed per reference, against a
 *    bare loop doing the same accesses, read and write, for several
 *    patterns.  Runs alternate (bare, timed, bare, timed...) and the best
 *    of each is compared, so a busy machine hurts both alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "core/util.h"
#include "refs/gen.h"
#include "refs/replay.h"

#define GEN_REFS 50000000ull
#define REPLAY_PAGES 25000
#define REPLAY_REFS 4000000ull
#define ROUNDS 5

/* CPU time of this thread: on a shared machine, time spent preempted
 * would otherwise count against whichever loop happened to be running. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double gen_rate(enum refs_pattern pat, uint32_t *buf, uint64_t n)
{
	struct refs_params p;
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
	printf("generation (%llu references over %d pages, best of 3, CPU time of one thread)\n", GEN_REFS, REPLAY_PAGES);
	printf("  %-11s %14s %12s\n", "pattern", "refs/s", "vs 50M/s");
	for (int pat = 0; pat < REFS_NPATTERNS; pat++) {
		uint64_t n = pat == REFS_ZIPF || pat == REFS_GAUSS ? GEN_REFS / 10 : GEN_REFS;
		double r = gen_rate(pat, buf, n);
		printf("  %-11s %14.0f %11.2fx\n", refs_pattern_name(pat), r, r / 50e6);
	}
	free(buf);
}

static void bench_replay_one(enum refs_pattern pat, bool write, char *region, size_t ps)
{
	struct refs_params p;
	refs_params_default(&p);
	uint32_t *refs = malloc(REPLAY_REFS * 4);
	refs_generate(refs, REPLAY_PAGES, REPLAY_REFS, pat, &p, 1);
	struct replay_cfg cfg = { .write = write, .verify = !write, .salt = 5, .slow_ns = 2000, .max_slow = 100000 };
	uint64_t best_bare = UINT64_MAX, best_timed = UINT64_MAX, sink = 0, slow = 0;
	double p50 = 0, p99 = 0;
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t0 = cpu_ns();
		sink += replay_bare(refs, REPLAY_REFS, region, ps, write, 5);
		uint64_t t1 = cpu_ns();
		struct replay rp;
		struct replay_pass pass;
		replay_init(&rp, REPLAY_PAGES, &cfg);
		uint64_t t2 = cpu_ns();
		replay_run_pass(&rp, refs, REPLAY_REFS, region, ps, 0, &pass);
		uint64_t t3 = cpu_ns();
		if (rp.bad)
			printf("  (replay found %llu bad words)\n", (unsigned long long)rp.bad);
		slow = pass.slow;
		struct hist *h = replay_finish(&rp);
		p50 = hist_percentile(h, 50);
		p99 = hist_percentile(h, 99);
		free(h);
		replay_free(&rp);
		best_bare = t1 - t0 < best_bare ? t1 - t0 : best_bare;
		best_timed = t3 - t2 < best_timed ? t3 - t2 : best_timed;
	}
	printf("  %-11s %-5s %10.2f %10.2f %9.3f %10llu %8.0f %8.0f\n", refs_pattern_name(pat), write ? "write" : "read",
	       (double)best_bare / REPLAY_REFS, (double)best_timed / REPLAY_REFS, (double)best_timed / (double)best_bare,
	       (unsigned long long)slow, p50, p99);
	if (sink == 42)
		putchar(' ');
	free(refs);
}

static void bench_replay(void)
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
	printf("  times are CPU ns per reference (CLOCK_THREAD_CPUTIME_ID), best of %d alternating runs\n", ROUNDS);
	printf("  %-11s %-5s %10s %10s %9s %10s %8s %8s\n", "pattern", "mode", "bare ns", "timed ns", "ratio", "slow",
	       "p50 ns", "p99 ns");
	enum refs_pattern pats[] = { REFS_SMOOTH_SIN, REFS_RANDOM, REFS_LINEAR, REFS_ZIPF };
	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
		for (int w = 0; w < 2; w++)
			bench_replay_one(pats[i], w, region, ps);
	munmap(region, REPLAY_PAGES * ps);
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "generate"))
		bench_generate();
	if (argc < 2 || !strcmp(argv[1], "replay"))
		bench_replay();
	return 0;
}
