#include "stats/lkp.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

#define LKP_MARGIN_SHIFT 5    /* trim n >> 5 from each end */
#define LKP_MAX_MARGIN 3
#define LKP_MIN_RATIO 1.01
#define LKP_MAX_RATIO 5.0

static int lkp_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void lkp_side(const double *v, size_t n, size_t max_margin, struct lkp_side *out)
{
	*out = (struct lkp_side){ .n = n, .mean = NAN, .stddev_pct = NAN, .min = NAN, .mid = NAN, .max = NAN };
	if (!n)
		return;
	double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - out->mean) * (v[i] - out->mean);
	/* statistics.rb: the variance over n, not n - 1 */
	out->stddev_pct = out->mean != 0 ? 100 * sqrt(sq / (double)n) / fabs(out->mean) : 0;
	double *s = xmalloc(n * sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), lkp_cmp_double);
	size_t margin = n >> LKP_MARGIN_SHIFT;
	margin = margin > max_margin ? max_margin : margin;
	size_t m = n - 2 * margin;
	out->min = s[margin];
	out->mid = s[margin + m / 2];
	out->max = s[margin + m - 1];
	free(s);
}

/* etc/perf-metrics-threshold.yaml and reasonable_perf_change? for the
 * kinds of figure vmregress stores: the least maximum, and the least
 * difference of the middles (0: none). */
struct lkp_threshold {
	const char *glob;
	double max, delta;
};

static const struct lkp_threshold lkp_thresholds[] = {
	{ "vmstat-nr_*", 100, 50 },
	{ "vmstat-*", 1000, 0 },
	{ "major-faults", 1000, 500 },
	{ "minor-faults", 1000, 500 },
	{ "voluntary-switches", 1000, 500 },
	{ "involuntary-switches", 1000, 500 },
};

static bool lkp_reasonable(const char *metric, double delta, double max)
{
	for (size_t i = 0; i < ARRAY_SIZE(lkp_thresholds); i++) {
		const struct lkp_threshold *t = &lkp_thresholds[i];
		if (fnmatch(t->glob, metric, 0))
			continue;
		return max >= t->max && delta >= t->delta;
	}
	return true;
}

/* changed_stat.rb's default rule: one side's range lies past the other's
 * middle, both ways round. */
static bool lkp_apart(const struct lkp_side *a, const struct lkp_side *b)
{
	return (b->min > a->mid && b->mid > a->max) || (a->min > b->mid && a->mid > b->max);
}

void lkp_cell(const double *base, size_t nb, const double *run, size_t nr, const char *metric,
	      struct lkp_cell *out)
{
	struct lkp_side b, a;
	lkp_side(base, nb, LKP_MAX_MARGIN, &b);
	lkp_side(run, nr, nb <= 3 ? 1 : LKP_MAX_MARGIN, &a);
	*out = (struct lkp_cell){ .s = a, .change_pct = NAN, .mark = LKP_MISSING };
	if (!nb || !nr)
		return;
	double base_mean = b.mean != 0 ? b.mean : 1e-100;   /* compare.rb's guard */
	out->change_pct = 100 * (a.mean - b.mean) / base_mean;
	const struct lkp_side *hi = a.mid > b.mid ? &a : &b, *lo = hi == &a ? &b : &a;
	double ratio = lo->mid > 0 ? hi->mid / lo->mid : LKP_MAX_RATIO;
	ratio = ratio > LKP_MAX_RATIO ? LKP_MAX_RATIO : ratio;
	if (nb < LKP_MIN_SAMPLES && nr < LKP_MIN_SAMPLES)
		out->mark = LKP_TOO_FEW;
	else if (!lkp_apart(&a, &b))
		out->mark = LKP_OVERLAP;
	else if (!(ratio > LKP_MIN_RATIO))
		out->mark = LKP_SMALL;
	else if (!lkp_reasonable(metric, hi->mid - lo->mid, fmax(a.max, b.max)))
		out->mark = LKP_THRESHOLD;
	else
		out->mark = LKP_CHANGED;
}

void lkp_row(const struct comparison *cmp, size_t r, struct lkp_cell *cells)
{
	const struct cmp_row *row = &cmp->rows[r];
	const struct cmp_cell *base = &row->cells[0];
	for (size_t i = 0; i < cmp->nruns; i++) {
		const struct cmp_cell *c = &row->cells[i];
		size_t nb = base->present ? base->s.n : 0, nr = c->present ? c->s.n : 0;
		lkp_cell(base->values, nb, c->values, nr, row->metric, &cells[i]);
		if (i == 0)
			cells[i].mark = LKP_BASE;
	}
}

enum lkp_why lkp_disagreement(const struct comparison *cmp, size_t r, size_t i, const struct lkp_cell *c)
{
	const struct cmp_cell *cell = &cmp->rows[r].cells[i];
	bool lkp = c->mark == LKP_CHANGED, ours = cell->significant;
	if (i == 0 || lkp == ours || c->mark == LKP_MISSING || cell->verdict == CMP_MISSING)
		return LKP_AGREE;
	if (lkp) {
		if (cell->verdict == CMP_UNSTABLE)
			return LKP_WHY_UNSTABLE;
		if (cell->verdict == CMP_TOO_FEW)
			return LKP_WHY_FEW;
		if (!(cell->q < cmp->alpha))
			return LKP_WHY_Q;
		return LKP_WHY_FLOOR;
	}
	if (c->mark == LKP_TOO_FEW)
		return LKP_WHY_LKP_FEW;
	if (c->mark == LKP_OVERLAP)
		return LKP_WHY_RANGES;
	return LKP_WHY_LKP_SMALL;
}
