/* The row means of a case's tables: for every table its iterations hold
 * (a workload's per-pass or per-thread rows), each column's mean over the
 * passing iterations row by row, against the table's first column, as the
 * report draws them.  Folded one iteration at a time (row_means_add), so
 * that what is held is a sum and a count per row, whatever the number of
 * iterations; computed by the command a case at a time and read by the
 * formatter. */
#ifndef VMR_ROWMEANS_H
#define VMR_ROWMEANS_H

#include <stddef.h>

#include "core/run.h"

/* One run's line of one column: n points, x from the first column (its
 * value in the first passing iteration with that row), y the mean over
 * the passing iterations that have the row and both columns. */
struct row_line {
	size_t n;
	double *x, *y;
};

/* A line being folded: per row, the sum of y, how many iterations gave
 * one and x as the first of them had it. */
struct row_sums {
	size_t rows;
	double *sum, *x;
	size_t *cnt;
};

/* A table of a case: its name and columns as the first table of that
 * name holds them, over the runs in order (cols[0], the first, is x; the
 * copy holds no rows).  lines[r * ncols + col] is run r's line of column
 * col (col 0's is empty); sums the same while folding. */
struct row_means {
	char *case_name;
	struct table proto;
	size_t nruns;
	struct row_line *lines;
	struct row_sums *sums;
};

struct row_means_set {
	size_t n;
	struct row_means *v;
};

/* Fold iteration res of run r (of nruns) of case case_name into s: its
 * tables as they come, each of a name no earlier iteration of the case
 * had added (at most 64 a case).  The runs' iterations are folded in
 * order, run by run; res need not outlive the call. */
void row_means_add(struct row_means_set *s, const char *case_name, size_t nruns, size_t r, const struct result *res);
/* The lines from the sums, once every iteration is folded. */
void row_means_finish(struct row_means_set *s);
/* Run r's line of a column of a case's table, or NULL. */
const struct row_line *row_means_line(const struct row_means_set *s, const char *case_name, const char *table,
				      size_t r, size_t col);
void row_means_free(struct row_means_set *s);

#endif
