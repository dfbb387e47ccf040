#include "stats/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/util.h"
#include "stats/gsllib.h"
#include "stats/stats.h"


size_t summary_values(const struct run_case *c, const char *metric, double **vals, const struct metric **m)
{
	*vals = xcalloc(c->niter + 1, sizeof(double));
	size_t n = 0;
	for (size_t i = 0; i < c->niter; i++) {
		const struct metric *x = result_find_metric(&c->iters[i], metric);
		if (!x || c->iters[i].outcome != OUTCOME_PASS || !isfinite(x->value))
			continue;
		if (m && !*m)
			*m = x;
		(*vals)[n++] = x->value;
	}
	return n;
}

/* Metric names of the passing iterations, in order of first appearance. */
static void summary_names(const struct run_case *c, struct strlist *names)
{
	for (size_t k = 0; k < c->niter; k++)
		for (size_t i = 0; c->iters[k].outcome == OUTCOME_PASS && i < c->iters[k].nmetrics; i++)
			if (!strlist_has(names, c->iters[k].metrics[i].name))
				strlist_add(names, c->iters[k].metrics[i].name);
}

static void summary_case(const struct run_case *c, struct case_summary *cs)
{
	cs->c = c;
	for (size_t k = 0; k < c->niter; k++)
		cs->outcomes[(unsigned)c->iters[k].outcome < 5 ? c->iters[k].outcome : OUTCOME_ERROR]++;
	struct strlist names = { 0 };
	summary_names(c, &names);
	cs->m = xcalloc(names.n + 1, sizeof(*cs->m));
	for (size_t i = 0; i < names.n; i++) {
		double *v = NULL;
		const struct metric *m = NULL;
		size_t n = summary_values(c, names.v[i], &v, &m);
		if (!n) {
			free(v);
			continue;
		}
		struct stats_summary st = { 0 };
		stats_summarize(v, n, m->combine, &st);
		cs->m[cs->nmetrics++] = (struct metric_summary){
			.name = m->name, .unit = m->unit, .better = better_name(m->better), .combine = m->combine,
			.n = n, .mean = st.mean, .stddev = st.stddev, .cv = st.cv, .min = st.min, .max = st.max };
		free(v);
	}
	strlist_free(&names);
}

struct case_summary *summary_build(const struct run *r)
{
	struct case_summary *s = xcalloc(r->ncases ? r->ncases : 1, sizeof(*s));
	for (size_t i = 0; i < r->ncases; i++)
		summary_case(&r->cases[i], &s[i]);
	return s;
}

void summary_free(struct case_summary *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i].m);
	free(s);
}

void summary_totals(const struct run *r, struct summary_totals *t)
{
	*t = (struct summary_totals){ 0 };
	for (size_t i = 0; i < r->ncases; i++) {
		const struct run_case *c = &r->cases[i];
		size_t pass = 0, skip = 0;
		for (size_t k = 0; k < c->niter; k++) {
			pass += c->iters[k].outcome == OUTCOME_PASS;
			skip += c->iters[k].outcome == OUTCOME_SKIP;
		}
		t->iterations += c->niter;
		if (!c->niter)
			t->not_run++;
		else if (pass == c->niter)
			t->passed++;
		else if (skip == c->niter)
			t->skipped++;
		else if (pass + skip == c->niter)
			t->passed++;  /* some iterations skipped, none failed */
		else
			t->failed++;
	}
}

double summary_spread(double stddev, size_t n)
{
	if (n < 2)
		return 0;
	return n >= 3 ? gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * stddev / sqrt((double)n) : stddev;
}

/* "5.922 s ± 12.30 ms": the half-width of the 95% CI of the mean from
 * three iterations on, the stddev from two, nothing from one. */
