/* The test of one cell against its base and its verdict (verdict.h;
 * the rule is docs/statistics.md's). */
#include "stats/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/gsllib.h"

/* The values a row tests, reciprocals for a Welch row's rates: the cell's,
 * or its pairs' when it is paired (of_base: the base's side of them). */
static double *compare_tested(const struct cmp_cell *cell, const struct cmp_cell *base, bool of_base, bool recip,
			      size_t *n)
{
	const double *v = cell->paired ? (of_base ? cell->pair_base : cell->pair_run)
				       : (of_base ? base->values : cell->values);
	*n = cell->paired ? cell->npairs : (of_base ? base->s.n : cell->s.n);
	double *out = xcalloc(*n + 1, sizeof(double));
	for (size_t k = 0; k < *n; k++)
		out[k] = recip ? 1 / v[k] : v[k];
	return out;
}

static bool compare_recip(const struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row)
{
	return row->test == CMP_TEST_WELCH && row->combine == COMBINE_HMEAN && base->s.min > 0 && cell->s.min > 0;
}

/* Welch on the means (the paired t-test for paired cells).  Rates are
 * averaged by harmonic mean, which is the arithmetic mean of their
 * reciprocals (time per unit of work): they are tested on those, so that
 * test, ratio and interval agree.  The ratio of positive quantities gets
 * its interval on the log scale (stats_ratio_ci), so that a time cannot
 * fall by more than 100%; where a side holds a value of 0 or below, the
 * interval is 1 + (the difference's interval) / base mean. */
void compare_welch(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row)
{
	size_t na, nb;
	bool recip = compare_recip(cell, base, row);
	double *a = compare_tested(cell, base, true, recip, &na), *b = compare_tested(cell, base, false, recip, &nb);
	double ma = stats_amean(a, na), mb = stats_amean(b, nb), lo, hi, rlo, rhi;
	if (cell->paired) {
		stats_paired_t(a, b, na, 0.95, &cell->w, &lo, &hi);
		stats_ratio_ci_paired(a, b, na, 0.95, &rlo, &rhi);
	} else {
		stats_welch(a, na, b, nb, &cell->w);
		stats_welch_ci(ma, stats_variance(a, na), na, mb, stats_variance(b, nb), nb, 0.95, &lo, &hi);
		stats_ratio_ci(a, na, b, nb, 0.95, &rlo, &rhi);
	}
	cell->p = cell->w.too_few ? NAN : cell->w.p;
	if (ma == 0) {
		cell->ratio = cell->ci_low = cell->ci_high = NAN;
	} else if (recip) {
		/* The rate's ratio is the reciprocals' ratio turned over. */
		cell->ratio = ma / mb;
		cell->ci_low = 1 / rhi;
		cell->ci_high = 1 / rlo;
	} else {
		cell->ratio = mb / ma;
		bool logscale = !isnan(rlo);
		cell->ci_low = logscale ? rlo : 1 + lo / fabs(ma);
		cell->ci_high = logscale ? rhi : 1 + hi / fabs(ma);
	}
	free(a);
	free(b);
}

/* Mann-Whitney U for p, and a bootstrap interval of the ratio of medians
 * (a percentile interval, which no monotone scale changes: it is the log
 * scale's too). */
void compare_mwu(struct cmp_cell *cell, const struct cmp_cell *base)
{
	size_t na = base->s.n, nb = cell->s.n;
	if (cell->paired) {
		/* The signed-rank test of the blocks, the ratio of the pairs'
		 * medians and a bootstrap of blocks. */
		size_t n = cell->npairs;
		stats_paired_t(cell->pair_base, cell->pair_run, n, 0.95, &cell->w, &(double){ 0 }, &(double){ 0 });
		stats_wilcoxon(cell->pair_base, cell->pair_run, n, &cell->wsr);
		cell->p = cell->wsr.too_few ? NAN : cell->wsr.p;
		double ma = stats_median(cell->pair_base, n);
		cell->ratio = ma != 0 ? stats_median(cell->pair_run, n) / ma : NAN;
		cell->ci_low = cell->ci_high = NAN;
		if (!cell->wsr.too_few && ma != 0)
			stats_bootstrap_ratio_paired(cell->pair_base, cell->pair_run, n, 0.95, 2000, 0x766d72656772ULL,
						     &cell->ci_low, &cell->ci_high);
		return;
	}
	stats_welch(base->values, na, cell->values, nb, &cell->w);
	stats_mann_whitney(base->values, na, cell->values, nb, &cell->mw);
	cell->p = cell->mw.too_few ? NAN : cell->mw.p;
	double ma = stats_median(base->values, na);
	cell->ratio = ma != 0 ? stats_median(cell->values, nb) / ma : NAN;
	cell->ci_low = cell->ci_high = NAN;
	if (!cell->mw.too_few && ma != 0)
		stats_bootstrap_ratio(base->values, na, cell->values, nb, 0.95, 2000, 0x766d72656772ULL,
				      &cell->ci_low, &cell->ci_high);
}

/* An interval that already leaves no change behind, its change beyond the
 * floor, and no finding: the family's test asks for more.  The test
 * statistic grows as sqrt(n), so n (z at the level BH holds a lone change
 * to, alpha / m) / (z of p)) squared, in normal quantiles. */
static size_t compare_settle_q(const struct cmp_cell *cell, size_t n, double level)
{
	if (!(cell->p > 0) || !(cell->p < 1) || !(level > 0))
		return 0;
	double now = gsl_cdf_tdist_Qinv(cell->p / 2, 1e6), need = gsl_cdf_tdist_Qinv(level / 2, 1e6);
	if (!(need > now) || !(now > 0))
		return 0;
	double want = ceil((double)n * (need / now) * (need / now));
	return want > 1e6 ? 1000000 : (size_t)want;
}

/* Iterations a side (blocks, paired) at which an interval that cannot tell
 * would settle, if the change and the spread stayed as they are: each side
 * of the interval narrows about the change as 1/sqrt(n), on the log scale
 * (a bootstrap's interval need not be symmetric), and it settles when it
 * leaves no change behind (a change beyond the floor: k < R / (R - L) for
 * R > 0) or fits within the floor (a change within it).  0 when it cannot
 * be said (no interval, a change right at the floor). */
static size_t compare_settle(const struct cmp_cell *cell, size_t n)
{
	if (!(cell->ci_low > 0) || !isfinite(cell->ci_high) || !(cell->ratio > 0) || n < 2)
		return 0;
	double r = log(cell->ratio), below = r - log(cell->ci_low), above = log(cell->ci_high) - r;
	double f = log1p(cell->noise_floor), k;
	if (fabs(r) > f)
		k = r > 0 ? r / below : -r / above;
	else
		k = fmin((f - r) / above, (f + r) / below);
	if (!(k > 0) || !(k < 1))
		return 0;
	double want = ceil((double)n / (k * k));
	return want > 1e6 ? 1000000 : (size_t)want;
}

/* The rule of docs/statistics.md, once q is known.  A change the family's
 * test calls (q under the FDR) beyond the noise floor is a finding, however
 * noisy the iterations were (cell->noisy says they were).  A cell without a
 * finding whose interval reaches beyond the floor cannot tell: unstable,
 * with the iterations that would settle it.  That is an interval that spans
 * both no change and a change beyond the floor, or one beyond the floor
 * that the family's test does not call (a lone 95% interval is not the
 * FDR's).  The rest is the same: its interval lies within the floor.
 * level: alpha / m, m the family's tests. */
void compare_cell_verdict(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row,
			  const struct comparison *cmp, double level)
{
	if (cell == base || !cell->present || !base->present)
		return;
	if (base->s.n < CMP_MIN_ITERATIONS || cell->s.n < CMP_MIN_ITERATIONS || isnan(cell->p)) {
		cell->verdict = CMP_TOO_FEW;
		return;
	}
	cell->noisy = base->s.cv > cmp->unstable_cv || cell->s.cv > cmp->unstable_cv;
	/* From a base of 0 there is no ratio: any change beyond the noise is
	 * a change of kind. */
	double change = isnan(cell->ratio) ? INFINITY : fabs(cell->ratio - 1);
	cell->significant = cell->q < cmp->alpha && change > cell->noise_floor;
	if (!cell->significant) {
		bool none = cell->ci_low <= 1 && cell->ci_high >= 1;
		bool beyond = cell->ci_low < 1 - cell->noise_floor || cell->ci_high > 1 + cell->noise_floor;
		size_t n = cell->paired ? cell->npairs : (base->s.n > cell->s.n ? base->s.n : cell->s.n);
		cell->verdict = beyond ? CMP_UNSTABLE : CMP_SAME;
		if (beyond)
			cell->settle_n = none ? compare_settle(cell, n) : compare_settle_q(cell, n, level);
	} else if (row->better == BETTER_NONE)
		cell->verdict = CMP_CHANGED;
	else {
		bool up = isnan(cell->ratio) ? cell->s.mean > base->s.mean : cell->ratio > 1;
		cell->verdict = up == (row->better == BETTER_HIGHER) ? CMP_IMPROVED : CMP_REGRESSED;
	}
}

/* Cohen's d at 80% power for na and nb values (na < 0: the one-sample
 * test of nb).  Each is a root search over the noncentral t, and the cells
 * of a comparison (and the comparisons of a run of them) mostly share their
 * iteration counts and level: the last few answers are kept, per thread, as
 * the function is pure. */
static double compare_mde_d(double na, double nb, double alpha)
{
	static _Thread_local struct {
		double na, nb, alpha, d;
		bool set;
	} memo[16];
	static _Thread_local size_t next;
	for (size_t k = 0; k < ARRAY_SIZE(memo) && memo[k].set; k++)
		if (memo[k].na == na && memo[k].nb == nb && memo[k].alpha == alpha)
			return memo[k].d;
	double d = na < 0 ? stats_t1_mde(nb, alpha, 0.8) : stats_t_mde(na, nb, alpha, 0.8);
	memo[next].na = na;
	memo[next].nb = nb;
	memo[next].alpha = alpha;
	memo[next].d = d;
	memo[next].set = true;
	next = (next + 1) % ARRAY_SIZE(memo);
	return d;
}

/* The change a headline test would call with 80% power, as a fraction of
 * the base: Cohen's d at that power for the t-test at level alpha / m (m
 * headline tests: the level BH holds a lone true change to), times the
 * pooled standard deviation of the values tested, over their base mean.
 * Mann-Whitney's rows count their iterations at its efficiency against the
 * t-test, 3/pi, and scale by the base median.  Never below the noise
 * floor, which a change must also exceed. */
void compare_mde(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row, double alpha)
{
	size_t na = base->s.n, nb = cell->s.n;
	cell->mde = NAN;
	if (cell == base || !cell->present || !base->present || na < 2 || nb < 2)
		return;
	bool recip = compare_recip(cell, base, row);
	double *a = compare_tested(cell, base, true, recip, &na), *b = compare_tested(cell, base, false, recip, &nb);
	double eff = row->test == CMP_TEST_MWU ? 3 / M_PI : 1;
	if (cell->paired) {
		/* The one-sample test of the differences: d in their sd; the
		 * signed-rank test counts its pairs at its efficiency against it,
		 * 3/pi, and scales by the base median. */
		double *diff = xcalloc(na + 1, sizeof(double));
		for (size_t k = 0; k < na; k++)
			diff[k] = b[k] - a[k];
		double sd = sqrt(stats_variance(diff, na));
		double centre = row->test == CMP_TEST_MWU ? stats_median(a, na) : stats_amean(a, na);
		double d = compare_mde_d(-1, (double)na * eff, alpha);
		if (centre != 0 && isfinite(d))
			cell->mde = fmax(cell->noise_floor, d * sd / fabs(centre));
		free(diff);
		free(a);
		free(b);
		return;
	}
	double sp = sqrt(((double)(na - 1) * stats_variance(a, na) + (double)(nb - 1) * stats_variance(b, nb)) /
			 (double)(na + nb - 2));
	double centre = row->test == CMP_TEST_MWU ? stats_median(a, na) : stats_amean(a, na);
	double d = compare_mde_d((double)na * eff, (double)nb * eff, alpha);
	if (centre != 0 && isfinite(d))
		cell->mde = fmax(cell->noise_floor, d * sp / fabs(centre));
	free(a);
	free(b);
}

double compare_log_spread(const struct cmp_cell *c, const struct cmp_cell *base, bool paired)
{
	size_t n = paired ? c->npairs : base->s.n, nb = paired ? c->npairs : c->s.n;
	if (n < 2 || nb < 2)
		return NAN;
	double *a = xcalloc(n + 1, sizeof(double)), *b = xcalloc(nb + 1, sizeof(double)), sd = NAN;
	bool ok = true;
	for (size_t k = 0; k < n; k++) {
		double x = paired ? c->pair_base[k] : base->values[k];
		ok &= x > 0;
		a[k] = log(x);
	}
	for (size_t k = 0; k < nb; k++) {
		double x = paired ? c->pair_run[k] : c->values[k];
		ok &= x > 0;
		b[k] = log(x);
	}
	if (ok && paired) {
		for (size_t k = 0; k < n; k++)
			b[k] -= a[k];
		sd = sqrt(stats_variance(b, n));
	} else if (ok) {
		sd = sqrt(((double)(n - 1) * stats_variance(a, n) + (double)(nb - 1) * stats_variance(b, nb)) /
			  (double)(n + nb - 2));
	}
	free(a);
	free(b);
	return sd;
}

struct cmp_ref_noise compare_ref_noise(const struct comparison *ref, const char *case_name, const char *metric)
{
	struct cmp_ref_noise rn = { .cv = NAN, .sd_side = NAN, .sd_pair = NAN };
	for (size_t r = 0; ref && r < ref->nrows; r++) {
		const struct cmp_row *row = &ref->rows[r];
		if (strcmp(row->case_name, case_name) || strcmp(row->metric, metric) || ref->nruns < 2)
			continue;
		const struct cmp_cell *base = &row->cells[0], *c = &row->cells[1];
		if (!base->present || !c->present)
			return rn;
		rn.cv = 0;
		for (size_t i = 0; i < ref->nruns; i++)
			if (row->cells[i].present && isfinite(row->cells[i].s.cv))
				rn.cv = fmax(rn.cv, row->cells[i].s.cv);
		rn.sd_side = compare_log_spread(c, base, false);
		/* a difference of two sides spreads sqrt(2) times one side */
		rn.sd_pair = c->paired ? compare_log_spread(c, base, true) : rn.sd_side * M_SQRT2;
		rn.found = isfinite(rn.sd_side) && isfinite(rn.sd_pair);
		return rn;
	}
	return rn;
}

void compare_mde_ref(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row, double alpha)
{
	const struct cmp_ref_noise *rn = &row->ref;
	cell->mde = NAN;
	if (cell == base || !cell->present || !base->present || !rn->found)
		return;
	double eff = row->test == CMP_TEST_MWU ? 3 / M_PI : 1, d, sd;
	if (cell->paired) {
		d = compare_mde_d(-1, (double)cell->npairs * eff, alpha);
		sd = rn->sd_pair;
	} else {
		if (base->s.n < 2 || cell->s.n < 2)
			return;
		d = compare_mde_d((double)base->s.n * eff, (double)cell->s.n * eff, alpha);
		sd = rn->sd_side;
	}
	if (isfinite(d))
		cell->mde = fmax(cell->noise_floor, expm1(d * sd));
}
