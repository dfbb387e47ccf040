#include "stats/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/util.h"
#include "stats/gsllib.h"
#include "stats/stats.h"
#include "store/store.h"


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

static json_t *summary_outcomes_json(const struct case_summary *cs)
{
	json_t *o = json_object();
	for (int i = 0; i < 5; i++)
		if (cs->outcomes[i])
			json_object_set_new(o, outcome_name((enum outcome)i), json_integer((json_int_t)cs->outcomes[i]));
	return o;
}

static json_t *summary_case_json(const struct case_summary *cs)
{
	json_t *metrics = json_array(), *reasons = json_array();
	for (size_t i = 0; i < cs->nmetrics; i++) {
		const struct metric_summary *m = &cs->m[i];
		json_array_append_new(metrics, json_pack("{ss ss ss ss sI sf sf sf sf}", "name", m->name, "unit", m->unit,
							 "better", m->better, "combine", combine_name(m->combine), "n",
							 (json_int_t)m->n, "mean", m->mean, "stddev", m->stddev, "min",
							 m->min, "max", m->max));
	}
	for (size_t k = 0; k < cs->c->niter; k++)
		if (cs->c->iters[k].reason)
			json_array_append_new(reasons, json_pack("{si ss ss}", "iteration", cs->c->iter_no[k] + 1,
								 "outcome", outcome_name(cs->c->iters[k].outcome),
								 "reason", cs->c->iters[k].reason));
	json_t *j = json_pack("{ss ss sO sI so so so}", "name", cs->c->name, "workload", cs->c->workload, "options",
			      cs->c->options, "iterations", (json_int_t)cs->c->niter, "outcomes",
			      summary_outcomes_json(cs), "reasons", reasons, "metrics", metrics);
	/* Runs of a group record when each iteration ran in the group's
	 * order: [iteration number, place in the order] pairs.  Only they have
	 * the key. */
	json_t *seq = json_array();
	for (size_t k = 0; cs->c->iter_seq && k < cs->c->niter; k++)
		if (cs->c->iter_seq[k] >= 0)
			json_array_append_new(seq, json_pack("[iI]", cs->c->iter_no[k] + 1, (json_int_t)cs->c->iter_seq[k]));
	if (json_array_size(seq))
		json_object_set(j, "sequence", seq);
	json_decref(seq);
	return j;
}

json_t *summary_to_json(const struct run *r, bool with_env)
{
	struct case_summary *s = summary_build(r);
	json_t *cases = json_array();
	for (size_t i = 0; i < r->ncases; i++)
		json_array_append_new(cases, summary_case_json(&s[i]));
	summary_free(s, r->ncases);
	json_t *j = json_pack("{so so}", "run", run_info_to_json(&r->info), "cases", cases);
	if (with_env)
		json_object_set(j, "env", r->env ? r->env : json_null());
	return j;
}

/* One environment value on one line; nested objects one level deep. */
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
