/* The bare loop will-it-scale's page_fault1 case is measured against: map a
 * private anonymous region, write one byte in every page (a fault each),
 * unmap, for a fixed time, as will-it-scale's own test does; print
 * operations (faults) per second of wall time and per second of the
 * process's CPU time.
 * usage: wis_bare SIZE_MB SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(clockid_t clk)
{
	struct timespec ts = { 0 };
	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t size = (size_t)atol(argc > 1 ? argv[1] : "128") << 20;
	double secs = atof(argc > 2 ? argv[2] : "1");
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long long ops = 0;
	double t0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID), t;
	do {
		char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 1;
		for (size_t off = 0; off < size; off += ps) {
			((volatile char *)p)[off] = 0;
			ops++;
		}
		munmap(p, size);
		t = now(CLOCK_MONOTONIC);
	} while (t - t0 < secs);
	printf("%.0f %.0f\n", ops / (t - t0), ops / (now(CLOCK_THREAD_CPUTIME_ID) - c0));
	return 0;
}
