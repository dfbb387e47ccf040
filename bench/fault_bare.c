/* The bare loop fault's resident passes are measured against: write the
 * same pattern into N pages, then time P passes that read back and compare
 * each page's first and last words (what fault does to a present page),
 * and P passes that only read one word per page.  Between passes it does,
 * untimed, what fault does between its passes: two getrusage calls, the
 * page-state scan (mincore; pagemap when a page is not resident) and a copy
 * of the state map, so that both stir the caches alike before a timed pass.
 * Prints the fastest pass of each in ns, "CHECK_NS READ_NS": on a shared
 * machine the minimum is the estimate of the cost least disturbed by other
 * work.
 * usage: fault_bare PAGES PASSES */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "workload/pattern.h"

static uint64_t now(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* What fault does between two passes (src/workload/fault.c, pages.c). */
static void between_passes(char *p, size_t n, size_t ps, unsigned char *vec, char *state, char *map, int pm_fd)
{
	struct rusage ru = { 0 };
	getrusage(RUSAGE_SELF, &ru);
	getrusage(RUSAGE_SELF, &ru);
	unsigned char all = 1;
	if (mincore(p, n * ps, vec) == 0)
		for (size_t i = 0; i < n; i++)
			all &= vec[i];
	if (all & 1) {
		memset(state, '#', n);
	} else {
		uint64_t e[512] = { 0 };
		for (size_t i = 0; i < n; i += 512) {
			size_t k = n - i < 512 ? n - i : 512;
			if (pread(pm_fd, e, k * 8, (off_t)(((uintptr_t)p / ps + i) * 8)) != (ssize_t)(k * 8))
				break;
			for (size_t j = 0; j < k; j++)
				state[i + j] = e[j] >> 63 ? '#' : '.';
		}
	}
	memcpy(map, state, n);
}

int main(int argc, char **argv)
{
	size_t n = (size_t)atol(argc > 1 ? argv[1] : "32768");
	int passes = atoi(argc > 2 ? argv[2] : "20");
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t *check = calloc(passes, 8), *read = calloc(passes, 8), bad = 0, sink = 0;
	unsigned char *vec = malloc(n);
	char *state = malloc(n), *map = malloc(n);
	int pm_fd = open("/proc/self/pagemap", O_RDONLY);
	if (p == MAP_FAILED || !check || !read || !vec || !state || !map || pm_fd < 0)
		return 1;
	madvise(p, n * ps, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < n; i++)
		pattern_stamp(p + i * ps, ps, i, 0x5eed);
	/* The check passes back to back, as fault runs them; then the reads. */
	for (int k = 0; k < passes; k++) {
		uint64_t t0 = now(), found;
		for (size_t i = 0; i < n; i++)
			bad += !pattern_check(p + i * ps, ps, i, 0x5eed, &found);
		check[k] = now() - t0;
		between_passes(p, n, ps, vec, state, map, pm_fd);
	}
	for (int k = 0; k < passes; k++) {
		uint64_t t0 = now();
		for (size_t i = 0; i < n; i++)
			sink += ((volatile uint64_t *)(p + i * ps))[0];
		read[k] = now() - t0;
		between_passes(p, n, ps, vec, state, map, pm_fd);
	}
	qsort(check, passes, 8, cmp);
	qsort(read, passes, 8, cmp);
	printf("%llu %llu\n", (unsigned long long)check[0], (unsigned long long)read[0]);
	return bad || !sink ? 2 : 0;
}
