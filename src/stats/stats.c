#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/gsllib.h"

double stats_amean(const double *v, size_t n)
{
	if (!n)
		return NAN;
	/* Kahan summation: iteration counts are small but values can be 1e12 ns. */
	double sum = 0, comp = 0;
	for (size_t i = 0; i < n; i++) {
		double y = v[i] - comp, t = sum + y;
		comp = (t - sum) - y;
		sum = t;
	}
	return sum / (double)n;
}

double stats_hmean(const double *v, size_t n)
{
	if (!n)
		return NAN;
	double inv = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < 0)
			return NAN;
		if (v[i] == 0)
			return 0;
		inv += 1.0 / v[i];
	}
	return (double)n / inv;
}

double stats_variance(const double *v, size_t n)
{
	if (n < 2)
		return 0;
	double m = stats_amean(v, n), ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return ss / (double)(n - 1);
}

void stats_summarize(const double *v, size_t n, enum combine c, struct stats_summary *out)
{
	*out = (struct stats_summary){ .n = n, .mean = NAN, .amean = NAN };
	if (!n)
		return;
	out->amean = stats_amean(v, n);
	out->mean = c == COMBINE_HMEAN ? stats_hmean(v, n) : out->amean;
	out->stddev = sqrt(stats_variance(v, n));
	out->cv = out->mean != 0 && isfinite(out->mean) ? out->stddev / fabs(out->mean) : 0;
	out->min = out->max = v[0];
	for (size_t i = 1; i < n; i++) {
		out->min = fmin(out->min, v[i]);
		out->max = fmax(out->max, v[i]);
	}
}

void stats_welch_summary(double ma, double va, size_t na, double mb, double vb, size_t nb,
			 struct welch *out)
{
	*out = (struct welch){ .too_few = true, .t = NAN, .df = NAN, .p = NAN };
	if (na < 2 || nb < 2)
		return;
	out->too_few = false;
	double sa = va / (double)na, sb = vb / (double)nb, se2 = sa + sb;
	if (se2 == 0) {
		/* Both constant: the means either agree or differ beyond doubt. */
		out->df = (double)(na + nb - 2);
		out->t = ma == mb ? 0 : (mb > ma ? INFINITY : -INFINITY);
		out->p = ma == mb ? 1 : 0;
		return;
	}
	out->t = (mb - ma) / sqrt(se2);
	out->df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	/* Q of |t| doubled; Q is accurate far into the tail where 1-P is not. */
	out->p = fmin(1.0, 2.0 * gsl_cdf_tdist_Q(fabs(out->t), out->df));
}

void stats_welch(const double *a, size_t na, const double *b, size_t nb, struct welch *out)
{
	stats_welch_summary(na ? stats_amean(a, na) : NAN, stats_variance(a, na), na,
			    nb ? stats_amean(b, nb) : NAN, stats_variance(b, nb), nb, out);
}

void stats_paired_t(const double *a, const double *b, size_t n, double level, struct welch *out, double *lo,
		    double *hi)
{
	*out = (struct welch){ .too_few = true, .t = NAN, .df = NAN, .p = NAN };
	*lo = *hi = NAN;
	if (n < 2)
		return;
	double *d = xcalloc(n, sizeof(double));
	for (size_t i = 0; i < n; i++)
		d[i] = b[i] - a[i];
	double md = stats_amean(d, n), se = sqrt(stats_variance(d, n) / (double)n);
	free(d);
	out->too_few = false;
	out->df = (double)(n - 1);
	if (se == 0) {
		/* Every pair differs by the same amount: exact. */
		out->t = md == 0 ? 0 : (md > 0 ? INFINITY : -INFINITY);
		out->p = md == 0 ? 1 : 0;
		*lo = *hi = md;
		return;
	}
	out->t = md / se;
	out->p = fmin(1.0, 2.0 * gsl_cdf_tdist_Q(fabs(out->t), out->df));
	double tq = gsl_cdf_tdist_Qinv((1 - level) / 2, out->df);
	*lo = md - tq * se;
	*hi = md + tq * se;
}

void stats_welch_ci(double ma, double va, size_t na, double mb, double vb, size_t nb, double level,
		    double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (na < 2 || nb < 2)
		return;
	double sa = va / (double)na, sb = vb / (double)nb, se2 = sa + sb, d = mb - ma;
	if (se2 == 0) {
		*lo = *hi = d;
		return;
	}
	double df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	double half = gsl_cdf_tdist_Qinv((1 - level) / 2, df) * sqrt(se2);
	*lo = d - half;
	*hi = d + half;
}

static bool stats_all_positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(v[i] > 0) || !isfinite(v[i]))
			return false;
	return true;
}

/* The ratio mb / ma times exp(-+ t se), or the ratio when se is 0. */
static void stats_ratio_ci_log(double ma, double mb, double se, double df, double level, double *lo, double *hi)
{
	double r = mb / ma, half = se > 0 ? gsl_cdf_tdist_Qinv((1 - level) / 2, df) * se : 0;
	*lo = r * exp(-half);
	*hi = r * exp(half);
}

void stats_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double level, double *lo,
		    double *hi)
{
	*lo = *hi = NAN;
	if (na < 2 || nb < 2 || !stats_all_positive(a, na) || !stats_all_positive(b, nb))
		return;
	double ma = stats_amean(a, na), mb = stats_amean(b, nb);
	double sa = stats_variance(a, na) / ((double)na * ma * ma), sb = stats_variance(b, nb) / ((double)nb * mb * mb);
	double se2 = sa + sb;
	double df = se2 > 0 ? se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1)) : 1;
	stats_ratio_ci_log(ma, mb, sqrt(se2), df, level, lo, hi);
}

void stats_ratio_ci_paired(const double *a, const double *b, size_t n, double level, double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (n < 2 || !stats_all_positive(a, n) || !stats_all_positive(b, n))
		return;
	double ma = stats_amean(a, n), mb = stats_amean(b, n);
	double *z = xcalloc(n, sizeof(double));
	for (size_t i = 0; i < n; i++)
		z[i] = b[i] / mb - a[i] / ma;
	double se = sqrt(stats_variance(z, n) / (double)n);
	free(z);
	stats_ratio_ci_log(ma, mb, se, (double)(n - 1), level, lo, hi);
}

static int stats_cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Mid-ranks of a and b pooled; returns the rank sum of a and, in *ties,
 * the sum of t^3 - t over groups of t equal values. */
static double stats_rank_sum(const double *a, size_t na, const double *b, size_t nb, double *ties)
{
	size_t n = na + nb;
	double *all = xcalloc(n, sizeof(double));
	memcpy(all, a, na * sizeof(double));
	memcpy(all + na, b, nb * sizeof(double));
	qsort(all, n, sizeof(double), stats_cmp_double);
	double r = 0;
	*ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && all[j] == all[i])
			j++;
		double t = (double)(j - i), mid = (double)(i + j + 1) / 2; /* ranks i+1..j */
		*ties += t * t * t - t;
		for (size_t k = 0; k < na; k++)
			r += a[k] == all[i] ? mid : 0;
		i = j;
	}
	free(all);
	return r;
}

/* P(U >= u) under the null, from the count of rank arrangements giving
 * each U: choosing pooled item i (1-based) as the k-th of a's adds i - k
 * (the b items before it) to U. */
double stats_mwu_exact_p(double u, size_t na, size_t nb)
{
	size_t umax = na * nb, w = umax + 1;
	double *cnt = xcalloc((na + 1) * w, sizeof(double));
	cnt[0] = 1;
	for (size_t i = 1; i <= na + nb; i++)
		for (size_t k = i < na ? i : na; k >= 1; k--) {
			size_t add = i - k;
			if (add > nb)
				continue;
			for (size_t s = umax; s + 1 > add; s--)
				cnt[k * w + s] += cnt[(k - 1) * w + s - add];
		}
	double total = 0, tail = 0, hi = fmax(u, (double)umax - u);
	for (size_t s = 0; s <= umax; s++) {
		total += cnt[na * w + s];
		tail += (double)s >= hi ? cnt[na * w + s] : 0;
	}
	free(cnt);
	return fmin(1, 2 * tail / total);
}

double stats_mwu_normal_p(const double *a, size_t na, const double *b, size_t nb, double u)
{
	double ties, n = (double)(na + nb), nn = (double)na * (double)nb;
	stats_rank_sum(a, na, b, nb, &ties);
	double s = sqrt(nn / 12 * ((n + 1) - ties / (n * (n - 1))));
	double z = (fmax(u, nn - u) - nn / 2 - 0.5) / s;
	if (s == 0)
		return 1;
	return fmin(1, 2 * gsl_cdf_ugaussian_Q(z));
}

void stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct mwu *out)
{
	*out = (struct mwu){ .too_few = true, .u = NAN, .p = NAN };
	if (na < 2 || nb < 2)
		return;
	double ties;
	out->too_few = false;
	out->u = stats_rank_sum(a, na, b, nb, &ties) - (double)na * (double)(na + 1) / 2;
	out->exact = ties == 0 && (na <= 8 || nb <= 8);
	out->p = out->exact ? stats_mwu_exact_p(out->u, na, nb) : stats_mwu_normal_p(a, na, b, nb, out->u);
}

/* P(W+ <= w) and P(W+ >= w) for n non-zero differences with distinct
 * magnitudes: each of the 2^n sign assignments equally likely, counted by
 * the rank sum of the positive ones. */
static double stats_wsr_exact_p(double w, size_t n)
{
	size_t max = n * (n + 1) / 2;
	double *cnt = xcalloc(max + 1, sizeof(double)), below = 0, above = 0, total = 0;
	cnt[0] = 1;
	for (size_t r = 1; r <= n; r++)
		for (size_t s = max; s + 1 > r; s--)
			cnt[s] += cnt[s - r];
	for (size_t s = 0; s <= max; s++) {
		total += cnt[s];
		below += (double)s <= w ? cnt[s] : 0;
		above += (double)s >= w ? cnt[s] : 0;
	}
	free(cnt);
	return fmin(1, 2 * fmin(below, above) / total);
}

void stats_wilcoxon(const double *a, const double *b, size_t n, struct wsr *out)
{
	*out = (struct wsr){ .too_few = true, .w = NAN, .p = NAN };
	if (n < 2)
		return;
	out->too_few = false;
	double *d = xcalloc(n, sizeof(double));
	size_t m = 0, zeros = 0;
	for (size_t i = 0; i < n; i++) {
		double x = b[i] - a[i];
		if (x == 0)
			zeros++;
		else
			d[m++] = x;
	}
	out->n = m;
	if (!m) {
		/* No pair differs: no change, beyond doubt. */
		out->w = 0;
		out->p = 1;
		free(d);
		return;
	}
	double *mag = xcalloc(m, sizeof(double)), ties = 0, wplus = 0;
	for (size_t i = 0; i < m; i++)
		mag[i] = fabs(d[i]);
	qsort(mag, m, sizeof(double), stats_cmp_double);
	/* Mid-ranks of the magnitudes: W+ sums those of the positive ones. */
	for (size_t i = 0; i < m;) {
		size_t j = i;
		while (j < m && mag[j] == mag[i])
			j++;
		double t = (double)(j - i), mid = (double)(i + j + 1) / 2;
		ties += t * t * t - t;
		for (size_t k = 0; k < m; k++)
			wplus += d[k] > 0 && fabs(d[k]) == mag[i] ? mid : 0;
		i = j;
	}
	free(mag);
	free(d);
	out->w = wplus;
	out->exact = m <= 50 && !zeros && ties == 0;
	if (out->exact) {
		out->p = stats_wsr_exact_p(wplus, m);
		return;
	}
	double nn = (double)m, mean = nn * (nn + 1) / 4;
	double var = nn * (nn + 1) * (2 * nn + 1) / 24 - ties / 48;
	double wmin = fmin(wplus, nn * (nn + 1) / 2 - wplus);
	out->p = var > 0 ? fmin(1, 2 * gsl_cdf_ugaussian_Q(fabs(wmin - mean) / sqrt(var))) : 1;
}

struct stats_pi {
	double p;
	size_t i;
};

static int stats_cmp_pi(const void *x, const void *y)
{
	const struct stats_pi *a = x, *b = y;
	return (a->p > b->p) - (a->p < b->p);
}

void stats_bh(const double *p, size_t n, double *q)
{
	struct stats_pi *s = xcalloc(n + 1, sizeof(*s));
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			s[m++] = (struct stats_pi){ .p = p[i], .i = i };
	}
	qsort(s, m, sizeof(*s), stats_cmp_pi);
	double run = 1;
	for (size_t k = m; k-- > 0;) {
		run = fmin(run, s[k].p * (double)m / (double)(k + 1));
		q[s[k].i] = run;
	}
	free(s);
}

double stats_median(const double *v, size_t n)
{
	if (!n)
		return NAN;
	double *c = xcalloc(n, sizeof(double));
	memcpy(c, v, n * sizeof(double));
	qsort(c, n, sizeof(double), stats_cmp_double);
	double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

/* splitmix64: small, fast and the same on every machine. */
static uint64_t stats_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The medians of resamples of n values, each drawn as indices into them,
 * without sorting every resample: the values' order is found once, and a
 * resample is a count of the draws of each place in that order, whose
 * middle places are its median (the value stats_median gives the same
 * draws: equal doubles are one value, but for 0 and -0, with which the
 * resample is sorted instead). */
struct stats_resampler {
	const double *v;
	size_t n;
	size_t *rank;     /* rank[j]: the place of v[j] in v's order */
	double *sorted;   /* v in order */
	size_t *count;    /* draws of each place in this resample */
	double *tmp;      /* the draws, where they are sorted */
	bool sort;        /* v holds both 0 and -0 */
};

static int stats_cmp_index(const void *x, const void *y, void *values)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	double a = ((const double *)values)[i], b = ((const double *)values)[j];
	return a < b ? -1 : a > b ? 1 : (i > j) - (i < j);
}

static void stats_resampler_init(struct stats_resampler *rs, const double *v, size_t n)
{
	size_t *order = xcalloc(n + 1, sizeof(size_t));
	*rs = (struct stats_resampler){ .v = v, .n = n, .rank = xcalloc(n + 1, sizeof(size_t)),
					.sorted = xcalloc(n + 1, sizeof(double)), .count = xcalloc(n + 1, sizeof(size_t)),
					.tmp = xcalloc(n + 1, sizeof(double)) };
	bool pos0 = false, neg0 = false;
	for (size_t i = 0; i < n; i++) {
		order[i] = i;
		pos0 |= v[i] == 0 && !signbit(v[i]);
		neg0 |= v[i] == 0 && signbit(v[i]);
	}
	rs->sort = pos0 && neg0;
	qsort_r(order, n, sizeof(size_t), stats_cmp_index, (void *)v);
	for (size_t k = 0; k < n; k++) {
		rs->rank[order[k]] = k;
		rs->sorted[k] = v[order[k]];
	}
	free(order);
}

static void stats_resampler_free(struct stats_resampler *rs)
{
	free(rs->rank);
	free(rs->sorted);
	free(rs->count);
	free(rs->tmp);
}

/* Draw j (an index into v) into the resample being made. */
static void stats_resampler_draw(struct stats_resampler *rs, size_t i, size_t j)
{
	if (rs->sort)
		rs->tmp[i] = rs->v[j];
	else
		rs->count[rs->rank[j]]++;
}

/* The median of the n draws made, and a fresh resample after it. */
static double stats_resampler_median(struct stats_resampler *rs)
{
	size_t n = rs->n;
	if (rs->sort)
		return stats_median(rs->tmp, n);
	size_t lo = n % 2 ? n / 2 : n / 2 - 1, hi = n / 2, seen = 0;
	double a = NAN, b = NAN;
	for (size_t k = 0; k < n && seen <= hi; k++) {
		size_t c = rs->count[k];
		if (c && seen <= lo && lo < seen + c)
			a = rs->sorted[k];
		if (c && seen <= hi && hi < seen + c)
			b = rs->sorted[k];
		seen += c;
	}
	memset(rs->count, 0, n * sizeof(size_t));
	return n % 2 ? b : (a + b) / 2;
}

static double stats_resampled_median(struct stats_resampler *rs, uint64_t *seed)
{
	for (size_t i = 0; i < rs->n; i++)
		stats_resampler_draw(rs, i, stats_next(seed) % rs->n);
	return stats_resampler_median(rs);
}

/* The (1-level)/2 and (1+level)/2 quantiles of n resampled ratios,
 * nearest rank (sorts them). */
static void stats_percentile_interval(double *ratios, size_t n, double level, double *lo, double *hi)
{
	qsort(ratios, n, sizeof(double), stats_cmp_double);
	size_t ilo = (size_t)floor((1 - level) / 2 * (double)(n - 1) + 0.5);
	size_t ihi = (size_t)floor((1 + level) / 2 * (double)(n - 1) + 0.5);
	*lo = ratios[ilo];
	*hi = ratios[ihi];
}

void stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb, double level,
			   size_t nresample, uint64_t seed, double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (!na || !nb || !nresample)
		return;
	double *ratios = xcalloc(nresample, sizeof(double));
	struct stats_resampler ra, rb;
	stats_resampler_init(&ra, a, na);
	stats_resampler_init(&rb, b, nb);
	for (size_t k = 0; k < nresample; k++) {
		double ma = stats_resampled_median(&ra, &seed);
		double mb = stats_resampled_median(&rb, &seed);
		if (ma == 0)
			goto free_tmp;
		ratios[k] = mb / ma;
	}
	stats_percentile_interval(ratios, nresample, level, lo, hi);
free_tmp:
	stats_resampler_free(&ra);
	stats_resampler_free(&rb);
	free(ratios);
}

void stats_bootstrap_ratio_paired(const double *a, const double *b, size_t n, double level, size_t nresample,
				  uint64_t seed, double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (!n || !nresample)
		return;
	double *ratios = xcalloc(nresample, sizeof(double));
	struct stats_resampler ra, rb;
	stats_resampler_init(&ra, a, n);
	stats_resampler_init(&rb, b, n);
	for (size_t k = 0; k < nresample; k++) {
		for (size_t i = 0; i < n; i++) {
			size_t j = stats_next(&seed) % n;
			stats_resampler_draw(&ra, i, j);
			stats_resampler_draw(&rb, i, j);
		}
		double ma = stats_resampler_median(&ra);
		double mb = stats_resampler_median(&rb);
		if (ma == 0)
			goto free_tmp;
		ratios[k] = mb / ma;
	}
	stats_percentile_interval(ratios, nresample, level, lo, hi);
free_tmp:
	stats_resampler_free(&ra);
	stats_resampler_free(&rb);
	free(ratios);
}

struct stats_nct {
	double t, delta, df;
};

/* P(Z > t sqrt(v/df) - delta) + P(Z < -t sqrt(v/df) - delta), weighted by
 * the chi-square density of v: the noncentral t's two tails. */
static double stats_nct_tails(double v, void *arg)
{
	const struct stats_nct *a = arg;
	double s = a->t * sqrt(v / a->df);
	return (gsl_cdf_ugaussian_Q(s - a->delta) + gsl_cdf_ugaussian_P(-s - a->delta)) *
	       gsl_ran_chisq_pdf(v, a->df);
}

/* The power of a two-sided t-test at level alpha with df degrees of
 * freedom against noncentrality delta.  The chi-square density is
 * integrated where its mass is, df -+ 14 standard deviations (sqrt(2 df))
 * and 60 more on the right for small df: beyond that it is under 1e-40 of
 * the whole, and an integral over [0, inf) misses the narrow peak of a
 * large df altogether (hundreds of iterations gave a power of 0). */
static double stats_nct_power(double df, double delta, double alpha)
{
	struct stats_nct a = { .df = df, .delta = delta };
	a.t = gsl_cdf_tdist_Qinv(alpha / 2, a.df);
	gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
	gsl_function f = { .function = stats_nct_tails, .params = &a };
	double r = NAN, err, sd = sqrt(2 * df);
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	if (gsl_integration_qags(&f, fmax(0, df - 14 * sd), df + 14 * sd + 60, 1e-14, 1e-12, 1000, w, &r, &err))
		r = NAN;
	gsl_set_error_handler(old);
	gsl_integration_workspace_free(w);
	return r;
}

double stats_t_power(double d, double na, double nb, double alpha)
{
	if (na + nb < 3 || na <= 0 || nb <= 0)
		return NAN;
	return stats_nct_power(na + nb - 2, d * sqrt(na * nb / (na + nb)), alpha);
}

double stats_t1_power(double d, double n, double alpha)
{
	if (n < 2)
		return NAN;
	return stats_nct_power(n - 1, d * sqrt(n), alpha);
}

/* The power of the two-sample test (na, nb values), or of the one-sample
 * test of nb values when na < 0. */
static double stats_power_of(double d, double na, double nb, double alpha)
{
	return na < 0 ? stats_t1_power(d, nb, alpha) : stats_t_power(d, na, nb, alpha);
}

/* The smallest d at which that test reaches the given power: doubling to
 * bracket it, then bisection to the double's resolution (power rises with
 * d). */
static double stats_mde_of(double na, double nb, double alpha, double power)
{
	double lo = 0, hi = 1;
	if (isnan(stats_power_of(1, na, nb, alpha)))
		return NAN;
	while (stats_power_of(hi, na, nb, alpha) < power) {
		lo = hi;
		hi *= 2;
		if (hi > 1e3)
			return NAN;
	}
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (stats_power_of(mid, na, nb, alpha) < power)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_t_mde(double na, double nb, double alpha, double power)
{
	return stats_mde_of(na, nb, alpha, power);
}

double stats_t1_mde(double n, double alpha, double power)
{
	return stats_mde_of(-1, n, alpha, power);
}
