/* CPU placement of an iteration (`run --cpu LIST`): the workload child on
 * the CPUs of LIST, the latency probe's thread on the others, so that the
 * probe's wake-ups do not take the workload's CPU from it and the
 * workload's migrations between CPUs stop adding to its variance.
 *
 * The pin is a runner hook: the child waits on its pipe while the hooks
 * start, so its affinity is set before its first instruction of workload
 * code, and every process and thread it makes inherits it. */
#ifndef VMR_PIN_H
#define VMR_PIN_H

#include <sched.h>
#include <stdbool.h>

#include "harness/runner.h"

struct pin {
	cpu_set_t work;     /* the workload's CPUs */
	cpu_set_t rest;     /* this process's other CPUs: the probe's */
	bool any_rest;      /* false: LIST holds every CPU, the probe shares */
};

/* Parse "0", "0,2-3" against the CPUs this process may run on.  0, or -1
 * with *why set (a static reason: "not a CPU list", "no such CPU here"). */
int pin_parse(const char *list, struct pin *p, const char **why);

/* The hook that pins the child; ctx is p. */
struct runner_hook pin_hook(struct pin *p);

#endif
