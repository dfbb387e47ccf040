/* The sequential test of a bisection step, on simulated steps drawn from a
 * fixed seed: references measured afresh for every step (so that their own
 * noise is in the figures), a candidate drawn from the good or the bad
 * distribution, iterations added until the test decides or its budget ends.
 * Over thousands of steps the wrong decisions must stay under alpha, for
 * means, rates (tested on reciprocals) and skewed percentiles (by ranks);
 * the test must stop, and references that do not differ must not set one
 * up.  Also the step's and the answer's error bounds. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "refs/prng.h"
#include "stats/sprt.h"
#include "t.h"

static struct prng rng;

static double uniform01(void)
{
	return ((double)(prng_next(&rng) >> 11) + 0.5) * 0x1p-53;
}

static double normal(double mean, double sd)
{
	return mean + sd * sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

/* A metric's distribution: its iterations as a kernel gives them. */
struct dist {
	double mean, sd;
	int shape;   /* 0 normal (a time), 1 a rate 1000/normal, 2 lognormal (a percentile) */
};

static double draw(const struct dist *d)
{
	double x = normal(d->mean, d->sd);
	return d->shape == 1 ? 1000 / x : d->shape == 2 ? exp(x) : x;
}

struct tally {
	size_t steps, setups_failed, wrong, undecided, iterations;
};

/* nsteps steps, half with a good candidate and half with a bad one. */
static void simulate(enum sprt_kind kind, const struct dist *good, const struct dist *bad, size_t nref,
		     double alpha, size_t nmax, size_t nsteps, struct tally *t)
{
	double g[64], b[64];
	char why[256];

	*t = (struct tally){ 0 };
	for (size_t i = 0; i < nsteps; i++) {
		struct sprt s;
		for (size_t j = 0; j < nref; j++) {
			g[j] = draw(good);
			b[j] = draw(bad);
		}
		t->steps++;
		if (sprt_init(&s, kind, alpha, g, nref, b, nref, why, sizeof(why)) < 0) {
			t->setups_failed++;
			continue;
		}
		bool is_bad = i % 2;
		for (size_t n = 0; n < nmax && s.decision == SPRT_UNDECIDED; n++)
			sprt_add(&s, draw(is_bad ? bad : good));
		t->iterations += s.n;
		if (s.decision == SPRT_UNDECIDED)
			t->undecided++;
		else if ((s.decision == SPRT_BAD) != is_bad)
			t->wrong++;
	}
}

static double rate(size_t k, size_t n)
{
	return n ? (double)k / (double)n : NAN;
}

static void check_kind(const char *name, enum sprt_kind kind, const struct dist *good, const struct dist *bad,
		       size_t nref, double max_mean_iterations)
{
	struct tally t;

	for (double alpha = 0.01; alpha < 0.3; alpha *= 4) {
		simulate(kind, good, bad, nref, alpha, 40, 4000, &t);
		size_t run = t.steps - t.setups_failed;
		CHECK(t.setups_failed * 100 <= t.steps, "%s, alpha %.2f: the references set the test up (%zu of %zu failed)",
		      name, alpha, t.setups_failed, t.steps);
		CHECK(rate(t.wrong, run) <= alpha, "%s, alpha %.2f: wrong decisions %.4f <= alpha (%zu of %zu steps)", name,
		      alpha, rate(t.wrong, run), t.wrong, run);
		CHECK(rate(t.undecided, run) <= 0.02, "%s, alpha %.2f: it stops within 40 iterations (%zu undecided)",
		      name, alpha, t.undecided);
		CHECK(rate(t.iterations, run) <= max_mean_iterations, "%s, alpha %.2f: %.1f iterations a step on average",
		      name, alpha, rate(t.iterations, run));
	}
}

/* With references from one distribution the test must (almost always)
 * refuse to start: there is nothing to tell apart. */
static void check_no_difference(const char *name, enum sprt_kind kind, const struct dist *d, size_t nref)
{
	struct tally t;

	simulate(kind, d, d, nref, 0.01, 40, 2000, &t);
	CHECK(rate(t.setups_failed, t.steps) >= 0.98, "%s: references that do not differ set no test up (%zu of %zu)",
	      name, t.setups_failed, t.steps);
}

/* A candidate half way between the references: neither hypothesis, so the
 * test may go either way, but it must end by its budget. */
static void check_between(void)
{
	struct dist good = { 100, 5, 0 }, bad = { 115, 5, 0 }, mid = { 107.5, 5, 0 };
	double g[10], b[10];
	char why[256];
	size_t undecided = 0, steps = 0;

	for (int i = 0; i < 1000; i++) {
		struct sprt s;
		for (int j = 0; j < 10; j++) {
			g[j] = draw(&good);
			b[j] = draw(&bad);
		}
		if (sprt_init(&s, SPRT_MEANS, 0.01, g, 10, b, 10, why, sizeof(why)) < 0)
			continue;
		steps++;
		for (int n = 0; n < 20 && sprt_add(&s, draw(&mid)) == SPRT_UNDECIDED; n++)
			;
		undecided += s.decision == SPRT_UNDECIDED;
	}
	CHECK(undecided * 4 >= steps, "a candidate half way is often undecided (%zu of %zu steps)", undecided, steps);
}

static void check_setup_errors(void)
{
	struct sprt s;
	char why[256] = "";
	double a[] = { 1, 2, 3 }, b[] = { 10, 11, 12 }, z[] = { 0, 1, 2 }, c1[] = { 1, 1, 1 }, c3[] = { 3, 3, 3 };

	CHECK(sprt_init(&s, SPRT_MEANS, 0.01, a, 1, b, 3, why, sizeof(why)) < 0 && strstr(why, "too few"),
	      "one reference iteration is too few (%s)", why);
	CHECK(sprt_init(&s, SPRT_MEANS, 0.7, a, 3, b, 3, why, sizeof(why)) < 0, "alpha 0.7 is refused (%s)", why);
	CHECK(sprt_init(&s, SPRT_RECIPROCALS, 0.01, z, 3, b, 3, why, sizeof(why)) < 0 && strstr(why, "reciprocal"),
	      "a rate of 0 has no reciprocal (%s)", why);
	CHECK(sprt_init(&s, SPRT_MEANS, 0.01, a, 3, b, 3, why, sizeof(why)) < 0 && strstr(why, "too close"),
	      "three iterations a side cannot bound the means apart at alpha 0.01 (%s)", why);
	CHECK(sprt_init(&s, SPRT_MEANS, 0.01, c3, 3, c1, 3, why, sizeof(why)) == 0 && s.sign < 0,
	      "a bad reference below the good one is tested downwards (%s)", why);
	CHECK(sprt_add(&s, 1) == SPRT_BAD, "constant references: one iteration at the bad one decides");
	CHECK(sprt_add(&s, 3) == SPRT_BAD && s.n == 1, "a decision stays, later iterations ignored");
}

static void check_bounds(void)
{
	double steps[] = { sprt_step_bound(0.01), sprt_step_bound(0.01), sprt_step_bound(0.01) };

	CHECK_NEAR(sprt_step_bound(0.01), 0.01 / 0.99, 1e-15, "a step's bound is Wald's a/(1-a)");
	CHECK_NEAR(sprt_answer_bound(0.002, 0.01, steps, 3), 0.002 + 0.01 + 3 * 0.01 / 0.99, 1e-12,
		   "the answer's bound adds the confirmation, the references and the steps");
	CHECK_NEAR(sprt_answer_bound(0.9, 0.1, steps, 3), 1, 0, "the answer's bound is at most 1");
	CHECK_NEAR(sprt_answer_bound(NAN, 0.01, NULL, 0), 1, 0, "an unconfirmed difference bounds nothing");
}

int main(void)
{
	struct dist tg = { 100, 5, 0 }, tb = { 120, 5, 0 };       /* a time, 4 sd apart */
	struct dist rg = { 100, 5, 1 }, rb = { 120, 5, 1 };       /* a rate: 1000/time */
	struct dist pg = { 0, 0.3, 2 }, pb = { 1.2, 0.3, 2 };     /* a skewed percentile */

	prng_seed(&rng, 20261202);
	check_kind("means", SPRT_MEANS, &tg, &tb, 10, 8);
	check_kind("rates on reciprocals", SPRT_RECIPROCALS, &rg, &rb, 10, 8);
	check_kind("percentiles by ranks", SPRT_RANKS, &pg, &pb, 20, 12);
	check_no_difference("means", SPRT_MEANS, &tg, 10);
	check_no_difference("ranks", SPRT_RANKS, &pg, 20);
	check_between();
	check_setup_errors();
	check_bounds();
	T_DONE();
}
