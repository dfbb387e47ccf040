/* reread's timed reads over a resident buffer against a bare loop that
 * reads the same bytes and checks nothing: the cost of folding the check
 * into the measured loop.  For each touch mode (byte, line, page) prints
 * the fastest of P passes of each, in ns, and their ratio.
 * usage: reread_touch PAGES PASSES */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "workload/touch.h"

static uint64_t now(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The bare read: the same bytes and words, summed, not compared. */
static uint64_t bare_page(const char *p, size_t ps, size_t step)
{
	const volatile uint8_t *b = (const volatile uint8_t *)p;
	unsigned acc = 0;
	for (size_t off = 8; off < ps - 8; off += step)
		acc += b[off];
	return acc + ((const volatile uint64_t *)p)[0] + ((const volatile uint64_t *)p)[ps / 8 - 1];
}

int main(int argc, char **argv)
{
	size_t n = (size_t)atol(argc > 1 ? argv[1] : "16384");
	int passes = atoi(argc > 2 ? argv[2] : "9");
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), steps[] = { 1, 64, ps };
	const char *names[] = { "byte", "line", "page" };
	char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t salt = 0x1234, sink = 0, found, bad = 0;
	if (p == MAP_FAILED)
		return 1;
	madvise(p, n * ps, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < n; i++)
		touch_fill_page(p + i * ps, ps, i, salt, TOUCH_FILL_PATTERN);
	for (int m = 0; m < 3; m++) {
		uint64_t best_chk = UINT64_MAX, best_bare = UINT64_MAX;
		for (int k = 0; k < passes; k++) {
			uint64_t t0 = now();
			for (size_t i = 0; i < n; i++)
				bad += !touch_page(p + i * ps, ps, steps[m], i, salt, TOUCH_FILL_PATTERN, &found);
			uint64_t t1 = now();
			for (size_t i = 0; i < n; i++)
				sink += bare_page(p + i * ps, ps, steps[m]);
			uint64_t t2 = now();
			best_chk = t1 - t0 < best_chk ? t1 - t0 : best_chk;
			best_bare = t2 - t1 < best_bare ? t2 - t1 : best_bare;
		}
		printf("%s %llu %llu %.3f\n", names[m], (unsigned long long)best_chk, (unsigned long long)best_bare,
		       (double)best_chk / (double)best_bare);
	}
	if (bad)
		fprintf(stderr, "reread_touch: %llu pages failed their check\n", (unsigned long long)bad);
	return bad ? 1 : (int)(sink & 0);
}
