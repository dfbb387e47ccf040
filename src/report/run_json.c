#include "report/run_json.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/spelling.h"
#include "core/util.h"
#include "stats/summary.h"

static json_t *run_case_json(const struct run_case *c)
{
	json_t *iters = json_array();
	for (size_t i = 0; i < c->niter; i++)
		json_array_append_new(iters, result_to_json(&c->iters[i]));
	return json_pack("{ss ss sO so}", "name", c->name, "workload", c->workload, "options",
			 c->options ? c->options : json_null(), "iterations", iters);
}

json_t *run_to_json(const struct run *r)
{
	const struct run_info *i = &r->info;
	json_t *cases = json_array();
	for (size_t k = 0; k < r->ncases; k++)
		json_array_append_new(cases, run_case_json(&r->cases[k]));
	json_t *j = json_pack("{sI ss? ss? ss? ss? ss? ss? sf sf ss?}", "id", (json_int_t)i->id, "uuid", i->uuid,
			      "name", i->name, "suite", i->suite, "status", i->status, "kernel", i->kernel,
			      "host", i->host, "started", i->started, "ended", i->ended, "tag", i->tag);
	json_object_set(j, "env", r->env ? r->env : json_null());
	json_object_set_new(j, "suite_text", r->suite_text ? json_string(r->suite_text) : json_null());
	json_object_set_new(j, "cases", cases);
	return j;
}

json_t *run_info_to_json(const struct run_info *ri)
{
	char a[40], b[40];
	json_t *j = json_pack("{sI ss ss ss? ss ss? ss? ss ss? sb ss? sI sI}", "id", (json_int_t)ri->id, "uuid", ri->uuid,
			 "name", ri->name, "suite", ri->suite, "status", ri->status, "kernel", ri->kernel, "host",
			 ri->host, "started", store_format_time(a, sizeof(a), ri->started), "ended",
			 ri->ended ? store_format_time(b, sizeof(b), ri->ended) : NULL, "running", ri->running, "tag",
			 ri->tag, "cases",
			 (json_int_t)ri->ncases, "iterations", (json_int_t)ri->niterations);
	/* only a run of a group has the key: a run of one configuration
	 * reads as it always has */
	if (j && ri->group_uuid)
		json_object_set_new(j, "group", json_pack("{ss ss? ss? si}", "uuid", ri->group_uuid, "name",
							  ri->group_name, "variant", ri->variant, "index",
							  ri->variant_index));
	return j;
}

static char *run_json_str(const json_t *j, const char *key)
{
	const char *s = json_string_value(json_object_get(j, key));
	return s ? xstrdup(s) : NULL;
}

static int run_case_from_json(const json_t *j, struct run_case *c, const char **why)
{
	json_t *iters = json_object_get(j, "iterations"), *e;
	size_t i;
	*why = "case needs a name, a workload and an iterations array";
	if (!json_is_string(json_object_get(j, "name")) || !json_is_string(json_object_get(j, "workload")) ||
	    !json_is_array(iters))
		return -1;
	c->name = run_json_str(j, "name");
	c->workload = run_json_str(j, "workload");
	c->options = json_incref(json_object_get(j, "options"));
	c->iters = xcalloc(json_array_size(iters) + 1, sizeof(*c->iters));
	json_array_foreach(iters, i, e) {
		if (result_from_json(e, &c->iters[i], why) < 0)
			return -1;
		c->niter++;
	}
	c->iter_no = xcalloc(c->niter + 1, sizeof(int));
	for (size_t k = 0; k < c->niter; k++)
		c->iter_no[k] = (int)k;
	return 0;
}

/* Seconds since the epoch, or an ISO 8601 UTC time as run_info_to_json
 * writes it. */
static double run_json_time(const json_t *j)
{
	struct tm tm = { 0 };
	const char *s = json_string_value(j);
	if (s && strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return (double)timegm(&tm);
	return json_number_value(j);
}

static void run_info_from_json(const json_t *j, struct run_info *i)
{
	i->id = json_integer_value(json_object_get(j, "id"));
	i->uuid = run_json_str(j, "uuid");
	i->name = run_json_str(j, "name");
	i->suite = run_json_str(j, "suite");
	i->status = run_json_str(j, "status");
	i->kernel = run_json_str(j, "kernel");
	i->host = run_json_str(j, "host");
	i->tag = run_json_str(j, "tag");
	i->started = run_json_time(json_object_get(j, "started"));
	i->ended = run_json_time(json_object_get(j, "ended"));
}

struct run *run_from_json(const json_t *j, const char **why)
{
	if (json_is_object(json_object_get(j, "run")))
		j = json_object_get(j, "run");
	json_t *cases = json_object_get(j, "cases"), *e;
	*why = "not a run object (it needs a cases array)";
	if (!json_is_object(j) || !json_is_array(cases))
		return NULL;
	struct run *r = xcalloc(1, sizeof(*r));
	run_info_from_json(j, &r->info);
	json_t *env = json_object_get(j, "env");
	r->env = env ? json_incref(env) : json_object();
	spelling_env(r->env);
	r->suite_text = run_json_str(j, "suite_text");
	r->cases = xcalloc(json_array_size(cases) + 1, sizeof(*r->cases));
	size_t k;
	json_array_foreach(cases, k, e) {
		r->ncases++;
		r->info.ncases++;
		if (!json_is_object(e) || run_case_from_json(e, &r->cases[k], why) < 0) {
			if (!json_is_object(e))
				*why = "a case is not an object";
			run_free(r);
			return NULL;
		}
	}
	for (size_t c = 0; c < r->ncases; c++)
		r->info.niterations += r->cases[c].niter;
	return r;
}

struct run *run_json_load(const char *path)
{
	json_error_t err;
	json_t *j = json_load_file(path, JSON_DECODE_ANY, &err);
	if (!j) {
		if (err.line < 1)
			vmr_err("cannot read run %s: %s", path, err.text);
		else
			vmr_err("%s:%d: not JSON: %s", path, err.line, err.text);
		return NULL;
	}
	const char *why;
	struct run *r = run_from_json(j, &why);
	json_decref(j);
	if (!r)
		vmr_err("%s: %s", path, why);
	return r;
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

json_t *run_summary_json(const struct run *r, const struct case_summary *s, bool with_env)
{
	json_t *cases = json_array();
	for (size_t i = 0; i < r->ncases; i++)
		json_array_append_new(cases, summary_case_json(&s[i]));
	json_t *j = json_pack("{so so}", "run", run_info_to_json(&r->info), "cases", cases);
	if (with_env)
		json_object_set(j, "env", r->env ? r->env : json_null());
	return j;
}
