/* Summaries of a stored run: per case and metric the count, mean, sample
 * standard deviation, min and max, and the outcomes.  One set of figures:
 * `run` (at its end), `show`, `compare` and `report` count the same
 * iterations, those that passed with a finite value (warm-ups, stored as
 * skipped, and skipped or failed iterations are left out; summary_values),
 * and take the same mean, harmonic for rates (stats_summarize).  `show`
 * prints them, `run` prints them when it finishes (report/run_text.h). */
#ifndef VMR_SUMMARY_H
#define VMR_SUMMARY_H

#include <jansson.h>
#include <stdio.h>

#include "core/run.h"

struct metric_summary {
	const char *name, *unit;    /* borrowed from the run's results */
	const char *better;         /* "lower", "higher", "none" */
	enum combine combine;       /* how the mean is taken */
	size_t n;                   /* passing iterations with the metric */
	double mean;                /* by combine: harmonic for rates */
	double stddev, cv, min, max;
};

struct case_summary {
	const struct run_case *c;
	size_t nmetrics;
	struct metric_summary *m;   /* in order of first appearance */
	size_t outcomes[5];         /* by enum outcome */
};

/* The values of metric in c's passing iterations (finite ones), in a new
 * array *vals; the first holder's description in *m when m and *m is NULL.
 * Returns how many. */
size_t summary_values(const struct run_case *c, const char *metric, double **vals, const struct metric **m);

/* Summaries of every case of r; free with summary_free. */
struct case_summary *summary_build(const struct run *r);
void summary_free(struct case_summary *s, size_t n);

/* The +- a mean is shown with: the half-width of its 95% CI (Student's t)
 * from 3 values on, the stddev from 2, 0 from 1. */
double summary_spread(double stddev, size_t n);

/* Cases by outcome: a case passed when every iteration passed, was skipped
 * when every one was skipped, failed when any failed, errored or was
 * OOM-killed, and was not run when it has no stored iteration. */
struct summary_totals {
	size_t passed, failed, skipped, not_run, iterations;
};
void summary_totals(const struct run *r, struct summary_totals *t);

#endif
