/* The row means the report draws a case's tables from, folded one
 * iteration at a time (row_means_add), each iteration's detail freed once
 * folded: each column's mean over the passing iterations row by row, x
 * from the first column; an iteration that failed, or lacks the table or
 * a column, is left out; a row only some iterations reach is the mean of
 * those; the tables are the first of each name over the runs in order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/rowmeans.h"
#include "store/store.h"
#include "t.h"

static struct run *mkrun(const char *name, size_t niter)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup(name);
	r->cases = xcalloc(1, sizeof(*r->cases));
	r->ncases = 1;
	struct run_case *c = &r->cases[0];
	c->name = xstrdup("fz");
	c->workload = xstrdup("fault");
	c->niter = niter;
	c->iters = xcalloc(niter, sizeof(struct result));
	for (size_t i = 0; i < niter; i++)
		result_init(&c->iters[i], "fault");
	return r;
}

/* Iteration i of run r gets a table "passes" of rows (pass, time_ns). */
static void passes(struct run *r, size_t i, const double *time_ns, size_t rows)
{
	static const char *const cols[] = { "pass", "time_ns" };
	struct table *t = result_table(&r->cases[0].iters[i], "passes", 2, cols);
	for (size_t k = 0; k < rows; k++)
		table_add_row(t, (double[]){ (double)(k + 1), time_ns[k] });
}

/* Case fz of the runs folded in order, each iteration's detail freed as
 * soon as it is folded (the sums must not point into it). */
static void fold(struct run *const *runs, size_t nruns, struct row_means_set *s)
{
	for (size_t r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r]->cases[0].niter; i++) {
			row_means_add(s, "fz", nruns, r, &runs[r]->cases[0].iters[i]);
			result_drop(&runs[r]->cases[0].iters[i], RESULT_DETAIL);
		}
	row_means_finish(s);
}

int main(void)
{
	struct run *a = mkrun("a", 3), *b = mkrun("b", 2);
	passes(a, 0, (double[]){ 10, 20, 30 }, 3);
	passes(a, 1, (double[]){ 30, 40 }, 2);
	passes(a, 2, (double[]){ 1000, 1000, 1000 }, 3);
	a->cases[0].iters[2].outcome = OUTCOME_FAIL;
	passes(b, 1, (double[]){ 5 }, 1);
	static const char *const cols[] = { "pass", "late" };
	table_add_row(result_table(&b->cases[0].iters[0], "late", 2, cols), (double[]){ 1, 7 });
	struct run *runs[] = { a, b };
	struct row_means_set s = { 0 };
	fold(runs, 2, &s);
	CHECK_EQ_U(s.n, 2, "two tables of one case");
	const struct row_line *late = row_means_line(&s, "fz", "late", 1, 1);
	CHECK(s.n == 2 && !strcmp(s.v[0].proto.name, "passes") && !strcmp(s.v[1].proto.name, "late") &&
		      s.v[1].proto.ncols == 2 && !strcmp(s.v[1].proto.cols[1], "late") && late && late->n == 1 &&
		      late->y[0] == 7 && row_means_line(&s, "fz", "late", 0, 1)->n == 0,
	      "a table first seen in a later run: its own line, none in the runs without it");
	const struct row_line *la = row_means_line(&s, "fz", "passes", 0, 1);
	CHECK(la && la->n == 3 && la->x[0] == 1 && la->x[2] == 3 && la->y[0] == 20 && la->y[1] == 30 && la->y[2] == 30,
	      "run a: the mean of the passing iterations row by row; the third row is the one that reached it (%g %g %g)",
	      la && la->n == 3 ? la->y[0] : NAN, la && la->n == 3 ? la->y[1] : NAN, la && la->n == 3 ? la->y[2] : NAN);
	const struct row_line *lb = row_means_line(&s, "fz", "passes", 1, 1);
	CHECK(lb && lb->n == 1 && lb->y[0] == 5, "run b: an iteration without the table is left out");
	CHECK(!row_means_line(&s, "fz", "passes", 0, 0) && !row_means_line(&s, "fz", "passes", 2, 1) &&
	      !row_means_line(&s, "fz", "other", 0, 1) && !row_means_line(&s, "nocase", "passes", 0, 1),
	      "no line for the x column, another run, table or case");
	row_means_free(&s);
	run_free(a);
	run_free(b);
	T_DONE();
}
