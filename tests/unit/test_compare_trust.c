/* The trust warnings of host-wide activity the runs' iterations recorded:
 * khugepaged collapses and compaction stalls (the runner's vmstat-*
 * deltas) beyond CMP_TRUST_HUGEPAGE_MIN an iteration, and the host's CPU
 * steal (host-steal, weighted by elapsed time) above CMP_TRUST_STEAL_PCT.  A run under it, or
 * one whose iterations that crossed it did not pass, is not named; the
 * warning is one line of the verdict and one entry of the JSON's trust. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "report/compare_fmt.h"
#include "stats/compare.h"
#include "stats/trust.h"
#include "store/store.h"
#include "workload/workload.h"
#include "t.h"
#include "trun.h"

#define NITER 6

/* A run of one case, NITER passing iterations, each with the given
 * collapses and stalls (negative: the metric absent). */
static struct run *mkrun(const char *name, int64_t id, double collapses, double stalls)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup(name);
	r->info.id = id;
	r->info.group_uuid = xstrdup("7a0c1e");
	r->info.group_name = xstrdup("thp");
	r->info.variant = xstrdup(name);
	r->info.variant_index = (int)id - 1;
	r->env = json_object();
	struct run_case *c = t_one_case(r, "reread", "reread", NITER, (int)(id - 1));
	for (size_t i = 0; i < NITER; i++) {
		result_metric(&c->iters[i], "reread-time", "ns", BETTER_LOWER, COMBINE_AMEAN,
			      1000.0 + 10.0 * (double)(i % 3));
		if (collapses >= 0)
			result_metric(&c->iters[i], "vmstat-thp_collapse_alloc", "events", BETTER_NONE,
				      COMBINE_AMEAN, collapses);
		if (stalls >= 0)
			result_metric(&c->iters[i], "vmstat-compact_stall", "events", BETTER_NONE, COMBINE_AMEAN,
				      stalls);
	}
	return r;
}

static const struct cmp_trust *find_trust(const struct comparison *cmp, enum cmp_trust_kind kind)
{
	for (size_t i = 0; i < cmp->ntrust; i++)
		if (cmp->trust[i].kind == kind)
			return &cmp->trust[i];
	return NULL;
}

/* cmp borrows the runs' array: it outlives the call. */
static void compare2(struct comparison *cmp, const struct run *a, const struct run *b)
{
	static const struct run *g[2];
	g[0] = a;
	g[1] = b;
	struct compare_opts o = { .alpha = 0.05, .headline = workload_metric_headline };
	*cmp = (struct comparison){ 0 };
	compare_runs(g, 2, &o, cmp);
}

/* Set metric name to v in iteration i of r's case (every one when i is
 * NITER). */
static void set_metric(struct run *r, size_t i, const char *name, const char *unit, double v)
{
	for (size_t k = 0; k < NITER; k++)
		if (i == NITER || k == i)
			result_metric(&r->cases[0].iters[k], name, unit, BETTER_NONE, COMBINE_AMEAN, v);
}

/* Whether the verdict lines hold a line that contains want. */
static bool verdict_has(const struct comparison *cmp, const char *want)
{
	struct strlist lines = { 0 };
	compare_verdict_lines(cmp, &lines);
	bool found = false;
	for (size_t i = 0; i < lines.n; i++)
		found |= strstr(lines.v[i], want) != NULL;
	strlist_free(&lines);
	return found;
}

int main(void)
{
	struct comparison cmp = { 0 };

	/* Quiet: no warning, in text or JSON. */
	struct run *a = mkrun("base", 1, 0, 0), *b = mkrun("quiet", 2, 0, 0);
	compare2(&cmp, a, b);
	CHECK(!find_trust(&cmp, CMP_TRUST_HUGEPAGE), "no collapse nor stall: no warning");
	CHECK(!verdict_has(&cmp, "khugepaged"), "and the verdict says nothing of it");
	json_t *j = compare_to_json(&cmp);
	json_t *tr = json_object_get(json_object_get(j, "verdict"), "trust");
	size_t k;
	json_t *e;
	bool in_json = false;
	json_array_foreach(tr, k, e)
	in_json |= !strcmp(json_string_value(json_object_get(e, "kind")) ?: "", "hugepage");
	CHECK(json_is_array(tr) && !in_json, "nor the JSON's trust");
	json_decref(j);
	compare_free(&cmp);
	run_free(b);

	/* At the threshold exactly (one an iteration): still quiet. */
	b = mkrun("edge", 2, 1, 0);
	compare2(&cmp, a, b);
	CHECK(!find_trust(&cmp, CMP_TRUST_HUGEPAGE), "one collapse an iteration is at the threshold, not above");
	compare_free(&cmp);
	run_free(b);

	/* Busy: 3 collapses and 2 stalls an iteration in the second run. */
	b = mkrun("busy", 2, 3, 2);
	compare2(&cmp, a, b);
	const struct cmp_trust *t = find_trust(&cmp, CMP_TRUST_HUGEPAGE);
	CHECK(t && t->runs.n == 1 && !strcmp(t->runs.v[0], cmp.labels[1]), "the busy run is named, the base not");
	CHECK(t && t->count == 3 * NITER && t->stalls == 2 * NITER, "with its collapses (%zu) and stalls (%zu)",
	      t ? t->count : 0, t ? t->stalls : 0);
	char want[128];
	snprintf(want, sizeof(want), "Caution: %d khugepaged collapses and %d compaction stalls during %s: host-wide",
		 3 * NITER, 2 * NITER, cmp.labels[1]);
	CHECK(verdict_has(&cmp, want), "one verdict line: %s", want);
	j = compare_to_json(&cmp);
	tr = json_object_get(json_object_get(j, "verdict"), "trust");
	in_json = false;
	json_array_foreach(tr, k, e)
	in_json |= !strcmp(json_string_value(json_object_get(e, "kind")) ?: "", "hugepage") &&
		   json_integer_value(json_object_get(e, "count")) == 3 * NITER &&
		   json_integer_value(json_object_get(e, "stalls")) == 2 * NITER;
	CHECK(in_json, "and one entry of the JSON's trust, kind hugepage, with count and stalls");
	json_decref(j);
	compare_free(&cmp);

	/* The same counts in iterations that did not pass: not counted. */
	for (size_t i = 0; i < NITER; i++)
		result_set_outcome(&b->cases[0].iters[i], OUTCOME_SKIP, "warm-up");
	compare2(&cmp, a, b);
	CHECK(!find_trust(&cmp, CMP_TRUST_HUGEPAGE), "iterations that did not pass are not counted");
	compare_free(&cmp);
	run_free(b);

	/* Results stored without the counters (a kernel without them). */
	b = mkrun("none", 2, -1, -1);
	compare2(&cmp, a, b);
	CHECK(!find_trust(&cmp, CMP_TRUST_HUGEPAGE), "no counters, no warning");
	compare_free(&cmp);
	run_free(b);

	/* Stalls alone, in both runs: both named. */
	run_free(a);
	a = mkrun("base", 1, -1, 5);
	b = mkrun("also", 2, 0, 2);
	compare2(&cmp, a, b);
	t = find_trust(&cmp, CMP_TRUST_HUGEPAGE);
	CHECK(t && t->runs.n == 2 && t->count == 0 && t->stalls == 7 * NITER,
	      "compaction stalls alone warn, over both runs (%zu runs)", t ? t->runs.n : 0);
	compare_free(&cmp);
	run_free(a);
	run_free(b);

	/* CPU steal: 4% in every iteration of both, under the threshold. */
	a = mkrun("base", 1, -1, -1);
	b = mkrun("vm", 2, -1, -1);
	set_metric(a, NITER, "host-steal", "%", 4.0);
	set_metric(b, NITER, "host-steal", "%", 4.0);
	compare2(&cmp, a, b);
	CHECK(!find_trust(&cmp, CMP_TRUST_STEAL) && !verdict_has(&cmp, "stole"), "4%% steal: no warning");
	compare_free(&cmp);

	/* 20% in one iteration of six, all as long: 4 + 16/6, above 5%. */
	set_metric(b, 0, "host-steal", "%", 20.0);
	compare2(&cmp, a, b);
	t = find_trust(&cmp, CMP_TRUST_STEAL);
	CHECK(t && t->runs.n == 1 && !strcmp(t->runs.v[0], cmp.labels[1]) && fabs(t->share - (4 + 16.0 / 6)) < 1e-9,
	      "20%% in one iteration of six: the run is named, share %.2f%%", t ? t->share : 0);
	snprintf(want, sizeof(want), "Caution: the hypervisor stole up to 6.7%% of the host's CPU time during %s: ",
		 cmp.labels[1]);
	CHECK(verdict_has(&cmp, want), "one verdict line: %s", want);
	j = compare_to_json(&cmp);
	tr = json_object_get(json_object_get(j, "verdict"), "trust");
	in_json = false;
	json_array_foreach(tr, k, e)
	in_json |= !strcmp(json_string_value(json_object_get(e, "kind")) ?: "", "cpu-steal") &&
		   fabs(json_real_value(json_object_get(e, "share_pct")) - (4 + 16.0 / 6)) < 1e-9;
	CHECK(in_json, "and one entry of the JSON's trust, kind cpu-steal, with share_pct");
	json_decref(j);
	compare_free(&cmp);

	/* The same iteration a tenth as long as the others: weighted by time. */
	set_metric(b, NITER, "elapsed", "ns", 1e9);
	set_metric(b, 0, "elapsed", "ns", 1e8);
	compare2(&cmp, a, b);
	CHECK(!find_trust(&cmp, CMP_TRUST_STEAL), "weighted by elapsed time the steal is under 5%%");
	compare_free(&cmp);
	run_free(a);
	run_free(b);
	T_DONE();
}
