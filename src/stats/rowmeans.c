/* The row means of a case's tables: see rowmeans.h. */
#include "stats/rowmeans.h"

#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"

#define ROW_MEANS_TABLES 64

/* The table of case case_name called name, or NULL; *ncase how many s has
 * of that case. */
static struct row_means *row_means_find(struct row_means_set *s, const char *case_name, const char *name,
					size_t *ncase)
{
	*ncase = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->v[i].case_name, case_name))
			continue;
		++*ncase;
		if (!strcmp(s->v[i].proto.name, name))
			return &s->v[i];
	}
	return NULL;
}

/* A table named as t with t's columns and no rows. */
static void row_means_proto(struct row_means_set *s, const char *case_name, size_t nruns, const struct table *t)
{
	size_t ncols = t->ncols ? t->ncols : 1;
	struct row_means m = { .case_name = xstrdup(case_name), .nruns = nruns,
			       .proto = { .name = xstrdup(t->name), .ncols = t->ncols,
					  .cols = xcalloc(ncols, sizeof(char *)) },
			       .lines = xcalloc(nruns * ncols, sizeof(struct row_line)),
			       .sums = xcalloc(nruns * ncols, sizeof(struct row_sums)) };
	for (size_t k = 0; k < t->ncols; k++)
		m.proto.cols[k] = xstrdup(t->cols[k]);
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n++] = m;
}

/* One iteration's table t into a line's sums: y from column ycol, and x
 * from xcol for the rows no earlier iteration reached. */
static void row_means_fold(struct row_sums *a, const struct table *t, size_t xi, size_t yi)
{
	if (t->nrows > a->rows) {
		a->sum = xrealloc(a->sum, t->nrows * sizeof(double));
		a->x = xrealloc(a->x, t->nrows * sizeof(double));
		a->cnt = xrealloc(a->cnt, t->nrows * sizeof(size_t));
		for (size_t k = a->rows; k < t->nrows; k++) {
			a->sum[k] = 0;
			a->cnt[k] = 0;
			a->x[k] = t->cells[k * t->ncols + xi];
		}
		a->rows = t->nrows;
	}
	for (size_t k = 0; k < t->nrows; k++) {
		a->sum[k] += t->cells[k * t->ncols + yi];
		a->cnt[k]++;
	}
}

void row_means_add(struct row_means_set *s, const char *case_name, size_t nruns, size_t r, const struct result *res)
{
	size_t ncase = 0;
	for (size_t k = 0; k < res->ntables; k++)
		if (!row_means_find(s, case_name, res->tables[k].name, &ncase) && ncase < ROW_MEANS_TABLES)
			row_means_proto(s, case_name, nruns, &res->tables[k]);
	if (res->outcome != OUTCOME_PASS || r >= nruns)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct row_means *m = &s->v[i];
		if (strcmp(m->case_name, case_name) || !m->sums || m->proto.ncols < 2)
			continue;
		const struct table *t = result_find_table(res, m->proto.name);
		long xi = table_col(t, m->proto.cols[0]);
		for (size_t col = 1; xi >= 0 && col < m->proto.ncols; col++) {
			long yi = table_col(t, m->proto.cols[col]);
			if (yi >= 0)
				row_means_fold(&m->sums[r * m->proto.ncols + col], t, (size_t)xi, (size_t)yi);
		}
	}
}

static void row_means_sums_free(struct row_sums *a)
{
	free(a->sum);
	free(a->x);
	free(a->cnt);
	*a = (struct row_sums){ 0 };
}

void row_means_finish(struct row_means_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct row_means *m = &s->v[i];
		for (size_t k = 0; m->sums && k < m->nruns * m->proto.ncols; k++) {
			struct row_sums *a = &m->sums[k];
			struct row_line *l = &m->lines[k];
			*l = (struct row_line){ .x = a->rows ? xcalloc(a->rows, sizeof(double)) : NULL,
						.y = a->rows ? xcalloc(a->rows, sizeof(double)) : NULL };
			for (size_t row = 0; row < a->rows; row++)
				if (a->cnt[row]) {
					l->x[l->n] = a->x[row];
					l->y[l->n++] = a->sum[row] / (double)a->cnt[row];
				}
			row_means_sums_free(a);
		}
		free(m->sums);
		m->sums = NULL;
	}
}

const struct row_line *row_means_line(const struct row_means_set *s, const char *case_name, const char *table,
				      size_t r, size_t col)
{
	for (size_t i = 0; s && i < s->n; i++) {
		const struct row_means *m = &s->v[i];
		if (strcmp(m->case_name, case_name) || strcmp(m->proto.name, table))
			continue;
		return r < m->nruns && col > 0 && col < m->proto.ncols ? &m->lines[r * m->proto.ncols + col] : NULL;
	}
	return NULL;
}

void row_means_free(struct row_means_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct row_means *m = &s->v[i];
		for (size_t k = 0; k < m->nruns * m->proto.ncols; k++) {
			free(m->lines[k].x);
			free(m->lines[k].y);
			if (m->sums)
				row_means_sums_free(&m->sums[k]);
		}
		for (size_t k = 0; k < m->proto.ncols; k++)
			free(m->proto.cols[k]);
		free(m->proto.cols);
		free(m->proto.name);
		free(m->sums);
		free(m->lines);
		free(m->case_name);
	}
	free(s->v);
	*s = (struct row_means_set){ 0 };
}
