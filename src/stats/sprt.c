/* The sequential test of a bisection step: see sprt.h. */
#include "stats/sprt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/gsllib.h"
#include "stats/stats.h"

/* The standard normal's upper quantile: Q(z) = p, by bisection (GSL's
 * inverse is not among the functions loaded). */
static double sprt_z(double p)
{
	double lo = -40, hi = 40;

	for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = (lo + hi) / 2;
		if (gsl_cdf_ugaussian_Q(mid) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The chi-square's lower p quantile with df degrees of freedom, by
 * Wilson and Hilferty's cube-root normal approximation (within 1% from
 * df 3 on, where the bisection's references are). */
static double sprt_chisq_lower(double p, double df)
{
	double c = 2 / (9 * df), x = 1 - c - sprt_z(p) * sqrt(c);

	return x > 0 ? df * x * x * x : 0;
}

static double sprt_tested(enum sprt_kind kind, double x)
{
	return kind == SPRT_RECIPROCALS ? 1 / x : x;
}

/* The values on the tested scale; -1 when a reciprocal cannot be taken. */
static int sprt_transform(enum sprt_kind kind, const double *v, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		if (kind == SPRT_RECIPROCALS && !(v[i] > 0))
			return -1;
		out[i] = sprt_tested(kind, v[i]);
	}
	return 0;
}

static void sprt_thresholds(struct sprt *s)
{
	s->upper = log((1 - s->alpha) / s->alpha);
	s->lower = -s->upper;
}

/* Means: each reference's mean moved by its one-sided (1 - a/3) t bound
 * towards the other, and the pooled standard deviation's upper (1 - a/3)
 * bound. */
static int sprt_init_means(struct sprt *s, const double *g, size_t ng, const double *b, size_t nb, char *why,
			   size_t whylen)
{
	double mg = stats_amean(g, ng), mb = stats_amean(b, nb);
	double vg = stats_variance(g, ng), vb = stats_variance(b, nb), a3 = s->alpha / 3;
	double df = (double)(ng + nb - 2), sp2 = ((double)(ng - 1) * vg + (double)(nb - 1) * vb) / df;

	s->sign = mb >= mg ? 1 : -1;
	mg *= s->sign;
	mb *= s->sign;
	s->mu_good = mg + gsl_cdf_tdist_Qinv(a3, (double)(ng - 1)) * sqrt(vg / (double)ng);
	s->mu_bad = mb - gsl_cdf_tdist_Qinv(a3, (double)(nb - 1)) * sqrt(vb / (double)nb);
	if (!(s->mu_bad > s->mu_good)) {
		snprintf(why, whylen,
			 "the references are too close to tell apart at alpha %g with %zu and %zu iterations "
			 "(their means' bounds overlap)", s->alpha, ng, nb);
		return -1;
	}
	double chi = sprt_chisq_lower(a3, df);
	s->sigma = chi > 0 ? sqrt(sp2 * df / chi) : INFINITY;
	/* Constant references (a counter that never varies in the guest):
	 * a floor keeps the ratio finite; one iteration still decides. */
	if (s->sigma < (s->mu_bad - s->mu_good) / 8)
		s->sigma = (s->mu_bad - s->mu_good) / 8;
	return 0;
}

/* The Wilson score interval's end for k successes of n at the normal
 * quantile z, upper or lower. */
static double sprt_wilson(double k, double n, double z, bool upper)
{
	double p = k / n, z2 = z * z;
	double centre = p + z2 / (2 * n), half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n));

	return (upper ? centre + half : centre - half) / (1 + z2 / n);
}

static size_t sprt_beyond(const double *v, size_t n, double sign, double cut)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += sign * v[i] > cut;
	return k;
}

static int sprt_init_ranks(struct sprt *s, const double *g, size_t ng, const double *b, size_t nb, char *why,
			   size_t whylen)
{
	double medg = stats_median(g, ng), medb = stats_median(b, nb), z = sprt_z(s->alpha / 2);

	s->sign = medb >= medg ? 1 : -1;
	s->cut = s->sign * (medg + medb) / 2;
	s->p_good = sprt_wilson((double)sprt_beyond(g, ng, s->sign, s->cut), (double)ng, z, true);
	s->p_bad = sprt_wilson((double)sprt_beyond(b, nb, s->sign, s->cut), (double)nb, z, false);
	if (!(s->p_bad > s->p_good)) {
		snprintf(why, whylen,
			 "the references' ranks are too close to tell apart at alpha %g with %zu and %zu iterations "
			 "(beyond their medians' midpoint: at most %.2f of good, at least %.2f of bad)",
			 s->alpha, ng, nb, s->p_good, s->p_bad);
		return -1;
	}
	return 0;
}

int sprt_init(struct sprt *s, enum sprt_kind kind, double alpha, const double *good, size_t ng,
	      const double *bad, size_t nb, char *why, size_t whylen)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->alpha = alpha;
	if (!(alpha > 0 && alpha < 0.5)) {
		snprintf(why, whylen, "alpha %g is not between 0 and 0.5", alpha);
		return -1;
	}
	if (ng < 2 || nb < 2) {
		snprintf(why, whylen, "too few reference iterations (%zu good, %zu bad; two or more each)", ng, nb);
		return -1;
	}
	sprt_thresholds(s);
	double *g = xcalloc(ng, sizeof(*g)), *b = xcalloc(nb, sizeof(*b));
	int r = -1;
	if (sprt_transform(kind, good, ng, g) < 0 || sprt_transform(kind, bad, nb, b) < 0)
		snprintf(why, whylen, "a rate of zero or less has no reciprocal");
	else if (kind == SPRT_RANKS)
		r = sprt_init_ranks(s, g, ng, b, nb, why, whylen);
	else
		r = sprt_init_means(s, g, ng, b, nb, why, whylen);
	free(g);
	free(b);
	return r;
}

static double sprt_increment(const struct sprt *s, double x)
{
	double y = s->sign * sprt_tested(s->kind, x);

	if (s->kind == SPRT_RANKS)
		return y > s->cut ? log(s->p_bad / s->p_good) : log((1 - s->p_bad) / (1 - s->p_good));
	double d = s->mu_bad - s->mu_good;
	return d / (s->sigma * s->sigma) * (y - (s->mu_good + s->mu_bad) / 2);
}

enum sprt_decision sprt_add(struct sprt *s, double x)
{
	if (s->decision != SPRT_UNDECIDED)
		return s->decision;
	if (s->kind == SPRT_RECIPROCALS && !(x > 0))
		return s->decision;  /* no reciprocal: not an observation */
	s->n++;
	s->llr += sprt_increment(s, x);
	if (s->llr >= s->upper)
		s->decision = SPRT_BAD;
	else if (s->llr <= s->lower)
		s->decision = SPRT_GOOD;
	return s->decision;
}

const char *sprt_decision_name(enum sprt_decision d)
{
	return d == SPRT_GOOD ? "good" : d == SPRT_BAD ? "bad" : "undecided";
}

static int sprt_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void sprt_figure_ranks(const double *v, size_t n, double *centre, double *lo, double *hi)
{
	double *s = xcalloc(n, sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), sprt_cmp);
	*centre = stats_median(s, n);
	double half = 1.96 * sqrt((double)n) / 2;
	long j = (long)floor((double)n / 2 - half), k = (long)ceil((double)n / 2 + half);
	*lo = s[j < 0 ? 0 : j];
	*hi = s[k > (long)n - 1 ? (long)n - 1 : k];
	free(s);
}

void sprt_figure(enum sprt_kind kind, const double *v, size_t n, double *centre, double *lo, double *hi)
{
	*centre = *lo = *hi = NAN;
	if (n == 0)
		return;
	if (kind == SPRT_RANKS) {
		sprt_figure_ranks(v, n, centre, lo, hi);
		return;
	}
	double *t = xcalloc(n, sizeof(*t));
	if (sprt_transform(kind, v, n, t) == 0) {
		double m = stats_amean(t, n), h = NAN;
		if (n >= 2)
			h = gsl_cdf_tdist_Qinv(0.025, (double)(n - 1)) * sqrt(stats_variance(t, n) / (double)n);
		*centre = sprt_tested(kind, m);
		*lo = kind == SPRT_RECIPROCALS ? (m + h > 0 ? 1 / (m + h) : NAN) : m - h;
		*hi = kind == SPRT_RECIPROCALS ? (m - h > 0 ? 1 / (m - h) : INFINITY) : m + h;
	}
	free(t);
}

double sprt_step_bound(double alpha)
{
	return alpha / (1 - alpha);
}

double sprt_answer_bound(double confirm_q, double alpha, const double *step_bounds, size_t nsteps)
{
	double sum = (isnan(confirm_q) ? 1 : confirm_q) + alpha;

	for (size_t i = 0; i < nsteps; i++)
		sum += step_bounds[i];
	return sum < 1 ? sum : 1;
}
