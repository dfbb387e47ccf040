/* The false-discovery rate that compare states, tested rather than
 * claimed: the real compare_runs over many simulated groups of the quick
 * suite's headline metrics, with the coefficients of variation and the
 * block correlations measured on it (docs/variance.md), and its iteration
 * counts.
 *
 * - A/A: no metric changes, so every headline flag is a false discovery
 *   and the false-discovery rate is the share of groups with any flag.
 *   It must stay at or below the FDR (5%) within its binomial interval,
 *   for the paired test of interleaved variants, Welch on interleaved
 *   variants without a recorded order (floor 1%), and runs made apart.
 *   Noisy cells (a CV above 20%, once "unstable") are findings now when
 *   called: their share of false flags is counted on its own.
 * - A/B: a 5% change planted in one headline metric, every CV 1%: found in
 *   at least 95% of the groups of 6 and 12 iterations (at 3, the minimum,
 *   the paired t-test has 2 degrees of freedom and BH over 11 tests asks
 *   for a t of about 10: the share found there is printed, not asserted);
 *   and the false discoveries among the other ten, as a share of each
 *   group's discoveries (BH bounds that mean, not the chance of any one
 *   when a true change is among them), at most the FDR.
 * - The log-scale interval of the ratio holds the true ratio (1) in about
 *   95% of the A/A cells.
 *
 * Seeded, so every run of the test sees the same groups. */
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "stats/compare.h"
#include "store/store.h"
#include "workload/workload.h"
#include "t.h"

#define GROUPS 240

struct profile {
	const char *case_name, *workload, *metric, *unit;
	enum better better;
	enum combine combine;
	double mean, cv, r;       /* the base mean; CV of an iteration; correlation within a block */
};

/* The quick suite's headline metrics.  CVs from the interleaved rounds of
 * docs/variance.md at a load of about 1 (null's from the busy rounds, 33%,
 * so that noisy cells are in the family), correlations within a block from
 * its A/A run of 83-790 iterations (0 where it gives none, -0.6 for
 * mmap001's negative one). */
static const struct profile quick[] = {
	{ "null", "null", "time", "ns", BETTER_LOWER, COMBINE_AMEAN, 1e7, 0.326, 0 },
	{ "fault-zero", "fault", "time-passes", "ns", BETTER_LOWER, COMBINE_AMEAN, 4e9, 0.114, 0.75 },
	{ "fault-zero", "fault", "refault-rate", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, 3e3, 0.125, 0.39 },
	{ "alloc-low", "alloc", "alloc-rate", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, 7e4, 0.106, 0.57 },
	{ "reread", "reread", "reread-time", "ns", BETTER_LOWER, COMBINE_AMEAN, 3e8, 0.087, 0 },
	{ "mmap001", "mmap001", "pages-per-sec", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, 9e3, 0.063, -0.6 },
	{ "mtest01", "mtest01", "time", "ns", BETTER_LOWER, COMBINE_AMEAN, 8e8, 0.132, 0 },
	{ "pft", "pft", "faults-per-sec-t1", "faults/s", BETTER_HIGHER, COMBINE_HMEAN, 4e4, 0.035, 0 },
	{ "pft", "pft", "faults-per-sec-t2", "faults/s", BETTER_HIGHER, COMBINE_HMEAN, 5e4, 0.064, 0 },
	{ "mmap-anon-read", "mmap", "refs-per-sec", "refs/s", BETTER_HIGHER, COMBINE_HMEAN, 2e4, 0.080, 0 },
	{ "mmap-anon-read", "mmap", "access-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, 4e5, 0.112, 0 },
};

enum mode { PAIRED, WELCH_INTERLEAVED, APART };
static const char *const mode_names[] = { "paired", "Welch, interleaved", "apart" };

static uint64_t rng_state;

static double uniform(void)
{
	/* splitmix64: deterministic, and good enough for normals. */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

static struct run *mkrun(const char *name, int64_t id, bool grouped)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup(name);
	r->info.id = id;
	r->info.group_uuid = grouped ? xstrdup("f00d") : NULL;
	r->env = json_object();
	return r;
}

static struct run_case *case_of(struct run *r, const char *name, const char *workload, size_t n, bool ordered, int side)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].name, name))
			return &r->cases[i];
	r->cases = xrealloc(r->cases, (r->ncases + 1) * sizeof(*r->cases));
	struct run_case *c = &r->cases[r->ncases++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->workload = xstrdup(workload);
	c->options = json_object();
	c->niter = n;
	c->iters = xcalloc(n, sizeof(struct result));
	for (size_t i = 0; i < n; i++)
		result_init(&c->iters[i], workload);
	if (ordered) {
		c->iter_no = xcalloc(n, sizeof(int));
		c->iter_seq = xcalloc(n, sizeof(int64_t));
		for (size_t i = 0; i < n; i++) {
			c->iter_no[i] = (int)i;
			c->iter_seq[i] = (int64_t)(2 * i + (size_t)side);
		}
	}
	return c;
}

/* One group: n blocks of the quick suite's headline metrics; metric
 * `planted` of b is `effect` times a's (in its worse direction), or none
 * when planted is -1.  cv_all > 0 replaces every profile's CV. */
static void make_group(struct run *a, struct run *b, size_t n, enum mode m, int planted, double effect,
		       double cv_all)
{
	for (size_t k = 0; k < ARRAY_SIZE(quick); k++) {
		const struct profile *p = &quick[k];
		double cv = cv_all > 0 ? cv_all : p->cv, sigma = sqrt(log1p(cv * cv));
		double shift = (int)k == planted ? (p->better == BETTER_HIGHER ? 1 / effect : effect) : 1;
		struct run_case *ca = case_of(a, p->case_name, p->workload, n, m == PAIRED, 0);
		struct run_case *cb = case_of(b, p->case_name, p->workload, n, m == PAIRED, 1);
		for (size_t i = 0; i < n; i++) {
			/* Lognormal iterations, correlated r within a block. */
			double za = normal(), zb = p->r * za + sqrt(1 - p->r * p->r) * normal();
			double va = p->mean * exp(sigma * za - sigma * sigma / 2);
			double vb = p->mean * shift * exp(sigma * zb - sigma * sigma / 2);
			result_metric(&ca->iters[i], p->metric, p->unit, p->better, p->combine, va);
			result_metric(&cb->iters[i], p->metric, p->unit, p->better, p->combine, vb);
		}
	}
}

struct tally {
	size_t groups, flagged, noisy_flagged, unstable_cells, cells, covered, planted_found;
	double fdp, fdp2;         /* sums of each group's false share of its discoveries, and of its square */
};

static void run_groups(enum mode m, int planted, double effect, double cv_all, const size_t *counts, size_t ncounts,
		       struct tally *t)
{
	const struct compare_opts o = { .alpha = 0.05, .headline = workload_metric_headline };
	for (size_t g = 0; g < GROUPS; g++) {
		size_t n = counts[g % ncounts];
		struct run *a = mkrun("a", 1, m != APART), *b = mkrun("b", 2, m != APART);
		make_group(a, b, n, m, planted, effect, cv_all);
		const struct run *runs[] = { a, b };
		struct comparison cmp = { 0 };
		compare_runs(runs, 2, &o, &cmp);
		bool any = false, noisy = false;
		size_t found = 0, wrong = 0;
		for (size_t r = 0; r < cmp.nrows; r++) {
			const struct cmp_row *row = &cmp.rows[r];
			const struct cmp_cell *c = &row->cells[1];
			if (!row->headline)
				continue;
			t->cells++;
			t->unstable_cells += c->verdict == CMP_UNSTABLE;
			t->covered += c->ci_low <= 1 && c->ci_high >= 1;
			if (planted >= 0 && !strcmp(row->metric, quick[planted].metric) &&
			    !strcmp(row->case_name, quick[planted].case_name)) {
				t->planted_found += c->verdict == CMP_REGRESSED;
				found += c->significant;
			} else if (c->significant) {
				any = true;
				noisy |= c->noisy;
				wrong++;
			}
		}
		double fdp = wrong ? (double)wrong / (double)(wrong + found) : 0;
		t->fdp += fdp;
		t->fdp2 += fdp * fdp;
		t->groups++;
		t->flagged += any;
		t->noisy_flagged += noisy;
		compare_free(&cmp);
		run_free(a);
		run_free(b);
	}
}

/* The Wilson interval's lower end of k successes in n at 95%. */
static double wilson_low(size_t k, size_t n)
{
	double z = 1.959964, p = (double)k / (double)n, nn = (double)n;
	double centre = p + z * z / (2 * nn), half = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn));
	return (centre - half) / (1 + z * z / nn);
}

/* And its upper end. */
static double wilson_high(size_t k, size_t n)
{
	double z = 1.959964, p = (double)k / (double)n, nn = (double)n;
	double centre = p + z * z / (2 * nn), half = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn));
	return (centre + half) / (1 + z * z / nn);
}

int main(void)
{
	/* The quick suite's counts: the minimum of 3, the -n 6 of the
	 * measurements, and what --iterations auto reached in a few minutes (12). */
	static const size_t counts[] = { 3, 6, 12 };
	for (enum mode m = PAIRED; m <= APART; m++) {
		rng_state = 0x766d72656772ULL + (uint64_t)m;
		struct tally t = { 0 };
		run_groups(m, -1, 1, 0, counts, 3, &t);
		CHECK(t.groups == GROUPS && t.cells == GROUPS * ARRAY_SIZE(quick), "%s A/A: %zu groups of %zu headline tests",
		      mode_names[m], t.groups, ARRAY_SIZE(quick));
		CHECK(wilson_low(t.flagged, t.groups) <= 0.05,
		      "%s A/A: %zu of %zu groups with any headline flag (%.1f%%, 95%% interval from %.1f%%): at most the "
		      "FDR of 5%%",
		      mode_names[m], t.flagged, t.groups, 100.0 * (double)t.flagged / (double)t.groups,
		      100 * wilson_low(t.flagged, t.groups));
		CHECK(wilson_low(t.noisy_flagged, t.groups) <= 0.05,
		      "%s A/A: %zu groups flag a noisy cell (CV above 20%%, called now where it was unstable)",
		      mode_names[m], t.noisy_flagged);
		double cover = (double)t.covered / (double)t.cells;
		CHECK(wilson_high(t.covered, t.cells) >= 0.95 && cover > 0.9,
		      "%s A/A: the 95%% interval of the ratio holds 1 in %.1f%% of cells", mode_names[m], 100 * cover);
		printf("# %s A/A: %zu of %zu cells unstable (cannot tell)\n", mode_names[m], t.unstable_cells, t.cells);

		/* A 5% change planted in fault-zero's time, every CV 1%. */
		rng_state = 0x766d72656773ULL + (uint64_t)m;
		struct tally p = { 0 };
		run_groups(m, 1, 1.05, 0.01, counts + 1, 2, &p);
		CHECK(p.planted_found * 100 >= 95 * p.groups,
		      "%s A/B: a 5%% change at a CV of 1%% found in %zu of %zu groups of 6 and 12 iterations",
		      mode_names[m], p.planted_found, p.groups);
		double mean = p.fdp / (double)p.groups;
		double se = sqrt(fmax(0, p.fdp2 / (double)p.groups - mean * mean) / (double)p.groups);
		CHECK(mean - 1.96 * se <= 0.05,
		      "%s A/B: the false share of the discoveries, %.1f%% (+- %.1f%%), at most the FDR (%zu groups with one)",
		      mode_names[m], 100 * mean, 196 * se, p.flagged);
		rng_state = 0x766d72656774ULL + (uint64_t)m;
		struct tally p3 = { 0 };
		run_groups(m, 1, 1.05, 0.01, counts, 1, &p3);
		printf("# %s A/B at 3 iterations: found in %zu of %zu groups\n", mode_names[m], p3.planted_found, p3.groups);
	}
	T_DONE();
}
