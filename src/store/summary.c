#include "store/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static const char *const better_words[] = { "none", "lower", "higher" };

static struct metric_summary *summary_find(struct case_summary *cs, const char *name)
{
	for (size_t i = 0; i < cs->nmetrics; i++)
		if (!strcmp(cs->m[i].name, name))
			return &cs->m[i];
	return NULL;
}

/* Welford's running mean and variance: one pass, no cancellation. */
static void summary_add(struct metric_summary *ms, double v, double *m2)
{
	ms->n++;
	double d = v - ms->mean;
	ms->mean += d / (double)ms->n;
	*m2 += d * (v - ms->mean);
	if (ms->n == 1 || v < ms->min)
		ms->min = v;
	if (ms->n == 1 || v > ms->max)
		ms->max = v;
}

static void summary_case(const struct run_case *c, struct case_summary *cs)
{
	double *m2 = NULL;
	size_t cap = 0;
	cs->c = c;
	for (size_t k = 0; k < c->niter; k++) {
		const struct result *r = &c->iters[k];
		cs->outcomes[(unsigned)r->outcome < 5 ? r->outcome : OUTCOME_ERROR]++;
		for (size_t i = 0; i < r->nmetrics; i++) {
			const struct metric *m = &r->metrics[i];
			struct metric_summary *ms = summary_find(cs, m->name);
			if (!ms) {
				if (cs->nmetrics == cap) {
					cap = cap ? cap * 2 : 16;
					cs->m = xrealloc(cs->m, cap * sizeof(*cs->m));
					m2 = xrealloc(m2, cap * sizeof(*m2));
				}
				m2[cs->nmetrics] = 0;
				ms = &cs->m[cs->nmetrics++];
				memset(ms, 0, sizeof(*ms));
				ms->name = m->name;
				ms->unit = m->unit;
				ms->better = better_words[(unsigned)m->better < 3 ? m->better : 0];
			}
			summary_add(ms, m->value, &m2[ms - cs->m]);
		}
	}
	for (size_t i = 0; i < cs->nmetrics; i++)
		cs->m[i].stddev = cs->m[i].n > 1 ? sqrt(m2[i] / (double)(cs->m[i].n - 1)) : 0;
	free(m2);
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
		json_array_append_new(metrics, json_pack("{ss ss ss sI sf sf sf sf}", "name", m->name, "unit", m->unit,
							 "better", m->better, "n", (json_int_t)m->n, "mean", m->mean,
							 "stddev", m->stddev, "min", m->min, "max", m->max));
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
static void summary_env_value(FILE *f, const char *prefix, const char *key, json_t *v)
{
	if (json_is_object(v) && !prefix) {
		const char *k;
		json_t *x;
		json_object_foreach(v, k, x) summary_env_value(f, key, k, x);
		return;
	}
	char *text = json_is_string(v) ? xstrdup(json_string_value(v)) : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	if (!text)
		return;
	size_t n = strlen(text);
	fprintf(f, "  %s%s%-*s %.*s%s\n", prefix ? prefix : "", prefix ? "." : "",
		prefix ? (int)(28 - strlen(prefix) - 1) > 0 ? (int)(28 - strlen(prefix) - 1) : 0 : 28, key,
		(int)(n > 100 ? 100 : n), text, n > 100 ? "..." : "");
	free(text);
}

static void summary_print_header(FILE *f, const struct run *r, bool with_env)
{
	const struct run_info *ri = &r->info;
	char a[40], b[40];
	fprintf(f, "Run %lld: %s (%s)\n", (long long)ri->id, ri->name, run_info_state(ri));
	fprintf(f, "  %-28s %s\n", "uuid", ri->uuid ? ri->uuid : "");
	fprintf(f, "  %-28s %s\n", "suite", ri->suite ? ri->suite : "");
	fprintf(f, "  %-28s %s\n", "kernel", ri->kernel ? ri->kernel : "");
	fprintf(f, "  %-28s %s\n", "host", ri->host ? ri->host : "");
	fprintf(f, "  %-28s %s\n", "started", store_format_time(a, sizeof(a), ri->started));
	fprintf(f, "  %-28s %s\n", "ended", ri->ended ? store_format_time(b, sizeof(b), ri->ended) : "(not ended)");
	if (ri->group_uuid)
		fprintf(f, "  %-28s %s, variant %s%s\n", "group", ri->group_name ? ri->group_name : ri->group_uuid,
			ri->variant ? ri->variant : "?", ri->variant_index == 0 ? " (the base)" : "");
	if (with_env && json_object_size(r->env)) {
		fputs("\nEnvironment:\n", f);
		const char *k;
		json_t *v;
		json_object_foreach(r->env, k, v) summary_env_value(f, NULL, k, v);
	}
}

static void summary_print_case(FILE *f, const struct case_summary *cs)
{
	fprintf(f, "\nCase %s (%s): %zu iteration%s", cs->c->name, cs->c->workload, cs->c->niter,
		cs->c->niter == 1 ? "" : "s");
	const char *sep = ", ";
	for (int i = 0; i < 5; i++)
		if (cs->outcomes[i]) {
			fprintf(f, "%s%zu %s", sep, cs->outcomes[i], outcome_name((enum outcome)i));
			sep = " ";
		}
	fputc('\n', f);
	json_t *opts = json_object_get(cs->c->options, "options");
	char *text = json_object_size(opts) ? json_dumps(opts, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	if (text)
		fprintf(f, "  options %.*s%s\n", 160, text, strlen(text) > 160 ? "..." : "");
	free(text);
	for (size_t k = 0; k < cs->c->niter; k++)
		if (cs->c->iters[k].reason)
			fprintf(f, "  iteration %d: %s: %s\n", cs->c->iter_no[k] + 1,
				outcome_name(cs->c->iters[k].outcome), cs->c->iters[k].reason);
	if (!cs->nmetrics)
		return;
	fprintf(f, "  %-32s %-10s %14s %12s %14s %14s\n", "metric", "unit", "mean", "stddev", "min", "max");
	for (size_t i = 0; i < cs->nmetrics; i++) {
		const struct metric_summary *m = &cs->m[i];
		fprintf(f, "  %-32s %-10s %14.6g %12.4g %14.6g %14.6g\n", m->name, m->unit, m->mean, m->stddev,
			m->min, m->max);
	}
}

void summary_print(FILE *f, const struct run *r, bool with_env)
{
	summary_print_header(f, r, with_env);
	struct case_summary *s = summary_build(r);
	for (size_t i = 0; i < r->ncases; i++)
		summary_print_case(f, &s[i]);
	summary_free(s, r->ncases);
}

