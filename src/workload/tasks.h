/* Task counts and rounds of tasks, for the workloads that draw a scaling
 * curve (pft, will-it-scale): "--tasks 1,2,4" or "1-8", and T threads or
 * processes started together.
 *
 * A round starts every task, waits until all are ready, stamps go_ns and
 * lets them go at once, so that each task's clock starts from the same
 * moment.  With threads the calling thread is task 0: one task is one
 * thread in the address space, as in a bare loop (a second, idle thread
 * would make every munmap flush the TLB of its CPU too).  The round lives
 * in MAP_SHARED memory so that processes see it. */
#ifndef VMR_TASKS_H
#define VMR_TASKS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TASKS_MAX 1024

/* The CPUs this process may run on: its affinity, which a cpuset (the
 * sandbox's, a container's, taskset) narrows; the CPUs online when the
 * affinity cannot be read.  At least 1. */
long tasks_cpus(void);

/* One count: N (1 to max), or "cpus" (tasks_cpus(), at most max); -1 when
 * s is neither. */
long tasks_single(const char *s, long max);

/* Parse "1,2,4", "1-8" or "1,4-6" into counts[TASKS_MAX]; "cpus" is
 * tasks_cpus() ("1,cpus", "1-cpus"), and a count given twice is measured
 * once.  0, or -1 with *why (a phrase after the quoted input). */
int tasks_parse(const char *s, long *counts, size_t *n, const char **why);

struct tasks_round {
	atomic_int ready, go;
	uint64_t go_ns;         /* when the tasks started */
};

/* Run fn(arg, idx) in T tasks (threads or forked processes) started
 * together; returns when all have ended.  0, or -1 with errno when not all
 * T could start (those that did are waited for). */
int tasks_run(struct tasks_round *rd, long T, bool threads, void (*fn)(void *arg, long idx), void *arg);

#endif
