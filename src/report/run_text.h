/* A stored run as text, from its summaries (stats/summary.h). */
#ifndef VMR_RUN_TEXT_H
#define VMR_RUN_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/run.h"
#include "stats/summary.h"

/* The text form with everything: a header with the run and environment
 * (when with_env), then a table per case of every metric that is not zero
 * in every iteration (those are counted, not listed), in human units.  s:
 * the run's summaries (summary_build), one per case. */
void run_text_print(FILE *f, const struct run *r, const struct case_summary *s, bool with_env);
/* The one-screen form: a line for the run, then per case its outcome, its
 * headline metrics as mean +- 95% CI (n >= 3) or +- stddev (n = 2), and
 * the counters that explain them (reclaim stalls, swap-ins, major faults),
 * the reasons of iterations that did not pass, and the totals line. */
typedef bool (*run_text_headline_fn)(const char *workload, const char *metric);
/* s: the run's summaries (summary_build), t: its totals (summary_totals);
 * headline says which metrics a workload declares headline ones
 * (workload_metric_headline); NULL: none. */
void run_text_brief(FILE *f, const struct run *r, const struct case_summary *s, const struct summary_totals *t,
		    run_text_headline_fn headline);

/* What a run stopped by a signal left in the store, and the command that
 * compares it. */
struct run_stop_note {
	const char *group;          /* the group's name; NULL: a lone run */
	const char *const *names;   /* its runs (one for a lone run) */
	const size_t *kept;         /* the iterations each stored */
	size_t n;
	const char *base;           /* a lone run: the newest other run of the suite; NULL: none */
	const char *db;             /* the --db given; NULL: the default store */
};
/* The note in two lines into buf (len bytes; cut short when too long), for
 * the signal handler to write: what was stored, and the exact
 * `vmregress compare` that compares it. */
void run_text_stop_note(char *buf, size_t len, const struct run_stop_note *s);

#endif
