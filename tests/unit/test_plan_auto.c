/* plan's iteration counts against the run that follows it: values of a
 * known CV, a pilot A/A group planned for a 5% change (stats/plan.c), then
 * a run of fresh values of the same CV stopped by --iterations auto's rule
 * (stats/precision.c) at the precision plan gives: it stops within a
 * factor of 1.5 of plan's count.  The rule stops a sequence early now
 * and then (a run of close values makes the spread look small), so it is
 * asked of the median of 20 draws and of at least 16 of them, with a
 * pilot of 30 blocks; with the default pilot of 4 the CV is rougher, and
 * the median does.  Simulated, so it does not depend on a quiet machine. */
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

/* A value of mean about 1 s and coefficient of variation cv. */
static double draw(double cv)
{
	double z = sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
	return 1e9 * (1 + cv * z);
}

static struct run *mkrun(const char *name, int64_t id, size_t n, double cv, int side)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup(name);
	r->info.id = id;
	r->info.group_uuid = xstrdup("pilot");
	r->env = json_object();
	struct run_case *c = t_one_case(r, "fault-zero", "fault", n, side);
	for (size_t i = 0; i < n; i++)
		result_metric(&c->iters[i], "time-passes", "ns", BETTER_LOWER, COMBINE_AMEAN, draw(cv));
	return r;
}

/* Plan from a pilot of blocks blocks; 0 when it cannot say. */
static size_t plan_need(size_t blocks, double cv, double *precision)
{
	struct run *a = mkrun("a", 1, blocks, cv, 0), *b = mkrun("b", 2, blocks, cv, 1);
	const struct run *runs[] = { a, b };
	struct compare_opts o = { .alpha = 0.05, .headline = workload_metric_headline };
	struct comparison cmp = { 0 };
	compare_runs(runs, 2, &o, &cmp);
	struct plan p = { 0 };
	plan_from_comparison(&cmp, 0.05, &p);
	size_t need = p.nrows == 1 ? p.rows[0].need : 0;
	*precision = p.auto_precision;
	plan_free(&p);
	compare_free(&cmp);
	run_free(a);
	run_free(b);
	return need;
}

/* --iterations auto on fresh values: blocks of two variants until both
 * means are that precise. */
static long auto_stop(double cv, double precision)
{
	struct precision_rule rule = { .target = precision, .budget_s = 1e12, .min_iterations = 3,
				       .max_iterations = 100000 };
	double *x[2] = { xcalloc(100001, sizeof(double)), xcalloc(100001, sizeof(double)) };
	long n = 0;
	for (enum precision_stop s = PRECISION_GO; s == PRECISION_GO;) {
		x[0][n] = draw(cv);
		x[1][n] = draw(cv);
		n++;
		double reached[2] = { precision_of(x[0], (size_t)n), precision_of(x[1], (size_t)n) };
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
			double p = NAN;
			size_t need = plan_need(30, cvs[k], &p);
			long got = need && isfinite(p) ? auto_stop(cvs[k], p) : 0;
			double r = need && got ? (double)got / (double)need : INFINITY;
			bad += !need || !isfinite(p);
			outside += !(r <= 1.5 && r >= 1 / 1.5);
			ratio30[d] = r;
			/* the default pilot of 4 blocks, on the same stream */
			size_t need4 = plan_need(4, cvs[k], &p);
			long got4 = need4 && isfinite(p) ? auto_stop(cvs[k], p) : 0;
			ratio[d] = need4 && got4 ? (double)got4 / (double)need4 : INFINITY;
		}
		qsort(ratio30, draws, sizeof(double), cmp_double);
		double median30 = (ratio30[draws / 2 - 1] + ratio30[draws / 2]) / 2;
		CHECK(!bad && outside <= draws / 5 && median30 <= 1.5 && median30 >= 1 / 1.5,
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
