/* The bare loop usemem is measured against: map SIZE of anonymous memory
 * and walk it as usemem does, every word written with its index (or, with
 * "read", read at random, the index drawn by lrand48_r), REPEAT passes, the later ones checking the word
 * before writing it; print bytes per second counted as usemem counts them
 * (8 per word touched, plus SIZE/8 for the mapping), mapping included, per
 * second of wall time and per second of the process's CPU time.
 * Every word goes through a call that is not inlined, as usemem's does.
 * usage: usemem_bare SIZE_MB REPEAT write|read */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(clockid_t clk)
{
	struct timespec ts = { 0 };
	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static uint64_t touch(volatile uint64_t *w, uint64_t v, int read)
{
	if (read)
		return *w;
	*w = v;
	return 0;
}

int main(int argc, char **argv)
{
	size_t size = (size_t)atol(argc > 1 ? argv[1] : "64") << 20, m = size / 8;
	long repeat = atol(argc > 2 ? argv[2] : "1");
	int readonly = argc > 3 && !strcmp(argv[3], "read");
	uint64_t acc = 0, bytes = size / 8;
	struct drand48_data rd = { 0 };
	srand48_r(1, &rd);
	double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	volatile uint64_t *p = mmap(NULL, size, readonly ? PROT_READ : PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (long pass = 0; pass < repeat; pass++) {
		for (size_t j = 0; j < m; j++) {
			if (readonly) {
				long v = 0;
				lrand48_r(&rd, &v);
				acc |= touch(p + (size_t)((double)(m - 1) * (double)v / 2147483648.0), 0, 1);
			} else {
				if (pass && p[j] != j)
					return 2;
				touch(p + j, j, 0);
			}
		}
		bytes += 8 * m;
	}
	double t = now(CLOCK_MONOTONIC) - t0, c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
	if (acc)
		return 3;
	printf("%.0f %.0f\n", bytes / t, bytes / c);
	return 0;
}
