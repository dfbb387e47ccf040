/* What a case's graphs draw, folded for the report one iteration at a
 * time (case_graphs_add), each iteration's detail freed once folded: each
 * histogram is the merge of a run's passing iterations (counts, sum, min,
 * max and buckets added; a failed iteration and another case left out),
 * named in order of first appearance, with the unit of the last merged;
 * each series a run's first with points; a run's maps its first
 * iteration's that has any.  On random runs all of it, and the row means,
 * equal the whole case computed at once from every iteration held. */
#include <stdio.h>
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

/* Case name of the runs folded in order, each iteration's detail freed as
 * soon as it is folded (g must not point into it). */
static void fold(struct run *const *runs, size_t nruns, const char *name, struct case_graphs *g)
{
	case_graphs_begin(g, name, nruns);
	for (size_t r = 0; r < nruns; r++)
		for (size_t k = 0; k < runs[r]->ncases; k++)
			for (size_t i = 0; !strcmp(runs[r]->cases[k].name, name) && i < runs[r]->cases[k].niter; i++) {
				case_graphs_add(g, r, &runs[r]->cases[k].iters[i]);
				result_drop(&runs[r]->cases[k].iters[i], RESULT_DETAIL);
			}
	case_graphs_finish(g);
}

static void test_hand(void)
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
	series_add(result_series(&ca->iters[0], "pswpout", "pages"), 0, 1);
	result_series(&ca->iters[1], "pswpin", "pages");
	series_add(result_series(&cb->iters[1], "pswpin", "pages"), 0, 2);
	result_map(&cb->iters[0], "pass0", "#s.", 3);
	result_map(&cb->iters[1], "pass0", "...", 3);

	struct run *runs[] = { a, b };
	struct case_graphs g = { 0 };
	fold(runs, 2, "fz", &g);
	CHECK(g.nhists == 2 && !strcmp(g.hists[0].name, "fault-latency") && !strcmp(g.hists[1].name, "probe-touch"),
	      "histograms in order of first appearance");
	const struct case_hist *fl = case_graphs_hist(&g, "fault-latency"), *pt = case_graphs_hist(&g, "probe-touch");
	const struct hist *m = fl ? fl->runs[0] : NULL;
	CHECK(m && m->count == 4 && m->sum == 100350 && m->min == 50 && m->max == 100000 &&
		      m->b[hist_index(100)] == 1 && m->b[hist_index(7)] == 0,
	      "the passing iterations merged, the failed one left out");
	CHECK(fl && fl->runs[1] && fl->runs[1]->count == 1 && !strcmp(fl->unit, "us"),
	      "each run's merge; the unit of the last merged");
	CHECK(pt && !pt->runs[0] && pt->runs[1] && pt->runs[1]->count == 1, "a run without the histogram has none");
	CHECK(!case_graphs_hist(&g, "nothing"), "no such histogram");
	const struct row_line *l = row_means_line(&g.means, "fz", "passes", 0, 1);
	CHECK(g.means.n == 1 && l && l->n == 1 && l->y[0] == 10, "the case's table's row means");
	const struct series *in = case_graphs_series(&g, 1, "pswpin");
	CHECK(g.nseries == 2 && !strcmp(g.series[0].name, "pswpout") && !strcmp(g.series[1].name, "pswpin") &&
		      !case_graphs_series(&g, 0, "pswpin") && in && in->n == 1 && in->v[0] == 2 &&
		      case_graphs_series(&g, 0, "pswpout"),
	      "series: every name, each run's first with points (an empty one is not drawn)");
	CHECK(!g.maps[0].n && g.maps[1].n == 1 && !strcmp(g.maps[1].v[0].pages, "#s."),
	      "maps: a run's first iteration's that has any");
	case_graphs_free(&g);
	struct case_graphs none = { 0 };
	fold(runs, 2, "absent", &none);
	CHECK(!none.nhists && !none.means.n && !none.nseries, "a case no run has: nothing");
	case_graphs_free(&none);
	run_free(a);
	run_free(b);
}

/* ---- the whole case at once, as the report computed it before it
 * folded: every iteration held, each line and merge in one pass ---- */

static const struct run_case *ref_case(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].name, name))
			return &r->cases[i];
	return NULL;
}

/* Run c's line of ycol against xcol of the table called table: x, y and
 * how many points into xs, ys. */
static size_t ref_line(const struct run_case *c, const char *table, const char *xcol, const char *ycol, double *xs,
		       double *ys)
{
	size_t rows = 0, cnt[64] = { 0 };
	double sum[64] = { 0 }, x[64] = { 0 };
	for (size_t i = 0; c && i < c->niter; i++) {
		const struct table *t = result_find_table(&c->iters[i], table);
		long xi = table_col(t, xcol), yi = table_col(t, ycol);
		if (xi < 0 || yi < 0 || c->iters[i].outcome != OUTCOME_PASS)
			continue;
		for (size_t k = 0; k < t->nrows; k++) {
			if (k >= rows)
				x[k] = t->cells[k * t->ncols + (size_t)xi];
			sum[k] += t->cells[k * t->ncols + (size_t)yi];
			cnt[k]++;
		}
		rows = t->nrows > rows ? t->nrows : rows;
	}
	size_t n = 0;
	for (size_t k = 0; k < rows; k++)
		if (cnt[k]) {
			xs[n] = x[k];
			ys[n++] = sum[k] / (double)cnt[k];
		}
	return n;
}

static struct hist *ref_merge(const struct run_case *c, const char *name, const char **unit)
{
	struct hist *h = NULL;
	for (size_t i = 0; c && i < c->niter; i++) {
		const struct named_hist *nh = result_find_hist(&c->iters[i], name);
		if (!nh || c->iters[i].outcome != OUTCOME_PASS)
			continue;
		if (!h)
			h = hist_new();
		hist_merge(h, nh->h);
		*unit = nh->unit;
	}
	return h;
}

/* The whole case against g: 0, or the number of differences. */
static int ref_check(struct run *const *runs, size_t nruns, const char *name, const struct case_graphs *g)
{
	int bad = 0;
	const struct table *protos[64];
	size_t np = 0;
	const char *hnames[64], *snames[64];
	size_t nh = 0, ns = 0;
	for (size_t r = 0; r < nruns; r++) {
		const struct run_case *c = ref_case(runs[r], name);
		for (size_t i = 0; c && i < c->niter; i++) {
			const struct result *res = &c->iters[i];
			for (size_t k = 0; k < res->ntables; k++) {
				size_t j = 0;
				while (j < np && strcmp(protos[j]->name, res->tables[k].name))
					j++;
				if (j == np)
					protos[np++] = &res->tables[k];
			}
			for (size_t k = 0; k < res->nhists; k++) {
				size_t j = 0;
				while (j < nh && strcmp(hnames[j], res->hists[k].name))
					j++;
				if (j == nh)
					hnames[nh++] = res->hists[k].name;
			}
			for (size_t k = 0; k < res->nseries; k++) {
				size_t j = 0;
				while (j < ns && strcmp(snames[j], res->series[k].name))
					j++;
				if (j == ns)
					snames[ns++] = res->series[k].name;
			}
		}
	}
	bad += g->means.n != np || g->nhists != nh || g->nseries != ns;
	for (size_t p = 0; !bad && p < np; p++) {
		const struct table *t = protos[p], *q = &g->means.v[p].proto;
		bad += strcmp(t->name, q->name) != 0 || t->ncols != q->ncols;
		for (size_t col = 1; !bad && col < t->ncols; col++)
			for (size_t r = 0; r < nruns; r++) {
				double xs[64], ys[64];
				size_t n = ref_line(ref_case(runs[r], name), t->name, t->cols[0], t->cols[col], xs, ys);
				const struct row_line *l = row_means_line(&g->means, name, t->name, r, col);
				bad += !l || l->n != n;
				for (size_t k = 0; !bad && k < n; k++)
					bad += l->x[k] != xs[k] || l->y[k] != ys[k];
			}
	}
	for (size_t h = 0; !bad && h < nh; h++) {
		const char *unit = "";
		bad += strcmp(g->hists[h].name, hnames[h]) != 0;
		for (size_t r = 0; r < nruns; r++) {
			struct hist *m = ref_merge(ref_case(runs[r], name), hnames[h], &unit);
			const struct hist *f = g->hists[h].runs[r];
			bad += !m != !f || (m && memcmp(m, f, sizeof(*m)));
			free(m);
		}
		bad += strcmp(g->hists[h].unit, unit) != 0;
	}
	for (size_t s = 0; !bad && s < ns; s++)
		for (size_t r = 0; r < nruns; r++) {
			const struct run_case *c = ref_case(runs[r], name);
			const struct series *first = NULL;
			for (size_t i = 0; c && i < c->niter && !first; i++)
				for (size_t k = 0; k < c->iters[i].nseries && !first; k++)
					if (!strcmp(c->iters[i].series[k].name, snames[s]) && c->iters[i].series[k].n)
						first = &c->iters[i].series[k];
			const struct series *f = case_graphs_series(g, r, snames[s]);
			bad += !first != !f ||
			       (first && (first->n != f->n || memcmp(first->v, f->v, f->n * sizeof(double)) ||
					  memcmp(first->t, f->t, f->n * sizeof(double)) || strcmp(first->unit, f->unit)));
		}
	for (size_t r = 0; !bad && r < nruns; r++) {
		const struct run_case *c = ref_case(runs[r], name);
		const struct result *res = NULL;
		for (size_t i = 0; c && i < c->niter && !res; i++)
			if (c->iters[i].nmaps)
				res = &c->iters[i];
		bad += g->maps[r].n != (res ? res->nmaps : 0);
		for (size_t m = 0; !bad && m < g->maps[r].n; m++)
			bad += strcmp(g->maps[r].v[m].pages, res->maps[m].pages) != 0;
	}
	return bad;
}

/* A run of cases fz and other, random: iterations that fail, tables of
 * rows a pass reaches or not and columns missing, histograms of two units
 * and a name twice, series empty or not, maps now and then. */
static struct run *rand_run(unsigned *seed)
{
	static const char *const full[] = { "pass", "time_ns", "refd" }, *const thin[] = { "pass", "refd" },
				 *const thr[] = { "threads", "rate" };
	struct run *r = xcalloc(1, sizeof(*r));
	size_t n = 2 + (size_t)(rand_r(seed) % 10);
	struct run_case *c = t_one_case(r, "fz", "fault", n, -1);
	for (size_t i = 0; i < n; i++) {
		struct result *res = &c->iters[i];
		res->outcome = rand_r(seed) % 5 ? OUTCOME_PASS : OUTCOME_FAIL;
		int shape = rand_r(seed) % 4;
		if (shape < 3) {
			struct table *t = result_table(res, "passes", shape ? 3 : 2, shape ? full : thin);
			for (size_t k = 0, rows = (size_t)(rand_r(seed) % 7); k < rows; k++)
				table_add_row(t, (double[]){ (double)(k + 1 + (size_t)(rand_r(seed) % 2)),
							     (double)(rand_r(seed) % 1000), (double)(rand_r(seed) % 50) });
		}
		if (rand_r(seed) % 3 == 0)
			table_add_row(result_table(res, "threads", 2, thr), (double[]){ 4, (double)(rand_r(seed) % 99) });
		for (int h = rand_r(seed) % 4; h > 0; h--) /* 3 and 1: the same name twice */
			lat(res, h == 2 ? "probe-touch" : "fault-latency", rand_r(seed) % 2 ? "ns" : "us",
			    (uint64_t[]){ (uint64_t)(rand_r(seed) % 100000), (uint64_t)(rand_r(seed) % 300) }, 2);
		for (int s = rand_r(seed) % 3; s > 0; s--) {
			struct series *sr = result_series(res, s == 1 ? "vmstat.pswpout" : "pswpin", "pages");
			for (int k = rand_r(seed) % 4; k > 0; k--)
				series_add(sr, (double)k, (double)(rand_r(seed) % 9));
		}
		if (rand_r(seed) % 4 == 0)
			result_map(res, "pass0", rand_r(seed) % 2 ? "#s" : "..", 2);
	}
	return r;
}

static void test_random(void)
{
	int bad = 0, rounds = 200;
	for (unsigned seed = 1; seed <= (unsigned)rounds; seed++) {
		unsigned s = seed;
		struct run *runs[3] = { rand_run(&s), rand_run(&s), rand_run(&s) };
		/* the same runs twice: one held whole for the reference, one
		 * folded and freed an iteration at a time */
		struct case_graphs g = { 0 };
		unsigned s2 = seed;
		struct run *copy[3] = { rand_run(&s2), rand_run(&s2), rand_run(&s2) };
		fold(copy, 3, "fz", &g);
		int b = ref_check(runs, 3, "fz", &g);
		if (b && !bad)
			printf("# seed %u: %d differences\n", seed, b);
		bad += b != 0;
		case_graphs_free(&g);
		for (size_t r = 0; r < 3; r++) {
			run_free(runs[r]);
			run_free(copy[r]);
		}
	}
	CHECK(bad == 0, "%d random groups: row means, merged histograms, series and maps folded one iteration at a "
			"time equal the whole case's (%d differ)",
	      rounds, bad);
}

int main(void)
{
	test_hand();
	test_random();
	T_DONE();
}
