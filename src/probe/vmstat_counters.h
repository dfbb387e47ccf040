/* The /proc/vmstat counters vmregress watches, in one table, and who uses
 * each:
 *   VMSTAT_STORED   the runner keeps its change over every iteration as the
 *                   metric "vmstat-NAME" (in the table's order, which is the
 *                   order of the metrics in stored results and their JSON);
 *   VMSTAT_MONITOR  the monitor's series "vmstat.NAME", its change over
 *                   each interval;
 *   VMSTAT_SUM      with VMSTAT_MONITOR: the series sums NAME and every
 *                   NAME_* counter (allocstall_normal, allocstall_movable...
 *                   on 4.10+, allocstall before), so that it means the same
 *                   on every kernel;
 *   VMSTAT_SENSE    a default column of `sense vmstat`, in the table's order.
 * A counter the running kernel lacks is left out by each user.  Every
 * counter the monitor plots on its own is also stored, so that a series
 * always has the iteration's total beside it (tests/unit/test_vmstat_counters.c). */
#ifndef VMR_PROBE_VMSTAT_COUNTERS_H
#define VMR_PROBE_VMSTAT_COUNTERS_H

#include <stddef.h>

enum vmstat_use {
	VMSTAT_STORED = 1 << 0,
	VMSTAT_MONITOR = 1 << 1,
	VMSTAT_SUM = 1 << 2,
	VMSTAT_SENSE = 1 << 3,
};

struct vmstat_counter {
	const char *name;
	unsigned uses;              /* enum vmstat_use, or'ed */
};

/* The table's length: array sizes of its users are fixed at compile time. */
#define VMSTAT_NCOUNTERS 40

extern const struct vmstat_counter *const vmstat_counters;

/* How many entries have every bit of uses. */
size_t vmstat_counters_count(unsigned uses);

#endif
