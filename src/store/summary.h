/* Summaries of a stored run: per case and metric the count, mean, sample
 * standard deviation, min and max over the iterations that produced the
 * metric, and the outcomes.  `show` prints them, `run` prints them when it
 * finishes; `export` writes the same numbers as tidy rows (report/export.h). */
#ifndef VMR_SUMMARY_H
#define VMR_SUMMARY_H

#include <jansson.h>
#include <stdio.h>

#include "store/store.h"

struct metric_summary {
	const char *name, *unit;    /* borrowed from the run's results */
	const char *better;         /* "lower", "higher", "none" */
	size_t n;
	double mean, stddev, min, max;
};

struct case_summary {
	const struct run_case *c;
	size_t nmetrics;
	struct metric_summary *m;   /* in order of first appearance */
	size_t outcomes[5];         /* by enum outcome */
};

/* Summaries of every case of r; free with summary_free. */
struct case_summary *summary_build(const struct run *r);
void summary_free(struct case_summary *s, size_t n);

/* The run as JSON: run info, env, and per case the summaries and outcomes. */
json_t *summary_to_json(const struct run *r, bool with_env);
/* The text form: a header with the run and environment (when with_env),
 * then a table per case. */
void summary_print(FILE *f, const struct run *r, bool with_env);

#endif
