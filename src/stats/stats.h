/* Summaries of a metric's iterations and Welch's t-test between two runs.
 *
 * A metric says how its iterations combine: times and sizes by arithmetic
 * mean, rates by harmonic mean (the mean of a rate over equal amounts of
 * work).  The spread (stddev, coefficient of variation, min, max) is always
 * that of the raw values, as mmtests reports it.
 *
 * Significance is Welch's unequal-variance t-test on the raw iteration
 * values, with the t distribution's tail from GSL.  It needs at least two
 * iterations on each side; with fewer there is nothing to say and the test
 * reports `too_few` instead of a p-value.  Nothing here prints. */
#ifndef VMR_STATS_H
#define VMR_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

struct stats_summary {
	size_t n;
	double mean;     /* amean or hmean, by the metric's combine rule */
	double amean;    /* always the arithmetic mean (the t-test's) */
	double stddev;   /* sample standard deviation (n-1); 0 when n < 2 */
	double cv;       /* stddev / mean as a fraction; 0 when mean is 0 */
	double min, max;
};

/* Summarize v[0..n).  n may be 0 (everything 0, mean NAN).  A harmonic mean
 * of values that include 0 is 0; with a negative value it is NAN. */
void stats_summarize(const double *v, size_t n, enum combine c, struct stats_summary *out);
double stats_amean(const double *v, size_t n);
double stats_hmean(const double *v, size_t n);
/* Sample variance (divisor n-1); 0 when n < 2. */
double stats_variance(const double *v, size_t n);

struct welch {
	bool too_few;    /* n < 2 on either side: no test */
	double t;        /* (mean_b - mean_a) / standard error; may be +-INFINITY */
	double df;       /* Welch-Satterthwaite degrees of freedom */
	double p;        /* two-sided p-value */
};

/* Welch's t-test of b against a.  When both sides have zero variance the
 * answer is exact: p = 1 for equal means, p = 0 otherwise (t infinite). */
void stats_welch(const double *a, size_t na, const double *b, size_t nb, struct welch *out);
/* Welch's test from summary numbers (arithmetic means, sample variances). */
void stats_welch_summary(double ma, double va, size_t na, double mb, double vb, size_t nb,
			 struct welch *out);

/* The two-sided confidence interval, at level (0.95), of mean_b - mean_a
 * by Welch: the difference -+ t(df, (1+level)/2) times its standard error.
 * Both NAN when n < 2 on a side; the difference itself when both sides are
 * constant. */
void stats_welch_ci(double ma, double va, size_t na, double mb, double vb, size_t nb, double level,
		    double *lo, double *hi);

/* The paired t-test of b against a, pair i being (a[i], b[i]), two-sided
 * (scipy's ttest_rel(b, a)): t of the mean difference b - a over its
 * standard error, df n - 1; and the confidence interval, at level, of the
 * mean difference.  too_few when n < 2; when every pair differs by the
 * same amount the answer is exact (p 1 for none, 0 otherwise). */
void stats_paired_t(const double *a, const double *b, size_t n, double level, struct welch *out, double *lo,
		    double *hi);

/* The two-sided confidence interval, at level, of the ratio mean_b / mean_a
 * of positive values, on the log scale: log(mean_b / mean_a) -+ t times its
 * standard error by the delta method, sqrt(var_a / (na mean_a^2) + var_b /
 * (nb mean_b^2)), df by Welch-Satterthwaite on those two terms; then back by
 * exp, so the interval is never below 0 and a time cannot fall by more than
 * 100%.  The paired form takes the pairs' covariance into account: the
 * standard error is that of b[i] / mean_b - a[i] / mean_a, df n - 1.  Both
 * NAN when a side has fewer than 2 values or a value is not above 0; the
 * ratio itself when the spread is 0. */
void stats_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double level, double *lo,
		    double *hi);
void stats_ratio_ci_paired(const double *a, const double *b, size_t n, double level, double *lo, double *hi);

/* The Mann-Whitney U test of a against b, two-sided, as scipy's
 * mannwhitneyu(a, b) computes it: u is U of a (its rank sum less
 * na(na+1)/2, ties at their mid-rank).  Exact (the permutation distribution
 * of U) when no value ties and one side has at most 8 values; otherwise the
 * normal approximation with the tie correction and a continuity
 * correction of 1/2. */
struct mwu {
	bool too_few;    /* n < 2 on either side */
	bool exact;
	double u;
	double p;
};
void stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct mwu *out);
/* The two tails, for the tests: exact and normal-approximation p-values
 * of the same U. */
double stats_mwu_exact_p(double u, size_t na, size_t nb);
double stats_mwu_normal_p(const double *a, size_t na, const double *b, size_t nb, double u);

/* The Wilcoxon signed-rank test of b against a, pair i being (a[i], b[i]),
 * two-sided, as scipy's wilcoxon(b, a) (zero_method "wilcox": pairs that do
 * not differ are dropped; no continuity correction): w is W+, the sum of
 * the mid-ranks of |b - a| over the pairs where b is larger.  Exact (the
 * 2^n sign assignments) when at most 50 pairs differ, none is zero and no
 * magnitudes tie; otherwise the normal approximation with the tie
 * correction (where scipy's exact method would truncate tied ranks).  When
 * no pair differs, p is 1. */
struct wsr {
	bool too_few;    /* fewer than 2 pairs */
	bool exact;
	size_t n;        /* pairs that differ */
	double w;
	double p;
};
void stats_wilcoxon(const double *a, const double *b, size_t n, struct wsr *out);

/* Benjamini-Hochberg: q[i] is the smallest false-discovery rate at which
 * p[i] would be called a discovery among the n tests, min over j with
 * p[j] >= p[i] of p[j] n / rank(j), at most 1.  NAN p-values are not tests:
 * their q is NAN and they do not count in n. */
void stats_bh(const double *p, size_t n, double *q);

/* The median of v[0..n) (the mean of the two middle values when n is
 * even); NAN when n is 0. */
double stats_median(const double *v, size_t n);

/* A percentile bootstrap interval, at level, of median(b) / median(a):
 * nresample resamples of each side with replacement, drawn from a fixed
 * seed so that the same runs always give the same interval.  Both NAN when
 * a side is empty or a resampled base median is 0. */
void stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, double level,
			   size_t nresample, uint64_t seed, double *lo, double *hi);

/* The same interval for pairs (a[i], b[i]): each resample draws n pairs,
 * so that what the pairs share stays in them. */
void stats_bootstrap_ratio_paired(const double *a, const double *b, size_t n, double level, size_t nresample,
				  uint64_t seed, double *lo, double *hi);

/* The power of the two-sided two-sample t-test at level alpha to see an
 * effect of d standard deviations (Cohen's d, pooled) with na and nb
 * values: the noncentral t distribution's two tails beyond the critical
 * value, integrated over the chi-square distribution of the variance (GSL
 * has no noncentral t).  NAN when na + nb < 3. */
double stats_t_power(double d, double na, double nb, double alpha);
/* The smallest d that test sees with the given power (0.8): the minimal
 * detectable effect in standard deviations, as statsmodels'
 * TTestIndPower.solve_power finds it.  NAN when na + nb < 3 or beyond 1e3. */
double stats_t_mde(double na, double nb, double alpha, double power);
/* The same for the one-sample (paired) t-test of n values (differences):
 * df n - 1, noncentrality d sqrt(n), d in standard deviations of the
 * differences; statsmodels' TTestPower.  NAN when n < 2. */
double stats_t1_power(double d, double n, double alpha);
double stats_t1_mde(double n, double alpha, double power);

#endif
