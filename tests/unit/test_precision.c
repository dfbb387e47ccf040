/* The stopping rule of `run --iterations auto`: its precision figure is the
 * t interval's relative half-width, it stops on precision only when every
 * metric is within it and the minimum is run, on the budget one block
 * before the budget would be passed, and on sequences of known variance it
 * stops where the theory says it should. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats/precision.h"
#include "t.h"

/* A reproducible normal sequence: xorshift64* and Box-Muller. */
static uint64_t rng_state = 88172645463325252ull;

static double rng_uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((double)((rng_state * 2685821657736338717ull) >> 11) + 0.5) / 9007199254740992.0;
}

static double rng_normal(double mean, double sd)
{
	double u = rng_uniform(), v = rng_uniform();
	return mean + sd * sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void test_precision_of(void)
{
	double x[] = { 9, 10, 11 };
	/* t(2, 0.975) = 4.302652729911275 (scipy.stats.t.ppf(0.975, 2)) */
	CHECK_NEAR(precision_of(x, 3), 4.302652729911275 / sqrt(3) / 10, 1e-9, "half-width of 9,10,11");
	double c[] = { 5, 5, 5, 5 };
	CHECK(precision_of(c, 4) == 0, "a constant metric is exact");
	CHECK(isinf(precision_of(x, 1)), "one value has no precision");
	double z[] = { -1, 1 };
	CHECK(isinf(precision_of(z, 2)), "a zero mean has no relative precision");
	double neg[] = { -9, -10, -11 };
	CHECK_NEAR(precision_of(neg, 3), precision_of(x, 3), 1e-15, "relative to |mean|");
}

static void test_decide(void)
{
	struct precision_rule r = { .target = 0.02, .budget_s = 105, .min_iterations = 3, .max_iterations = 50 };
	double met[] = { 0.01, 0.019 }, one_out[] = { 0.01, 0.021 }, none[] = { INFINITY };
	CHECK(precision_decide(&r, met, 2, 2, 1, 2) == PRECISION_GO, "the minimum comes before precision");
	CHECK(precision_decide(&r, met, 2, 3, 1, 3) == PRECISION_MET, "every metric within: precision");
	CHECK(precision_decide(&r, one_out, 2, 3, 1, 3) == PRECISION_GO, "one metric out: go on");
	CHECK(precision_decide(&r, none, 1, 5, 1, 5) == PRECISION_GO, "no precision yet: go on");
	/* 10 blocks in 100 s: one more would end at 110 s > 105 */
	CHECK(precision_decide(&r, one_out, 2, 10, 100, 10) == PRECISION_BUDGET, "stops before passing the budget");
	r.budget_s = 111;
	CHECK(precision_decide(&r, one_out, 2, 10, 100, 10) == PRECISION_GO, "one more block fits the budget");
	r.budget_s = 1;
	CHECK(precision_decide(&r, one_out, 2, 2, 100, 2) == PRECISION_GO, "the minimum runs whatever the budget");
	CHECK(precision_decide(&r, one_out, 2, 50, 1, 50) == PRECISION_MAX, "at the most iterations: max");
	CHECK(precision_decide(&r, NULL, 0, 3, 0, 3) == PRECISION_NONE,
	      "no headline figure (none declared, or every iteration skipped): nothing to wait for, and no precision");
	CHECK_STR(precision_stop_name(PRECISION_NONE), "no headline figure", "which is said as such");
	CHECK(precision_decide(&r, NULL, 0, 2, 0, 2) == PRECISION_GO, "... after the fewest iterations");
	CHECK_STR(precision_stop_name(PRECISION_BUDGET), "budget", "names");
	CHECK(precision_stop_name(PRECISION_GO) == NULL, "go has no name");
}

/* --effect: the rule stops when plan's test would see the change from the
 * values so far, and only then. */
static void test_effect(void)
{
	struct precision_rule r = { .target = 0.02, .budget_s = 1e9, .min_iterations = 3, .max_iterations = 50,
				    .effect = 0.10 };
	double met[] = { 0.5 };  /* a precision far from 2%: the effect rule ignores it */
	r.seen = true;
	CHECK(precision_decide(&r, met, 1, 3, 1, 3) == PRECISION_EFFECT, "seen: stops, on the effect");
	CHECK_STR(precision_stop_name(PRECISION_EFFECT), "effect", "which is named");
	r.seen = false;
	double tight[] = { 0.001 };
	CHECK(precision_decide(&r, tight, 1, 10, 1, 10) == PRECISION_GO, "not seen: goes on whatever the precision");
	CHECK(precision_decide(&r, tight, 1, 2, 1, 2) == PRECISION_GO, "the minimum first");
	/* pairs whose ratio varies 1% (the drift of each block cancels): a 10%
	 * change shows at once; varying 20% it does not in 6 */
	double x[] = { 100, 150, 80, 120, 90, 200 }, y1[6], y20[6];
	const double e20[] = { 1.2, 0.8, 1.25, 0.85, 1.15, 0.78 };
	for (size_t i = 0; i < 6; i++) {
		y1[i] = x[i] * (i % 2 ? 1.01 : 0.99);
		y20[i] = x[i] * e20[i];
	}
	CHECK(precision_effect_seen(x, y1, 6, 0.10, 0.05, false), "paired, 1%% apart: a 10%% change is seen");
	CHECK(!precision_effect_seen(x, y20, 6, 0.10, 0.05, false), "paired, 20%% apart: not in 6 blocks");
	CHECK(!precision_effect_seen(x, NULL, 6, 0.10, 0.05, false), "x alone varies 2x: not as Welch's");
	CHECK(!precision_effect_seen(x, y1, 2, 0.10, 0.05, false), "two pairs: cannot say");
	double zero[] = { 100, 0, 80, 120, 90, 200 };
	CHECK(!precision_effect_seen(zero, y1, 3, 0.10, 0.05, false), "a value of 0 is left out: two pairs, cannot say");
	CHECK(precision_effect_seen(zero, y1, 6, 0.10, 0.05, false), "... five pairs see it");
	/* blocks 2% apart, either way: three show a 10% change to the t-test,
	 * not to a rank test (counted at 3/pi); four to both */
	double y2[6];
	for (size_t i = 0; i < 6; i++)
		y2[i] = x[i] * (i % 2 ? 1.02 : 0.98);
	CHECK(precision_effect_seen(x, y2, 3, 0.10, 0.05, false) && !precision_effect_seen(x, y2, 3, 0.10, 0.05, true),
	      "three blocks 2%% apart: the t-test sees 10%%, a rank test not");
	CHECK(precision_effect_seen(x, y2, 4, 0.10, 0.05, true), "... four, the rank test too");
	CHECK(!precision_effect_seen(x, y2, 3, 0.10, 0.005, false), "at a tenth of the level, three are not enough");
}

/* Run the rule over a normal sequence with relative sd cv: the iteration
 * count it stops at. */
static long stop_at(double cv, double target, enum precision_stop *why)
{
	struct precision_rule r = { .target = target, .budget_s = 1e9, .min_iterations = 3, .max_iterations = 10000 };
	double *x = calloc(10000, sizeof(*x));
	long n = 0;
	*why = PRECISION_GO;
	while (*why == PRECISION_GO) {
		x[n] = rng_normal(100, 100 * cv);
		n++;
		double p = precision_of(x, (size_t)n);
		*why = precision_decide(&r, &p, 1, n, (double)n, n);
	}
	free(x);
	return n;
}

static void test_known_variance(void)
{
	/* With relative sd cv the half-width is about 1.96 cv / sqrt(n): it
	 * falls under the target near n = (1.96 cv / target)^2.  The median
	 * of 51 sequences lies near that. */
	static const struct {
		double cv, target;
	} cases[] = { { 0.05, 0.02 }, { 0.10, 0.02 }, { 0.02, 0.01 } };
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		long ns[51];
		bool all_met = true;
		for (int i = 0; i < 51; i++) {
			enum precision_stop why;
			ns[i] = stop_at(cases[k].cv, cases[k].target, &why);
			all_met &= why == PRECISION_MET;
		}
		for (int i = 1; i < 51; i++)  /* insertion sort */
			for (int j = i; j > 0 && ns[j - 1] > ns[j]; j--) {
				long t = ns[j];
				ns[j] = ns[j - 1];
				ns[j - 1] = t;
			}
		double want = pow(1.96 * cases[k].cv / cases[k].target, 2);
		CHECK(all_met, "cv %.0f%%, target %.0f%%: stops on precision", cases[k].cv * 100, cases[k].target * 100);
		CHECK(ns[25] >= 0.7 * want && ns[25] <= 1.3 * want + 3,
		      "cv %.0f%%, target %.0f%%: median stop %ld near %.0f", cases[k].cv * 100, cases[k].target * 100,
		      ns[25], want);
	}
	/* A sequence that never gets there stops on the budget. */
	struct precision_rule r = { .target = 0.001, .budget_s = 30, .min_iterations = 3, .max_iterations = 10000 };
	double x[64];
	enum precision_stop why = PRECISION_GO;
	long n = 0;
	while (why == PRECISION_GO && n < 64) {
		x[n] = rng_normal(100, 20);
		n++;
		double p = precision_of(x, (size_t)n);
		why = precision_decide(&r, &p, 1, n, (double)n, n);  /* a second a block */
	}
	CHECK(why == PRECISION_BUDGET && n == 30, "cv 20%%, target 0.1%%: budget after the 30 one-second blocks that fit 30 s (%ld)", n);
}

int main(void)
{
	test_precision_of();
	test_decide();
	test_effect();
	test_known_variance();
	T_DONE();
}
