/* The clocks.  The monotonic one: nanosecond timestamps for measured loops
 * and for every other interval vmregress measures (util.h includes this
 * header, so vmr_now_ns is one clock whichever header names it); and the
 * wall clock, for the times stored with results.
 *
 * clock_gettime(CLOCK_MONOTONIC) is served by the vDSO on every kernel
 * vmregress targets: no system call, about 20 ns, and correct across CPUs
 * and frequency changes.  That is cheap next to a page fault (hundreds of
 * nanoseconds at least), which is the only thing the workloads time per
 * page; a resident page is never timed, so the clock is not on the path the
 * resident-region benchmark measures. */
#ifndef VMR_TIMER_H
#define VMR_TIMER_H

#include <stdint.h>
#include <time.h>

static inline uint64_t vmr_now_ns(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Wall clock in seconds since the epoch, as a double. */
static inline double vmr_wall_s(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif
