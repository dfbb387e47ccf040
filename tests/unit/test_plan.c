/* plan: the iterations a variant needs to see a change, from a group's
 * spread.  The need is the smallest count at which the test compare will
 * use (paired t for the blocks of variants, Welch otherwise; the MDE
 * functions are checked against statsmodels in test_stats_ref) has 80%
 * power at alpha / m for the change, given the spread of the logs compare
 * tests; and a case's time is its iterations' wall-clock time. */
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "stats/compare.h"
#include "stats/plan.h"
#include "stats/stats.h"
#include "store/store.h"
#include "workload/workload.h"
#include "t.h"
#include "trun.h"

static struct run *mkrun(const char *name, int64_t id, const char *group)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup(name);
	r->info.id = id;
	r->info.group_uuid = group ? xstrdup(group) : NULL;
	r->env = json_object();
	return r;
}

/* One case of fault with time-passes; block k of b is a's times e^(d_k). */
static void fill(struct run *r, const double *v, size_t n, bool ordered, int side)
{
	struct run_case *c = t_one_case(r, "fault-zero", "fault", n, ordered ? side : -1);
	for (size_t i = 0; i < n; i++) {
		result_metric(&c->iters[i], "time-passes", "ns", BETTER_LOWER, COMBINE_AMEAN, v[i]);
		result_metric(&c->iters[i], "elapsed", "ns", BETTER_LOWER, COMBINE_AMEAN, 2e9);
	}
}

int main(void)
{
	double a[8], b[8], d[8];
	for (size_t i = 0; i < 8; i++) {
		a[i] = 1e9 * (1 + 0.3 * sin((double)i));  /* a drift the blocks share */
		d[i] = 0.04 * cos(2.1 * (double)i);
		b[i] = a[i] * exp(d[i]);
	}
	double sd = sqrt(stats_variance(d, 8));
	struct run *ra = mkrun("a", 1, "g"), *rb = mkrun("b", 2, "g");
	fill(ra, a, 8, true, 0);
	fill(rb, b, 8, true, 1);
	const struct run *runs[] = { ra, rb };
	struct compare_opts o = { .alpha = 0.05, .headline = workload_metric_headline };
	struct comparison cmp = { 0 };
	compare_runs(runs, 2, &o, &cmp);
	struct plan p = { 0 };
	plan_from_comparison(&cmp, 0.05, &p);
	CHECK(p.nrows == 1 && p.m == 1 && p.rows[0].paired && p.rows[0].have == 8, "one headline metric, paired, 8 blocks");
	CHECK(p.nrows && fabs(p.rows[0].spread - sd) < 1e-12, "its spread is the sd of the blocks' log ratios (%g)", sd);
	size_t need = p.nrows ? p.rows[0].need : 0;
	double e = log(1.05);
	CHECK(need > 3 && stats_t1_mde((double)need, 0.05, 0.8) * sd <= e &&
		      stats_t1_mde((double)need - 1, 0.05, 0.8) * sd > e,
	      "the smallest n whose paired test has 80%% power for 5%% (%zu)", need);
	/* how rough: the counts at the ends of the spread's 95% interval from 7
	 * degrees of freedom, sd * sqrt(7 / chi2(0.975)) and sd * sqrt(7 / chi2(0.025)) */
	size_t lo = plan_iterations(e, sd * sqrt(7 / 16.01276), true, false, 0.05),
	       hi = plan_iterations(e, sd * sqrt(7 / 1.689869), true, false, 0.05);
	CHECK(p.nrows && p.rows[0].need_lo == lo && p.rows[0].need_hi == hi && lo < need && need < hi,
	      "and how rough that is: %zu to %zu, the counts at the spread's 95%% bounds", lo, hi);
	CHECK(p.nrows && fabs(p.rows[0].iter_s - 2) < 1e-12 && fabs(p.total_s - (double)need * 2 * 2) < 1e-9,
	      "time: the iterations' own, for both variants (%g s)", p.total_s);
	plan_free(&p);
	plan_from_comparison(&cmp, 0.20, &p);
	CHECK(p.nrows && p.rows[0].need < need, "a larger change needs fewer (%zu)", p.nrows ? p.rows[0].need : 0);
	plan_free(&p);
	compare_free(&cmp);

	/* Runs made apart: Welch, whose spread is both sides' and carries
	 * the drift the blocks shared: many more iterations. */
	free(ra->info.group_uuid);
	ra->info.group_uuid = NULL;
	compare_runs(runs, 2, &o, &cmp);
	plan_from_comparison(&cmp, 0.05, &p);
	CHECK(p.nrows && !p.rows[0].paired && p.rows[0].need > need,
	      "apart: Welch, and more iterations (%zu)", p.nrows ? p.rows[0].need : 0);
	plan_free(&p);
	compare_free(&cmp);
	run_free(ra);
	run_free(rb);
	T_DONE();
}
