/* The row means of the cases' tables: see rowmeans.h. */
#include "stats/rowmeans.h"

#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"

#define ROW_MEANS_TABLES 64

static const struct run_case *row_means_case_of(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].name, name))
			return &r->cases[i];
	return NULL;
}

/* One run's line: x from column xcol, y the mean of column ycol over the
 * passing iterations that have the table and both columns, row by row. */
static void row_means_line_of(struct row_line *l, const struct run_case *c, const char *table, const char *xcol,
			      const char *ycol)
{
	size_t rows = 0;
	double *sum = NULL, *xs = NULL;
	size_t *cnt = NULL;
	for (size_t i = 0; c && i < c->niter; i++) {
		const struct table *t = result_find_table(&c->iters[i], table);
		long xi = table_col(t, xcol), yi = table_col(t, ycol);
		if (xi < 0 || yi < 0 || c->iters[i].outcome != OUTCOME_PASS)
			continue;
		if (t->nrows > rows) {
			sum = xrealloc(sum, t->nrows * sizeof(double));
			xs = xrealloc(xs, t->nrows * sizeof(double));
			cnt = xrealloc(cnt, t->nrows * sizeof(size_t));
			for (size_t k = rows; k < t->nrows; k++) {
				sum[k] = 0;
				cnt[k] = 0;
				xs[k] = t->cells[k * t->ncols + (size_t)xi];
			}
			rows = t->nrows;
		}
		for (size_t k = 0; k < t->nrows; k++) {
			sum[k] += t->cells[k * t->ncols + (size_t)yi];
			cnt[k]++;
		}
	}
	*l = (struct row_line){ .x = rows ? xcalloc(rows, sizeof(double)) : NULL,
				.y = rows ? xcalloc(rows, sizeof(double)) : NULL };
	for (size_t k = 0; k < rows; k++)
		if (cnt[k]) {
			l->x[l->n] = xs[k];
			l->y[l->n++] = sum[k] / (double)cnt[k];
		}
	free(sum);
	free(xs);
	free(cnt);
}

/* A case's tables: the first of each name over the runs in order. */
static size_t row_means_protos(const struct run *const *runs, size_t nruns, const char *case_name,
			       const struct table **protos)
{
	size_t n = 0;
	for (size_t r = 0; r < nruns; r++) {
		const struct run_case *c = row_means_case_of(runs[r], case_name);
		for (size_t i = 0; c && i < c->niter; i++)
			for (size_t k = 0; k < c->iters[i].ntables; k++) {
				const struct table *t = &c->iters[i].tables[k];
				size_t j = 0;
				while (j < n && strcmp(protos[j]->name, t->name))
					j++;
				if (j == n && n < ROW_MEANS_TABLES)
					protos[n++] = t;
			}
	}
	return n;
}

void row_means_case(const struct run *const *runs, size_t nruns, const char *case_name, struct row_means_set *out)
{
	const struct table *protos[ROW_MEANS_TABLES];
	size_t np = row_means_protos(runs, nruns, case_name, protos);
	for (size_t p = 0; p < np; p++) {
		const struct table *t = protos[p];
		struct row_means m = { .case_name = xstrdup(case_name), .proto = t, .nruns = nruns,
				       .lines = xcalloc(nruns * (t->ncols ? t->ncols : 1), sizeof(struct row_line)) };
		for (size_t k = 0; k < nruns; k++)
			for (size_t col = 1; col < t->ncols; col++)
				row_means_line_of(&m.lines[k * t->ncols + col], row_means_case_of(runs[k], case_name),
						  t->name, t->cols[0], t->cols[col]);
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = m;
	}
}

const struct row_line *row_means_line(const struct row_means_set *s, const char *case_name, const char *table,
				      size_t r, size_t col)
{
	for (size_t i = 0; s && i < s->n; i++) {
		const struct row_means *m = &s->v[i];
		if (strcmp(m->case_name, case_name) || strcmp(m->proto->name, table))
			continue;
		return r < m->nruns && col > 0 && col < m->proto->ncols ? &m->lines[r * m->proto->ncols + col] : NULL;
	}
	return NULL;
}

void row_means_free(struct row_means_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct row_means *m = &s->v[i];
		for (size_t k = 0; k < m->nruns * m->proto->ncols; k++) {
			free(m->lines[k].x);
			free(m->lines[k].y);
		}
		free(m->lines);
		free(m->case_name);
	}
	free(s->v);
	*s = (struct row_means_set){ 0 };
}
