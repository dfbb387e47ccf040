/* plan's iteration counts against the run that follows it: values of a
 * known CV, each block's two sharing a drift of the same size (as a busy
 * machine's blocks do, which is what pairing removes), a pilot A/A group
 * planned for a 5% change (stats/plan.c), then a run of fresh values
 * stopped by --iterations auto --effect 5% (stats/precision.c): it stops
 * within a factor of 1.5 of plan's count.  Both counts are estimates
 * from a spread measured on a few blocks (plan's from the pilot's, auto's
 * from its own as it goes, and a sequence stops early now and then when a
 * run of close values makes its spread look small), so a single draw can
 * land outside: it is asked of the median of 20 draws, for a pilot of 30
 * blocks and for the default of 4, and of at least 12 of the 20 with the
 * pilot of 30.  Simulated, so it does not depend on a quiet machine. */
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "stats/compare.h"
#include "stats/plan.h"
#include "stats/precision.h"
#include "store/store.h"
#include "workload/workload.h"
#include "t.h"
#include "trun.h"

static uint64_t rng;

static double uniform(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return ((double)((z ^ (z >> 31)) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* A value of mean about 1 s and coefficient of variation cv, in a block
 * whose drift is drift. */
static double draw(double cv, double drift)
{
	return 1e9 * (1 + drift) * (1 + cv * normal());
}

static struct run *mkrun(const char *name, int64_t id, size_t n, double cv, const double *drifts, int side)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup(name);
	r->info.id = id;
	r->info.group_uuid = xstrdup("pilot");
	r->env = json_object();
	struct run_case *c = t_one_case(r, "fault-zero", "fault", n, side);
	for (size_t i = 0; i < n; i++)
		result_metric(&c->iters[i], "time-passes", "ns", BETTER_LOWER, COMBINE_AMEAN, draw(cv, drifts[i]));
	return r;
}

/* Plan from a pilot of blocks blocks; 0 when it cannot say. */
static size_t plan_need(size_t blocks, double cv)
{
	double *drifts = xcalloc(blocks, sizeof(*drifts));
	for (size_t i = 0; i < blocks; i++)
		drifts[i] = cv * normal();
	struct run *a = mkrun("a", 1, blocks, cv, drifts, 0), *b = mkrun("b", 2, blocks, cv, drifts, 1);
	const struct run *runs[] = { a, b };
	struct compare_opts o = { .alpha = 0.05, .headline = workload_metric_headline };
	struct comparison cmp = { 0 };
	compare_runs(runs, 2, &o, &cmp);
	struct plan p = { 0 };
	plan_from_comparison(&cmp, 0.05, &p);
	size_t need = p.nrows == 1 ? p.rows[0].need : 0;
	plan_free(&p);
	compare_free(&cmp);
	run_free(a);
	run_free(b);
	free(drifts);
	return need;
}

/* --iterations auto --effect 5% on fresh values: blocks of two variants
 * until the pairs so far say compare could see the change (the family of
 * one headline test, as the plan's). */
static long auto_stop(double cv)
{
	struct precision_rule rule = { .target = 0.02, .budget_s = 1e12, .min_iterations = 3,
				       .max_iterations = 100000, .effect = 0.05 };
	double *x[2] = { xcalloc(100001, sizeof(double)), xcalloc(100001, sizeof(double)) };
	long n = 0;
	for (enum precision_stop s = PRECISION_GO; s == PRECISION_GO;) {
		double drift = cv * normal();
		x[0][n] = draw(cv, drift);
		x[1][n] = draw(cv, drift);
		n++;
		double reached[2] = { precision_of(x[0], (size_t)n), precision_of(x[1], (size_t)n) };
		rule.seen = precision_effect_seen(x[0], x[1], (size_t)n, rule.effect, 0.05, false);
		s = precision_decide(&rule, reached, 2, n, 1, n);
	}
	free(x[0]);
	free(x[1]);
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	const double cvs[] = { 0.04, 0.07, 0.10 };  /* counts of 15 to 100: below about 8 the minimum of 3 and whole blocks decide */
	for (size_t k = 0; k < ARRAY_SIZE(cvs); k++) {
		size_t outside = 0, draws = 20, bad = 0;
		double ratio30[20], ratio[20];
		for (size_t d = 0; d < draws; d++) {
			rng = 1000 * (k + 1) + d;
			size_t need = plan_need(30, cvs[k]);
			long got = need ? auto_stop(cvs[k]) : 0;
			double r = need && got ? (double)got / (double)need : INFINITY;
			bad += !need;
			outside += !(r <= 1.5 && r >= 1 / 1.5);
			ratio30[d] = r;
			/* the default pilot of 4 blocks, on the same stream */
			size_t need4 = plan_need(4, cvs[k]);
			long got4 = need4 ? auto_stop(cvs[k]) : 0;
			ratio[d] = need4 && got4 ? (double)got4 / (double)need4 : INFINITY;
		}
		qsort(ratio30, draws, sizeof(double), cmp_double);
		double median30 = (ratio30[draws / 2 - 1] + ratio30[draws / 2]) / 2;
		CHECK(!bad && outside <= 8 && median30 <= 1.5 && median30 >= 1 / 1.5,
		      "CV %g%%, pilot of 30 blocks: auto stops within 1.5x of plan's count in %zu of %zu draws, the "
		      "median at %.2f (%.2f to %.2f)", cvs[k] * 100, draws - outside, draws, median30, ratio30[0],
		      ratio30[draws - 1]);
		qsort(ratio, draws, sizeof(double), cmp_double);
		double median = (ratio[draws / 2 - 1] + ratio[draws / 2]) / 2;
		CHECK(median <= 1.5 && median >= 1 / 1.5, "CV %g%%, pilot of 4 blocks: the median ratio is within 1.5x (%.2f)",
		      cvs[k] * 100, median);
	}
	T_DONE();
}
