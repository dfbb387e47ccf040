/* The row means of the cases' tables: for every table a case's iterations
 * hold (a workload's per-pass or per-thread rows), each column's mean over
 * the passing iterations row by row, against the table's first column, as
 * the report draws them.  Computed by the command a case at a time, while
 * that case's tables are loaded, and read by the formatter. */
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

/* A table of a case: its columns as the first table of that name holds
 * them, over the runs in order (cols[0], the first, is x).  lines[r *
 * ncols + col] is run r's line of column col (col 0's is empty). */
struct row_means {
	char *case_name;
	const struct table *proto;
	size_t nruns;
	struct row_line *lines;
};

struct row_means_set {
	size_t n;
	struct row_means *v;
};

/* One case's tables over runs[0..nruns), appended to out: a table per
 * name, the first of that name in the runs' order, at most 64.  Its
 * tables (proto) are the runs' own: out lives no longer than they do. */
void row_means_case(const struct run *const *runs, size_t nruns, const char *case_name, struct row_means_set *out);
/* Run r's line of a column of a case's table, or NULL. */
const struct row_line *row_means_line(const struct row_means_set *s, const char *case_name, const char *table,
				      size_t r, size_t col);
void row_means_free(struct row_means_set *s);

#endif
