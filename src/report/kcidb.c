#include "report/kcidb.h"
#include "report/kcidb_int.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/stats.h"
#include "workload/workload.h"

static bool kcidb_match(const char *s, const char *pattern)
{
	regex_t re;
	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
		return false;
	bool ok = regexec(&re, s, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

const char *kcidb_source_invalid(const struct kcidb_source *s)
{
	if (s->origin && !kcidb_match(s->origin, "^[a-z0-9_]+$"))
		return "--origin must be lowercase letters, digits and '_' (KCIDB's ^[a-z0-9_]+$), e.g. my_lab";
	if (s->commit && !kcidb_match(s->commit, "^[0-9a-f]{40}$"))
		return "--commit must be a full commit hash, 40 lowercase hex digits";
	if (s->git_url && !kcidb_match(s->git_url, "^(https|git)://.+$"))
		return "--git-url must be an https:// or git:// URL";
	if (s->tree && strchr(s->tree, '\n'))
		return "--tree must be one line";
	return NULL;
}

/* The suite's name as people say it: "quick" for suites/quick.ini or a
 * built-in "quick", the file's base name without ".ini". */
static char *kcidb_suite_name(const struct run *r)
{
	const char *s = r->info.suite ? r->info.suite : "suite";
	const char *slash = strrchr(s, '/');
	char *base = xstrdup(slash ? slash + 1 : s);
	size_t len = strlen(base);
	if (len > 4 && !strcmp(base + len - 4, ".ini"))
		base[len - 4] = '\0';
	char *part = kcidb_path_part(base);
	free(base);
	return part;
}

static const char *kcidb_arch(const struct run *r)
{
	const json_t *k = json_object_get(r->env, "kernel");
	const char *m = json_string_value(json_object_get(k, "machine"));
	return m && kcidb_match(m, "^[a-z0-9_]+$") ? m : NULL;
}

static json_t *kcidb_checkout(const struct run *r, const struct kcidb_source *s)
{
	const char *o = kcidb_origin(s), *kernel = r->info.kernel ? r->info.kernel : "unknown";
	json_t *c = json_object();
	json_object_set_new(c, "id", json_sprintf("%s:%s", o, kcidb_run_key(r)));
	json_object_set_new(c, "origin", json_string(o));
	if (s->tree)
		json_object_set_new(c, "tree_name", json_string(s->tree));
	if (s->git_url)
		json_object_set_new(c, "git_repository_url", json_string(s->git_url));
	if (s->commit)
		json_object_set_new(c, "git_commit_hash", json_string(s->commit));
	if (s->branch)
		json_object_set_new(c, "git_repository_branch", json_string(s->branch));
	json_object_set_new(c, "comment", json_sprintf("Linux %s", kernel));
	if (r->info.started > 0)
		json_object_set_new(c, "start_time", kcidb_time(r->info.started));
	json_object_set_new(c, "valid", json_true());
	json_object_set_new(c, "misc", json_pack("{ss}", "kernel_release", kernel));
	return c;
}

static json_t *kcidb_build(const struct run *r, const struct kcidb_source *s)
{
	const char *o = kcidb_origin(s), *arch = kcidb_arch(r);
	json_t *b = json_object();
	json_object_set_new(b, "id", json_sprintf("%s:%s", o, kcidb_run_key(r)));
	json_object_set_new(b, "checkout_id", json_sprintf("%s:%s", o, kcidb_run_key(r)));
	json_object_set_new(b, "origin", json_string(o));
	if (arch)
		json_object_set_new(b, "architecture", json_string(arch));
	json_object_set_new(b, "comment", json_sprintf("Linux %s", r->info.kernel ? r->info.kernel : "unknown"));
	/* the kernel booted and ran the suite: the build is good */
	json_object_set_new(b, "status", json_string("PASS"));
	return b;
}

/* A case's status: FAIL if an iteration failed, else ERROR if one erred or
 * ran out of memory, else SKIP if none ran, else PASS; *reason the first
 * reason of the iteration that decided it. */
static const char *kcidb_case_status(const struct run_case *c, const char **reason)
{
	static const char *const status[] = { "PASS", "FAIL", "SKIP", "ERROR", "ERROR" };
	static const int rank[] = { [OUTCOME_PASS] = 1, [OUTCOME_SKIP] = 0, [OUTCOME_ERROR] = 2,
				    [OUTCOME_OOM] = 2, [OUTCOME_FAIL] = 3 };
	int best = -1;
	enum outcome worst = OUTCOME_SKIP;
	bool any_pass = false;
	*reason = NULL;
	for (size_t k = 0; k < c->niter; k++) {
		enum outcome oc = c->iters[k].outcome;
		if ((unsigned)oc > OUTCOME_OOM)
			oc = OUTCOME_ERROR;
		any_pass |= oc == OUTCOME_PASS;
		if (rank[oc] > best || (rank[oc] == best && !*reason)) {
			best = rank[oc];
			worst = oc;
			*reason = c->iters[k].reason;
		}
	}
	/* a skipped warm-up beside passing iterations is a pass */
	if (worst == OUTCOME_SKIP && any_pass)
		worst = OUTCOME_PASS;
	return status[worst];
}

/* A metric's value and unit as KCIDB shows them: times in seconds and
 * sizes in bytes, so that KCIDB's prefix scales them. */
static json_t *kcidb_number(double value, const char *unit)
{
	static const struct {
		const char *unit, *base, *prefix;
		double scale;
	} units[] = {
		{ "ns", "s", "metric", 1e-9 }, { "us", "s", "metric", 1e-6 }, { "ms", "s", "metric", 1e-3 },
		{ "s", "s", "metric", 1 },     { "bytes", "B", "binary", 1 }, { "B", "B", "binary", 1 },
		{ "KiB", "B", "binary", 1024 }, { "kB", "B", "binary", 1024 }, { "%", "%", NULL, 1 },
	};
	for (size_t i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].unit)) {
			json_t *n = json_pack("{sf ss}", "value", value * units[i].scale, "unit", units[i].base);
			if (units[i].prefix)
				json_object_set_new(n, "prefix", json_string(units[i].prefix));
			return n;
		}
	if (!unit || !*unit)
		return json_pack("{sf ss}", "value", value, "prefix", "metric");
	return json_pack("{sf ss ss}", "value", value, "unit", unit, "prefix", "metric");
}

/* The headline metrics of a case to write a test for: a predicate over
 * (workload, case, metric). */
struct kcidb_pick {
	bool (*headline)(const struct kcidb_pick *p, const struct run_case *c, const char *metric);
	const struct comparison *cmp;
};

static bool kcidb_pick_workload(const struct kcidb_pick *p, const struct run_case *c, const char *metric)
{
	(void)p;
	return c->workload && workload_metric_headline(c->workload, metric);
}

static bool kcidb_pick_compare(const struct kcidb_pick *p, const struct run_case *c, const char *metric)
{
	for (size_t r = 0; r < p->cmp->nrows; r++) {
		const struct cmp_row *row = &p->cmp->rows[r];
		if (row->headline && !strcmp(row->case_name, c->name) && !strcmp(row->metric, metric))
			return true;
	}
	return false;
}

/* The case's wall time: the sum of its iterations' "elapsed" (ns). */
static double kcidb_case_seconds(const struct run_case *c)
{
	double ns = 0;
	for (size_t k = 0; k < c->niter; k++) {
		const struct metric *m = result_find_metric(&c->iters[k], "elapsed");
		if (m && isfinite(m->value))
			ns += m->value;
	}
	return ns / 1e9;
}

static json_t *kcidb_case_test(const struct run *r, const struct run_case *c, const struct kcidb_source *s,
			       const char *path)
{
	const char *reason = NULL;
	const char *status = kcidb_case_status(c, &reason);
	size_t count[OUTCOME_OOM + 1] = { 0 };
	for (size_t k = 0; k < c->niter; k++)
		if ((unsigned)c->iters[k].outcome <= OUTCOME_OOM)
			count[c->iters[k].outcome]++;
	json_t *t = kcidb_test_base(r, s, c->name, path);
	json_object_set_new(t, "status", json_string(status));
	json_object_set_new(t, "duration", json_real(kcidb_case_seconds(c)));
	json_t *outcomes = json_object();
	for (int o = 0; o <= OUTCOME_OOM; o++)
		if (count[o])
			json_object_set_new(outcomes, outcome_name((enum outcome)o), json_integer((json_int_t)count[o]));
	json_t *misc = json_pack("{ss* sI so ss}", "workload", c->workload, "iterations", (json_int_t)c->niter,
				 "outcomes", outcomes, "run_uuid", kcidb_run_key(r));
	if (reason)
		json_object_set_new(misc, "reason", json_string(reason));
	json_object_set_new(t, "misc", misc);
	if (reason)
		json_object_set_new(t, "comment", json_string(reason));
	return t;
}

/* The metric's figure over the case's passing iterations (mean by its
 * combine rule); false when none passed. */
static bool kcidb_metric_mean(const struct run_case *c, const char *name, struct stats_summary *sum,
			      const char **unit)
{
	double *v = xcalloc(c->niter + 1, sizeof(double));
	size_t n = 0;
	enum combine comb = COMBINE_AMEAN;
	for (size_t k = 0; k < c->niter; k++) {
		const struct metric *m = result_find_metric(&c->iters[k], name);
		if (c->iters[k].outcome != OUTCOME_PASS || !m || !isfinite(m->value))
			continue;
		v[n++] = m->value;
		comb = m->combine;
		*unit = m->unit;
	}
	if (n)
		stats_summarize(v, n, comb, sum);
	free(v);
	return n > 0 && isfinite(sum->mean);
}

/* The names of the case's metrics, in the order of its first iteration
 * that has any. */
static const struct result *kcidb_first_metrics(const struct run_case *c)
{
	for (size_t k = 0; k < c->niter; k++)
		if (c->iters[k].nmetrics)
			return &c->iters[k];
	return NULL;
}

static void kcidb_case_tests(json_t *tests, const struct run *r, const struct run_case *c,
			     const struct kcidb_source *s, const struct kcidb_pick *pick)
{
	char *suite = kcidb_suite_name(r), *cname = kcidb_path_part(c->name);
	char *path = xasprintf("vmregress.%s.%s", suite, cname);
	json_array_append_new(tests, kcidb_case_test(r, c, s, path));
	kcidb_kselftest_tests(tests, r, c, s, path);  /* each kernel selftest case its own test */
	const struct result *first = kcidb_first_metrics(c);
	for (size_t m = 0; first && m < first->nmetrics; m++) {
		const char *name = first->metrics[m].name, *unit = NULL;
		struct stats_summary sum = { 0 };
		if (!pick->headline(pick, c, name) || !kcidb_metric_mean(c, name, &sum, &unit))
			continue;
		char *mname = kcidb_path_part(name), *tail = xasprintf("%s:%s", c->name, name);
		char *mpath = xasprintf("%s.%s", path, mname);
		json_t *t = kcidb_test_base(r, s, tail, mpath);
		json_object_set_new(t, "status", json_string("DONE"));
		json_object_set_new(t, "number", kcidb_number(sum.mean, unit));
		json_object_set_new(t, "misc", json_pack("{ss ss* sI sf sf sf}", "metric", name, "unit", unit, "n",
							 (json_int_t)sum.n, "stddev", sum.stddev, "min", sum.min,
							 "max", sum.max));
		json_array_append_new(tests, t);
		free(mname);
		free(tail);
		free(mpath);
	}
	free(path);
	free(cname);
	free(suite);
}

static json_t *kcidb_document(const struct run *const *runs, size_t n, const struct kcidb_source *s,
			      const struct kcidb_pick *pick)
{
	json_t *checkouts = json_array(), *builds = json_array(), *tests = json_array();
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(checkouts, kcidb_checkout(runs[i], s));
		json_array_append_new(builds, kcidb_build(runs[i], s));
		for (size_t c = 0; c < runs[i]->ncases; c++)
			kcidb_case_tests(tests, runs[i], &runs[i]->cases[c], s, pick);
	}
	return json_pack("{s{sisi} so so so}", "version", "major", KCIDB_VERSION_MAJOR, "minor", KCIDB_VERSION_MINOR,
			 "checkouts", checkouts, "builds", builds, "tests", tests);
}

json_t *kcidb_runs(const struct run *const *runs, size_t n, const struct kcidb_source *s)
{
	struct kcidb_pick pick = { .headline = kcidb_pick_workload };
	return kcidb_document(runs, n, s, &pick);
}

/* "time: 12.3% worse (95% CI +8.1% .. +16.5%), q = 0.0021, against BASE" */
static char *kcidb_regression_text(const struct comparison *cmp, const struct cmp_row *row, size_t i)
{
	const struct cmp_cell *cell = &row->cells[i];
	char ci[96] = "";
	if (isfinite(cell->ci_low) && isfinite(cell->ci_high))
		snprintf(ci, sizeof(ci), " (ratio's 95%% CI %.4g .. %.4g)", cell->ci_low, cell->ci_high);
	return xasprintf("vmregress: %s of %s regressed %.1f%%%s, q = %.2g (FDR %g), %s against %s",
			 row->metric, row->case_name, fabs(cell->change_pct), ci, cell->q, cmp->alpha,
			 cmp->runs[i]->info.name, cmp->runs[0]->info.name);
}

static void kcidb_regressions(json_t *doc, const struct comparison *cmp, const struct kcidb_source *s)
{
	const char *o = kcidb_origin(s);
	json_t *issues = json_array(), *incidents = json_array();
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct cmp_row *row = &cmp->rows[r];
		for (size_t i = 1; row->headline && i < cmp->nruns; i++) {
			const struct cmp_cell *cell = &row->cells[i];
			if (cell->verdict != CMP_REGRESSED)
				continue;
			const char *run = kcidb_run_key(cmp->runs[i]), *base = kcidb_run_key(cmp->runs[0]);
			char *text = kcidb_regression_text(cmp, row, i);
			json_t *issue_id = json_sprintf("%s:%s:%s:%s:%s", o, run, base, row->case_name, row->metric);
			json_array_append_new(issues,
					      json_pack("{sO si ss s{sb} ss s{ss ss ss sf sf sf sf}}", "id", issue_id,
							"version", 1, "origin", o, "culprit", "code", 1, "comment", text,
							"misc", "base_run", base, "case", row->case_name, "metric",
							row->metric, "change_pct", cell->change_pct, "ratio", cell->ratio,
							"q", cell->q, "alpha", cmp->alpha));
			char *build_id = xasprintf("%s:%s", o, run);
			char *test_id = xasprintf("%s:%s:%s:%s", o, run, row->case_name, row->metric);
			json_array_append_new(incidents,
					      json_pack("{s:s+ ss sO si ss ss sb ss}", "id", json_string_value(issue_id),
							":incident", "origin", o, "issue_id", issue_id, "issue_version", 1,
							"build_id", build_id, "test_id", test_id, "present", 1, "comment", text));
			free(build_id);
			free(test_id);
			json_decref(issue_id);
			free(text);
		}
	}
	json_object_set_new(doc, "issues", issues);
	json_object_set_new(doc, "incidents", incidents);
}

json_t *kcidb_compare(const struct comparison *cmp, const struct kcidb_source *s)
{
	struct kcidb_pick pick = { .headline = kcidb_pick_compare, .cmp = cmp };
	json_t *doc = kcidb_document(cmp->runs, cmp->nruns, s, &pick);
	kcidb_regressions(doc, cmp, s);
	return doc;
}
