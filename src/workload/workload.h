/* A workload: one file under src/workload/, one `const struct workload`
 * with designated initializers, listed once in registry.c.
 *
 * The runner forks a child, places it in the sandbox, and in the child calls
 * setup, run and teardown in turn, each filling the same struct result.  The
 * parent adds rusage, vmstat deltas and sandbox counters.  A workload never
 * prints: a text layout of its own, if it has one, is a function of the
 * stored result in report/workload_text.c. */
#ifndef VMR_WORKLOAD_H
#define VMR_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/options.h"
#include "core/result.h"

/* Where a workload runs: what the runner tells it. */
struct wl_env {
	bool sandboxed;         /* false with --no-sandbox */
	uint64_t limit_bytes;   /* sandbox memory limit (0 unsandboxed) */
	uint64_t swap_bytes;    /* swap the sandbox can use (0: none) */
	uint64_t page_size;
	const char *workdir;    /* a directory for files the workload creates */
	const char *cgroup;     /* the sandbox's cgroup directory, or NULL */
	bool force;             /* --force: sizes beyond free memory allowed unsandboxed */
};

struct workload {
	const char *name;
	const char *summary;             /* one line */
	const struct opt *opts;          /* option table */
	size_t opts_size;                /* sizeof the options struct */
	const struct metric_def *metrics;/* terminated by { .name = NULL } */
	bool needs_root;                 /* needs a sandbox (root) to make sense */
	/* Knobs the programs it runs may change themselves (the kernel's
	 * selftests set THP's), NULL-terminated: its sandbox holds them
	 * (sandbox --hold) and puts them back, after a signal too. */
	const char *const *holds;
	/* Optional: check option combinations after parsing, before anything
	 * runs; print a one-line error and return -1 (a usage error, exit 2). */
	int (*validate)(const void *opts);
	/* NULL when it can run here, else the reason (static string). */
	const char *(*supported)(const void *opts, const struct wl_env *env);
	/* Allocate state; return NULL and set the result's outcome on failure. */
	void *(*setup)(const void *opts, const struct wl_env *env, struct result *r);
	/* Returns 0; a failed check sets OUTCOME_FAIL in r and may return 0. */
	int (*run)(void *state, struct result *r);
	void (*teardown)(void *state, struct result *r);
};

/* The one list of workloads. */
extern const struct workload *const workloads[];
const struct workload *workload_find(const char *name);
/* The workload a mistyped name was probably meant to be, or NULL. */
const char *workload_suggest(const char *name);
/* Whether the workload declares metric one of its headline figures (the
 * metric table's .headline; pft's per-task-count names "NAME-tN" count as
 * NAME): what compare's verdict and a run's summary are on. */
bool workload_metric_headline(const char *workload, const char *metric);
/* How many headline figures the workload declares (pft's per-task-count
 * series count once). */
size_t workload_headline_count(const char *workload);
/* Add w's holds to a sandbox's --hold list (those not in it yet). */
void workload_holds(const struct workload *w, struct strlist *hold);

#endif
