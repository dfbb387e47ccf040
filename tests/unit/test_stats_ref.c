/* The statistics of compare against independent references: Welch's
 * confidence interval and the minimal detectable effect from statsmodels,
 * Mann-Whitney U from scipy, Benjamini-Hochberg q-values from statsmodels'
 * multipletests, the paired t-test from scipy's ttest_rel and its power
 * from statsmodels' TTestPower.  tests/unit/stats_ref.py writes stats_ref.h; the two must
 * agree to 1e-9.  The bootstrap has no independent reference (its resamples
 * are its own): its properties are checked instead. */
#include <math.h>

#include "core/util.h"
#include "stats/stats.h"
#include "t.h"

struct stats_ref {
	const char *name;
	double a[12];
	size_t na;
	double b[12];
	size_t nb;
	double ci_lo, ci_hi;      /* Welch 95%, mean(b) - mean(a) */
	double u, p_auto, p_exact, p_asym;
	int ties;
	double mde_d, mde_diff;   /* Cohen's d at 80% power, alpha 0.05; and times pooled sd */
};

struct paired_ref {
	const char *name;
	double a[12], b[12];
	size_t n;
	double t, p, ci_lo, ci_hi;     /* scipy's ttest_rel(b, a); the mean difference's 95% interval */
	double mde_d, mde_d_005;       /* TTestPower: d at 80% power, alpha 0.05 and 0.005 */
	double wplus, wsr_p;           /* scipy's wilcoxon(b, a): W+ and p */
	int wsr_exact;                 /* no zero, no tie: the exact p */
};

struct power_ref {
	double na, nb;             /* nb 0: the one-sample test of na values */
	double alpha, d;           /* d at 80% power */
};

struct bh_ref {
	const char *name;
	double p[12], q[12];
	size_t n;
};

struct ratio_ref {
	const char *name;
	double a[12];
	size_t na;
	double b[12];
	size_t nb;
	int paired;
	double lo, hi;             /* 95% interval of mean(b) / mean(a), log scale */
};

#include "stats_ref.h"

static double var_of(const double *v, size_t n)
{
	return stats_variance(v, n);
}

/* Welch's interval: guards the t quantile's tail and the df. */
static void test_welch_ci(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(stats_refs); i++) {
		const struct stats_ref *r = &stats_refs[i];
		double lo, hi;
		stats_welch_ci(stats_amean(r->a, r->na), var_of(r->a, r->na), r->na, stats_amean(r->b, r->nb),
			       var_of(r->b, r->nb), r->nb, 0.95, &lo, &hi);
		double tol = 1e-9 * fmax(1, fmax(fabs(r->ci_lo), fabs(r->ci_hi)));
		CHECK_NEAR(lo, r->ci_lo, tol, "%s: Welch CI low", r->name);
		CHECK_NEAR(hi, r->ci_hi, tol, "%s: Welch CI high", r->name);
	}
	double lo, hi;
	stats_welch_ci(1, 0, 3, 2, 0, 3, 0.95, &lo, &hi);
	CHECK(lo == 1 && hi == 1, "both sides constant: the interval is the difference");
	stats_welch_ci(1, 1, 1, 2, 1, 3, 0.95, &lo, &hi);
	CHECK(isnan(lo) && isnan(hi), "one iteration: no interval");
}

/* U with mid-ranks, the exact permutation tail, the normal tail with the
 * tie and continuity corrections, and scipy's choice between them. */
static void test_mwu(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(stats_refs); i++) {
		const struct stats_ref *r = &stats_refs[i];
		struct mwu m = { 0 };
		stats_mann_whitney(r->a, r->na, r->b, r->nb, &m);
		CHECK(!m.too_few, "%s: enough values", r->name);
		CHECK_NEAR(m.u, r->u, 1e-9, "%s: U", r->name);
		CHECK_NEAR(m.p, r->p_auto, 1e-9, "%s: p as scipy's method=auto", r->name);
		CHECK(m.exact == (!r->ties && (r->na <= 8 || r->nb <= 8)), "%s: exact when scipy's auto is", r->name);
		CHECK_NEAR(stats_mwu_normal_p(r->a, r->na, r->b, r->nb, m.u), r->p_asym, 1e-9, "%s: asymptotic p",
			   r->name);
		if (!r->ties)
			CHECK_NEAR(stats_mwu_exact_p(m.u, r->na, r->nb), r->p_exact, 1e-9, "%s: exact p", r->name);
	}
	struct mwu m = { 0 };
	double one[] = { 1 }, two[] = { 1, 2 };
	stats_mann_whitney(one, 1, two, 2, &m);
	CHECK(m.too_few && isnan(m.p), "one value on a side: too few");
}

static void test_bh(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bh_refs); i++) {
		const struct bh_ref *r = &bh_refs[i];
		double q[12];
		stats_bh(r->p, r->n, q);
		for (size_t k = 0; k < r->n; k++)
			CHECK_NEAR(q[k], r->q[k], 1e-9, "%s: q[%zu]", r->name, k);
	}
	/* NAN p-values are not tests: they neither get a q nor count in n. */
	double p[] = { 0.01, NAN, 0.04 }, q[3];
	stats_bh(p, 3, q);
	CHECK_NEAR(q[0], 0.02, 1e-12, "NAN is left out of n");
	CHECK(isnan(q[1]), "and gets no q");
	CHECK_NEAR(q[2], 0.04, 1e-12, "the largest p keeps its value");
}

static void test_bootstrap(void)
{
	double a[] = { 1520, 1610, 1480, 2900, 1550 }, b[] = { 1900, 2050, 1990, 4100, 1870 };
	double lo, hi, lo2, hi2;
	stats_bootstrap_ratio(a, 5, b, 5, 0.95, 2000, 42, &lo, &hi);
	double ratio = stats_median(b, 5) / stats_median(a, 5);
	CHECK(lo <= ratio && ratio <= hi, "the interval holds the ratio of medians (%g in [%g, %g])", ratio, lo, hi);
	double c[] = { 100, 102, 98, 101, 99 }, d[] = { 120, 118, 121, 119, 122 };
	stats_bootstrap_ratio(c, 5, d, 5, 0.95, 2000, 42, &lo2, &hi2);
	CHECK(lo2 > 1.1 && hi2 < 1.3, "a clear shift excludes 1 ([%g, %g])", lo2, hi2);
	stats_bootstrap_ratio(a, 5, b, 5, 0.95, 2000, 42, &lo2, &hi2);
	CHECK(lo == lo2 && hi == hi2, "the same seed gives the same interval");
	stats_bootstrap_ratio(a, 5, a, 5, 0.95, 2000, 42, &lo, &hi);
	CHECK(lo < 1 && hi > 1, "a run against itself: the interval holds 1 ([%g, %g])", lo, hi);
	double z[] = { 0, 0, 0 };
	stats_bootstrap_ratio(z, 3, b, 5, 0.95, 200, 1, &lo, &hi);
	CHECK(isnan(lo) && isnan(hi), "a base median of 0: no interval");
	CHECK_NEAR(stats_median(b, 5), 1990, 0, "median of an odd count");
	CHECK_NEAR(stats_median(b, 4), 2020, 1e-12, "median of an even count");
}

/* The minimal detectable effect against statsmodels' power functions. */
static void test_mde(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(stats_refs); i++) {
		const struct stats_ref *r = &stats_refs[i];
		double d = stats_t_mde((double)r->na, (double)r->nb, 0.05, 0.8);
		CHECK_NEAR(d, r->mde_d, 1e-9 * fmax(1, r->mde_d), "%s: MDE in standard deviations", r->name);
		CHECK_NEAR(stats_t_power(d, (double)r->na, (double)r->nb, 0.05), 0.8, 1e-9, "%s: power at the MDE",
			   r->name);
	}
	CHECK(isnan(stats_t_mde(1, 1, 0.05, 0.8)), "one value a side: no MDE");
	/* From 2 values to thousands, where the variance's chi-square is a
	 * narrow peak that an integral over [0, inf) misses. */
	for (size_t i = 0; i < ARRAY_SIZE(power_refs); i++) {
		const struct power_ref *r = &power_refs[i];
		double d = r->nb ? stats_t_mde(r->na, r->nb, r->alpha, 0.8) : stats_t1_mde(r->na, r->alpha, 0.8);
		CHECK_NEAR(d, r->d, 1e-8 * r->d, "MDE of %g and %g values at alpha %g: %g", r->na, r->nb, r->alpha, d);
	}
}

/* The paired t-test, its interval and the one-sample MDE. */
static void test_paired(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(paired_refs); i++) {
		const struct paired_ref *r = &paired_refs[i];
		struct welch w = { 0 };
		double lo, hi;
		stats_paired_t(r->a, r->b, r->n, 0.95, &w, &lo, &hi);
		CHECK(!w.too_few && w.df == (double)(r->n - 1), "%s: paired, df n - 1", r->name);
		CHECK_NEAR(w.t, r->t, 1e-9 * fmax(1, fabs(r->t)), "%s: t", r->name);
		CHECK_NEAR(w.p, r->p, 1e-9 * fmax(1e-9, r->p), "%s: p as ttest_rel", r->name);
		CHECK_NEAR(lo, r->ci_lo, 1e-9 * fmax(1, fabs(r->ci_lo)), "%s: interval low", r->name);
		CHECK_NEAR(hi, r->ci_hi, 1e-9 * fmax(1, fabs(r->ci_hi)), "%s: interval high", r->name);
		double d = stats_t1_mde((double)r->n, 0.05, 0.8), d5 = stats_t1_mde((double)r->n, 0.005, 0.8);
		CHECK_NEAR(d, r->mde_d, 1e-9 * fmax(1, r->mde_d), "%s: one-sample MDE, alpha 0.05", r->name);
		CHECK_NEAR(d5, r->mde_d_005, 1e-9 * fmax(1, r->mde_d_005), "%s: alpha 0.005", r->name);
		struct wsr ws = { 0 };
		stats_wilcoxon(r->a, r->b, r->n, &ws);
		CHECK(!ws.too_few && ws.exact == (bool)r->wsr_exact, "%s: signed-rank exact when scipy's is", r->name);
		CHECK_NEAR(ws.w, r->wplus, 1e-9, "%s: W+", r->name);
		CHECK_NEAR(ws.p, r->wsr_p, 1e-9 * fmax(1e-6, r->wsr_p), "%s: signed-rank p as scipy's", r->name);
	}
	struct wsr ws = { 0 };
	double same[] = { 4, 5, 6 };
	stats_wilcoxon(same, same, 3, &ws);
	CHECK(!ws.too_few && ws.p == 1 && ws.n == 0, "no pair differs: p 1");
	stats_wilcoxon(same, same, 1, &ws);
	CHECK(ws.too_few && isnan(ws.p), "one pair: too few");
	struct welch w = { 0 };
	double lo, hi, a[] = { 1, 2, 3 }, b[] = { 2, 3, 4 };
	stats_paired_t(a, b, 3, 0.95, &w, &lo, &hi);
	CHECK(w.p == 0 && isinf(w.t) && lo == 1 && hi == 1, "every pair 1 apart: exact");
	stats_paired_t(a, a, 3, 0.95, &w, &lo, &hi);
	CHECK(w.p == 1 && w.t == 0 && lo == 0, "no pair apart: p 1");
	stats_paired_t(a, b, 1, 0.95, &w, &lo, &hi);
	CHECK(w.too_few && isnan(w.p) && isnan(lo), "one pair: too few");
	CHECK(isnan(stats_t1_mde(1, 0.05, 0.8)), "one value: no MDE");
}

/* The interval of a ratio of means on the log scale: never below 0, and
 * as the delta method of the reference gives it. */
static void test_ratio_ci(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(ratio_refs); i++) {
		const struct ratio_ref *r = &ratio_refs[i];
		double lo, hi;
		if (r->paired)
			stats_ratio_ci_paired(r->a, r->b, r->na, 0.95, &lo, &hi);
		else
			stats_ratio_ci(r->a, r->na, r->b, r->nb, 0.95, &lo, &hi);
		CHECK_NEAR(lo, r->lo, 1e-9 * r->lo, "%s%s: ratio interval low", r->name, r->paired ? " (paired)" : "");
		CHECK_NEAR(hi, r->hi, 1e-9 * r->hi, "%s%s: ratio interval high", r->name, r->paired ? " (paired)" : "");
	}
	double lo, hi, a[] = { 1, 2, 3 }, z[] = { 0, 2, 3 };
	stats_ratio_ci(a, 3, z, 3, 0.95, &lo, &hi);
	CHECK(isnan(lo) && isnan(hi), "a value of 0: no log-scale interval");
	stats_ratio_ci_paired(a, a, 1, 0.95, &lo, &hi);
	CHECK(isnan(lo) && isnan(hi), "one pair: none");
	double t[] = { 100, 160, 60, 140, 90 }, u[] = { 20, 21, 19, 20, 20 };
	stats_ratio_ci(t, 5, u, 5, 0.95, &lo, &hi);
	CHECK(lo > 0 && hi < 1, "a time down 82%% at a CV of 36%%: an interval above -100%% (%g - %g)", lo, hi);
}

int main(void)
{
	test_ratio_ci();
	test_mde();
	test_paired();
	test_welch_ci();
	test_mwu();
	test_bh();
	test_bootstrap();
	T_DONE();
}
