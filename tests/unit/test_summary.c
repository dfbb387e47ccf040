/* One set of statistics: the summaries run and show print (summary_build)
 * and the cells compare tests count the same iterations, those that passed
 * with a finite value, and take the same mean, harmonic for rates.  A
 * warm-up (stored as skipped) and a failed iteration are left out. */
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "report/run_json.h"
#include "stats/compare.h"
#include "stats/summary.h"
#include "store/store.h"
#include "t.h"

int main(void)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup("w");
	r->info.uuid = xstrdup("6a1e");
	r->info.status = xstrdup("complete");
	r->info.id = 1;
	r->env = json_object();
	r->ncases = 1;
	r->cases = xcalloc(1, sizeof(*r->cases));
	struct run_case *c = &r->cases[0];
	c->name = xstrdup("mmap001");
	c->workload = xstrdup("mmap001");
	c->options = json_object();
	c->niter = 6;
	c->iters = xcalloc(6, sizeof(struct result));
	c->iter_no = xcalloc(6, sizeof(int));
	/* A cold warm-up, four passes, one failure with a wild value. */
	const double rate[] = { 1000, 100, 200, 400, 400, 99999 }, time[] = { 9, 4, 5, 6, 5, 1 };
	for (size_t i = 0; i < 6; i++) {
		c->iter_no[i] = (int)i;
		result_init(&c->iters[i], "mmap001");
		result_metric(&c->iters[i], "pages-per-sec", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, rate[i]);
		result_metric(&c->iters[i], "time", "ns", BETTER_LOWER, COMBINE_AMEAN, time[i]);
	}
	result_set_outcome(&c->iters[0], OUTCOME_SKIP, "warm-up iteration, not counted");
	result_set_outcome(&c->iters[5], OUTCOME_FAIL, "bad data");

	struct case_summary *s = summary_build(r);
	const struct metric_summary *pr = &s[0].m[0], *pt = &s[0].m[1];
	CHECK(s[0].nmetrics == 2 && pr->n == 4 && pt->n == 4, "the four passes counted, not the warm-up or the failure");
	/* 4 / (1/100 + 1/200 + 1/400 + 1/400) = 200 */
	CHECK_NEAR(pr->mean, 200, 1e-9, "a rate's mean is harmonic (%g)", pr->mean);
	CHECK(pr->combine == COMBINE_HMEAN && pr->min == 100 && pr->max == 400, "its min and max of the passes");
	CHECK_NEAR(pt->mean, 5, 1e-12, "a time's is arithmetic");
	CHECK_NEAR(pt->stddev, sqrt(2.0 / 3), 1e-12, "its sample standard deviation of the passes");
	CHECK(s[0].outcomes[OUTCOME_PASS] == 4 && s[0].outcomes[OUTCOME_SKIP] == 1 && s[0].outcomes[OUTCOME_FAIL] == 1,
	      "outcomes are counted over every iteration");

	const struct run *runs[] = { r, r };
	struct compare_opts o = { .alpha = 0.05 };
	struct comparison cmp = { 0 };
	compare_runs(runs, 2, &o, &cmp);
	bool same = cmp.nrows == 2;
	for (size_t k = 0; k < cmp.nrows; k++) {
		const struct stats_summary *cs = &cmp.rows[k].cells[0].s;
		const struct metric_summary *m = !strcmp(cmp.rows[k].metric, "time") ? pt : pr;
		same &= cs->n == m->n && cs->mean == m->mean && cs->stddev == m->stddev && cs->min == m->min &&
			cs->max == m->max;
	}
	CHECK(same, "compare's cells hold the same figures as the summary");
	compare_free(&cmp);

	json_t *j = run_summary_json(r, s, false);
	json_t *m0 = json_array_get(json_object_get(json_array_get(json_object_get(j, "cases"), 0), "metrics"), 0);
	CHECK(json_integer_value(json_object_get(m0, "n")) == 4 && fabs(json_real_value(json_object_get(m0, "mean")) - 200) < 1e-9 &&
		      !strcmp(json_string_value(json_object_get(m0, "combine")) ?: "", "hmean"),
	      "show --json carries them, and says how the mean is taken");
	json_decref(j);
	summary_free(s, r->ncases);
	run_free(r);
	T_DONE();
}
