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

#endif
