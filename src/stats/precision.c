#include "stats/precision.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>

#include "core/util.h"
#include "stats/gsllib.h"
#include "stats/plan.h"
#include "stats/stats.h"

double precision_of(const double *x, size_t n)
{
	if (n < 2)
		return INFINITY;
	double mean = stats_amean(x, n), var = stats_variance(x, n);
	if (mean == 0)
		return INFINITY;
	if (var == 0)
		return 0;
	double t = gsl_cdf_tdist_Qinv(0.025, (double)(n - 1));
	return t * sqrt(var / (double)n) / fabs(mean);
}

static bool precision_all_met(const double *reached, size_t n, double target)
{
	for (size_t i = 0; i < n; i++)
		if (!(reached[i] <= target))
			return false;
	return true;
}

bool precision_effect_seen(const double *x, const double *y, size_t n, double effect, double level, bool rank)
{
	if (n < PLAN_MIN || !(effect > 0))
		return false;
	double *d = xcalloc(n, sizeof(*d));
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0) || (y && !(y[i] > 0)))
			continue;
		d[k++] = y ? log(y[i] / x[i]) : log(x[i]);
	}
	/* the variance scaled to its median-unbiased value: a run stops the
	 * first time its spread looks small enough, and the sample variance
	 * of a few values is more often below the true one than above */
	double df = (double)k - 1;
	double sd = k >= PLAN_MIN ? sqrt(stats_variance(d, k) * df / gsl_cdf_chisq_Pinv(0.5, df)) : NAN;
	free(d);
	return isfinite(sd) && plan_mde(k, sd, y != NULL, rank, level) <= log1p(effect);
}

enum precision_stop precision_decide(const struct precision_rule *rule, const double *reached, size_t nmetrics,
				     long iterations, double elapsed_s, long blocks)
{
	if (iterations >= rule->max_iterations)
		return PRECISION_MAX;
	if (iterations < rule->min_iterations)
		return PRECISION_GO;
	/* no headline figure (none declared, or every iteration skipped):
	 * nothing to wait for, and no precision reached either */
	if (nmetrics == 0)
		return PRECISION_NONE;
	if (rule->effect > 0 ? rule->seen : precision_all_met(reached, nmetrics, rule->target))
		return rule->effect > 0 ? PRECISION_EFFECT : PRECISION_MET;
	double per_block = blocks > 0 ? elapsed_s / (double)blocks : 0;
	if (elapsed_s + per_block > rule->budget_s)
		return PRECISION_BUDGET;
	return PRECISION_GO;
}

const char *precision_stop_name(enum precision_stop s)
{
	static const char *const names[] = { [PRECISION_MET] = "precision", [PRECISION_EFFECT] = "effect", [PRECISION_BUDGET] = "budget",
					     [PRECISION_MAX] = "max", [PRECISION_NONE] = "no headline figure" };
	return s == PRECISION_GO ? NULL : names[s];
}

int precision_parse(const char *text, double *fraction)
{
	char *end = NULL;
	double v = strtod(text, &end);
	if (end == text)
		return -1;
	if (*end == '%' && !end[1])
		v /= 100;
	else if (*end || v >= 1)  /* "2" would be 200%: say 2% */
		return -1;
	if (!(v > 0 && v < 1))
		return -1;
	*fraction = v;
	return 0;
}

void precision_track_add(struct precision_track *t, const char *metric, double v)
{
	size_t i = 0;
	while (i < t->n && strcmp(t->s[i].metric, metric))
		i++;
	if (i == t->n) {
		t->s = xrealloc(t->s, (t->n + 1) * sizeof(*t->s));
		t->s[t->n++] = (struct precision_series){ .metric = xstrdup(metric), .n = 0, .v = NULL };
	}
	struct precision_series *s = &t->s[i];
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n++] = v;
}

void precision_track_free(struct precision_track *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->s[i].metric);
		free(t->s[i].v);
	}
	free(t->s);
	*t = (struct precision_track){ 0 };
}
