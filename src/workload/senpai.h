/* senpai's controller, apart from the cgroup so that a test can feed it a
 * sequence of stalls: it says which memory.high to try next, and keeps the
 * lowest one whose stall stayed under the target.
 *
 *	senpai_walk_start(&w, memory_current, floor, page_size, step, target);
 *	while (senpai_walk_next(&w, &high))
 *		senpai_walk_record(&w, stall measured with memory.high = high);
 *
 * Every figure it keeps is one a step tried: memory-needed is absent
 * (have_needed false) when no step stayed under the target, never the
 * memory.current it started from. */
#ifndef VMR_SENPAI_H
#define VMR_SENPAI_H

#include <stdbool.h>
#include <stdint.h>

struct senpai_walk {
	/* the walk's settings */
	uint64_t floor, page_size;
	double step, target;
	/* where it is: the memory.high to try next (0: done) */
	uint64_t next;
	/* what it found */
	uint64_t needed, passed;       /* the lowest high under the target; the high that passed it */
	double stall_needed, stall_passed;
	long steps;
	bool have_needed, reached;
};

/* Start at start_bytes (memory.current), rounded down to a page, and never
 * go under floor_bytes; step is the fraction memory.high is lowered by. */
void senpai_walk_start(struct senpai_walk *w, uint64_t start_bytes, uint64_t floor_bytes, uint64_t page_size,
		       double step, double target);
/* The memory.high to try next: true and *high, or false when the walk is
 * over (the target passed, or the floor tried). */
bool senpai_walk_next(const struct senpai_walk *w, uint64_t *high);
/* The stall measured at the high senpai_walk_next gave. */
void senpai_walk_record(struct senpai_walk *w, double stall);

#endif
