#include "stats/stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

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
