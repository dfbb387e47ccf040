/* What a case's graphs draw, computed for the report a case at a time
 * (case_graphs_compute): each histogram is the merge of a run's passing
 * iterations (counts, sum, min, max and buckets added; a failed iteration
 * and another case left out), named in order of first appearance, with
 * the unit of the last merged; the tables' row means are that case's. */
#include <stdlib.h>
#include <string.h>

#include "stats/casegraphs.h"
#include "t.h"
#include "trun.h"

static void lat(struct result *r, const char *name, const char *unit, const uint64_t *v, size_t n)
{
	struct hist *h = hist_new();
	for (size_t i = 0; i < n; i++)
		hist_add(h, v[i]);
	result_hist(r, name, unit, h);
}

int main(void)
{
	struct run *a = xcalloc(1, sizeof(*a)), *b = xcalloc(1, sizeof(*b));
	struct run_case *ca = t_one_case(a, "fz", "fault", 3, -1), *cb = t_one_case(b, "fz", "fault", 2, -1);
	lat(&ca->iters[0], "fault-latency", "ns", (uint64_t[]){ 100, 200 }, 2);
	lat(&ca->iters[1], "fault-latency", "ns", (uint64_t[]){ 50, 100000 }, 2);
	lat(&ca->iters[2], "fault-latency", "ns", (uint64_t[]){ 7 }, 1);
	ca->iters[2].outcome = OUTCOME_FAIL;
	lat(&cb->iters[1], "probe-touch", "us", (uint64_t[]){ 3 }, 1);
	lat(&cb->iters[1], "fault-latency", "us", (uint64_t[]){ 9 }, 1);
	static const char *const cols[] = { "pass", "time_ns" };
	table_add_row(result_table(&ca->iters[0], "passes", 2, cols), (double[]){ 1, 10 });

	const char *unit = "none";
	struct hist *m = case_graphs_merge_hist(ca, "fault-latency", &unit);
	CHECK(m && m->count == 4 && m->sum == 100350 && m->min == 50 && m->max == 100000 && !strcmp(unit, "ns") &&
	      m->b[hist_index(100)] == 1 && m->b[hist_index(7)] == 0,
	      "the passing iterations merged, the failed one left out");
	free(m);
	unit = "none";
	CHECK(!case_graphs_merge_hist(cb, "other", &unit) && !strcmp(unit, "none"), "none has it: NULL, unit untouched");

	const struct run *runs[] = { a, b };
	struct case_graphs g = { 0 };
	case_graphs_compute(runs, 2, "fz", &g);
	CHECK(g.nhists == 2 && !strcmp(g.hists[0].name, "fault-latency") && !strcmp(g.hists[1].name, "probe-touch"),
	      "histograms in order of first appearance");
	const struct case_hist *fl = case_graphs_hist(&g, "fault-latency"), *pt = case_graphs_hist(&g, "probe-touch");
	CHECK(fl && fl->runs[0] && fl->runs[0]->count == 4 && fl->runs[1] && fl->runs[1]->count == 1 &&
	      !strcmp(fl->unit, "us"),
	      "each run's merge; the unit of the last merged");
	CHECK(pt && !pt->runs[0] && pt->runs[1] && pt->runs[1]->count == 1, "a run without the histogram has none");
	CHECK(!case_graphs_hist(&g, "nothing"), "no such histogram");
	const struct row_line *l = row_means_line(&g.means, "fz", "passes", 0, 1);
	CHECK(g.means.n == 1 && l && l->n == 1 && l->y[0] == 10, "the case's table's row means");
	case_graphs_free(&g);
	struct case_graphs none = { 0 };
	case_graphs_compute(runs, 2, "absent", &none);
	CHECK(!none.nhists && !none.means.n, "a case no run has: nothing");
	case_graphs_free(&none);
	run_free(a);
	run_free(b);
	T_DONE();
}
