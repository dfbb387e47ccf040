/* Summaries and Welch's t-test.  The reference values come from
 * tests/unit/welch_ref.py, which evaluates the t distribution through the
 * regularized incomplete beta function in plain Python, independently of
 * GSL: the two must agree to 1e-9. */
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "stats/stats.h"
#include "t.h"

struct welch_ref {
	const char *name;
	double a[8];
	size_t na;
	double b[8];
	size_t nb;
	double t, df, p;
};

/* Output of welch_ref.py, pasted. */
static const struct welch_ref refs[] = {
	{ "ramp vs double ramp", { 1.0, 2.0, 3.0, 4.0, 5.0 }, 5, { 2.0, 4.0, 6.0, 8.0, 10.0 }, 5, 1.8973665961010275, 5.882352941176471, 0.10753119493062718 },
	{ "equal means", { 1.0, 2.0, 3.0 }, 3, { 3.0, 2.0, 1.0 }, 3, 0.0, 4.0, 1.0 },
	{ "one side constant", { 5.0, 5.0, 5.0, 5.0 }, 4, { 4.8, 6.0, 5.5, 4.5 }, 4, 0.5897678246195891, 3.0, 0.596819348637482 },
	{ "fault times ns", { 1234500000.0, 1240100000.0, 1229800000.0, 1236000000.0, 1231700000.0 }, 5, { 1010200000.0, 1015900000.0, 1003300000.0, 1012800000.0, 1008100000.0, 1011000000.0, 1006400000.0 }, 7, -94.46070824126507, 9.026025876219814, 7.832224577542515e-15 },
	{ "not significant", { 10.1, 9.7, 10.4, 10.0 }, 4, { 10.3, 9.9, 10.6, 9.8, 10.2 }, 5, 0.5404029961335202, 6.845910602775492, 0.6060444904524778 },
	{ "far tail", { 100.0, 100.1, 99.9, 100.05, 99.95, 100.02 }, 6, { 101.0, 101.1, 100.9, 101.05, 100.95, 101.02 }, 6, 24.333213169615806, 10.0, 3.1315962287556875e-10 },
	{ "two each", { 3.0, 4.0 }, 2, { 7.0, 9.0 }, 2, 4.024922359499621, 1.4705882352941178, 0.09171033896595439 },
};

static void test_refs(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(refs); i++) {
		const struct welch_ref *r = &refs[i];
		struct welch w = { 0 };
		stats_welch(r->a, r->na, r->b, r->nb, &w);
		CHECK(!w.too_few, "%s: enough iterations", r->name);
		CHECK_NEAR(w.t, r->t, 1e-9 * fmax(1, fabs(r->t)), "%s: t", r->name);
		CHECK_NEAR(w.df, r->df, 1e-9 * fmax(1, r->df), "%s: df", r->name);
		CHECK_NEAR(w.p, r->p, 1e-9, "%s: p", r->name);
		/* Far-tail p-values must also be right relative to their size. */
		CHECK_NEAR(w.p, r->p, 1e-6 * r->p + 1e-300, "%s: p relative", r->name);
	}
}

static void test_edges(void)
{
	struct welch w = { 0 };
	double five[] = { 5, 5, 5 }, six[] = { 6, 6, 6 }, one[] = { 1 }, two[] = { 1, 2 };
	stats_welch(five, 3, five, 3, &w);
	CHECK(!w.too_few && w.t == 0 && w.p == 1, "zero variance, equal means: p = 1");
	stats_welch(five, 3, six, 3, &w);
	CHECK(!w.too_few && isinf(w.t) && w.t > 0 && w.p == 0, "zero variance, different means: p = 0");
	stats_welch(six, 3, five, 3, &w);
	CHECK(isinf(w.t) && w.t < 0, "t is negative when b is smaller");
	stats_welch(one, 1, two, 2, &w);
	CHECK(w.too_few && isnan(w.p), "one iteration on one side: too few");
	stats_welch(two, 2, one, 1, &w);
	CHECK(w.too_few, "one iteration on the other side: too few");
	stats_welch(one, 0, two, 2, &w);
	CHECK(w.too_few, "no iterations: too few");
}

static void test_summaries(void)
{
	struct stats_summary s = { 0 };
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	stats_summarize(v, 8, COMBINE_AMEAN, &s);
	CHECK_NEAR(s.mean, 5, 1e-12, "amean");
	CHECK_NEAR(s.stddev, sqrt(32.0 / 7), 1e-12, "sample stddev");
	CHECK_NEAR(s.cv, sqrt(32.0 / 7) / 5, 1e-12, "coefficient of variation");
	CHECK(s.min == 2 && s.max == 9 && s.n == 8, "min, max, n");
	double rates[] = { 40, 60 };
	stats_summarize(rates, 2, COMBINE_HMEAN, &s);
	CHECK_NEAR(s.mean, 48, 1e-12, "hmean of 40 and 60 is 48");
	CHECK_NEAR(s.amean, 50, 1e-12, "amean kept beside hmean");
	double zero[] = { 10, 0 }, neg[] = { 10, -1 };
	CHECK(stats_hmean(zero, 2) == 0, "hmean with a zero rate is 0");
	CHECK(isnan(stats_hmean(neg, 2)), "hmean with a negative value is undefined");
	double single[] = { 42 };
	stats_summarize(single, 1, COMBINE_AMEAN, &s);
	CHECK(s.mean == 42 && s.stddev == 0 && s.cv == 0, "one iteration: no spread");
	stats_summarize(NULL, 0, COMBINE_AMEAN, &s);
	CHECK(s.n == 0 && isnan(s.mean), "no iterations: mean undefined");
	double big[] = { 1e12 + 1, 1e12 + 2, 1e12 + 3 };
	CHECK_NEAR(stats_variance(big, 3), 1, 1e-6, "variance of large values keeps precision");
}

/* The bootstrap as it was written first: every resample sorted for its
 * median (stats_median), the same splitmix64 draws.  stats.c takes the
 * medians by counting draws instead; the intervals must be the same
 * doubles, ties, even counts and both zeros included. */
static uint64_t ref_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double ref_resampled_median(const double *v, size_t n, double *tmp, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = v[ref_next(seed) % n];
	return stats_median(tmp, n);
}

static int ref_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

static void ref_interval(double *r, size_t n, double *lo, double *hi)
{
	qsort(r, n, sizeof(double), ref_cmp);
	*lo = r[(size_t)floor(0.025 * (double)(n - 1) + 0.5)];
	*hi = r[(size_t)floor(0.975 * (double)(n - 1) + 0.5)];
}

static void ref_bootstrap(const double *a, size_t na, const double *b, size_t nb, bool paired, double *lo,
			  double *hi)
{
	uint64_t seed = 0x766d72656772ULL;
	double r[500], *ta = xcalloc(na + nb, sizeof(double)), *tb = xcalloc(na + nb, sizeof(double));
	*lo = *hi = NAN;
	for (size_t k = 0; k < 500; k++) {
		double ma, mb;
		if (paired) {
			for (size_t i = 0; i < na; i++) {
				size_t j = ref_next(&seed) % na;
				ta[i] = a[j];
				tb[i] = b[j];
			}
			ma = stats_median(ta, na);
			mb = stats_median(tb, na);
		} else {
			ma = ref_resampled_median(a, na, ta, &seed);
			mb = ref_resampled_median(b, nb, tb, &seed);
		}
		if (ma == 0)
			goto out;
		r[k] = mb / ma;
	}
	ref_interval(r, 500, lo, hi);
out:
	free(ta);
	free(tb);
}

static void test_bootstrap_counts(void)
{
	static const double a[] = { 5, 3, 3, 9, 1, 7, 7, 7, 2, 8, 4, 6 }, b[] = { 6, 2, 9, 9, 3, 1, 8, 5, 4, 4, 10, 7 };
	static const double z[] = { 0.0, -0.0, 1, 2, -0.0, 3, 0.0, 4 };
	for (size_t n = 3; n <= ARRAY_SIZE(a); n++) {
		double lo, hi, rlo, rhi;
		stats_bootstrap_ratio(a, n, b, n - 1, 0.95, 500, 0x766d72656772ULL, &lo, &hi);
		ref_bootstrap(a, n, b, n - 1, false, &rlo, &rhi);
		CHECK(lo == rlo && hi == rhi, "bootstrap of %zu and %zu values as by sorting (%g %g, %g %g)", n, n - 1,
		      lo, hi, rlo, rhi);
		stats_bootstrap_ratio_paired(a, b, n, 0.95, 500, 0x766d72656772ULL, &lo, &hi);
		ref_bootstrap(a, n, b, n, true, &rlo, &rhi);
		CHECK(lo == rlo && hi == rhi, "paired bootstrap of %zu pairs as by sorting", n);
	}
	double lo, hi, rlo, rhi;
	stats_bootstrap_ratio(b, 8, z, 8, 0.95, 500, 0x766d72656772ULL, &lo, &hi);
	ref_bootstrap(b, 8, z, 8, false, &rlo, &rhi);
	CHECK(lo == rlo && hi == rhi && signbit(lo) == signbit(rlo) && signbit(hi) == signbit(rhi),
	      "zeros of both signs as by sorting");
}

int main(void)
{
	test_bootstrap_counts();
	test_refs();
	test_edges();
	test_summaries();
	T_DONE();
}
