/* A bisection's parts without guests: the series file (every error names
 * its line), the search's rule (the middle, skips tried as git tries
 * them), and whole bisections over simulated candidates whose first bad is
 * known, with the real sequential test: over many of them the answers that
 * are wrong must stay under the bound each one states, and skips must
 * widen the answer to a range rather than hide it. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refs/prng.h"
#include "stats/bisect.h"
#include "vm/series.h"
#include "t.h"

static int parse(const char *text, struct kernel_series *s)
{
	fflush(stdout);
	return series_parse("series.txt", text, strlen(text), s);
}

static void check_series(void)
{
	struct kernel_series s;

	CHECK(parse("# oldest first\nlinux-image-6.1.0-57-cloud-amd64\n\n  /k/bzImage -- a=1  b=2  \n", &s) == 0 &&
		      s.n == 2, "a series of a package and a path with a command line");
	if (s.n == 2) {
		CHECK_STR(s.c[0].kernel, "linux-image-6.1.0-57-cloud-amd64", "the package is the first kernel");
		CHECK(s.c[0].append == NULL, "no '--': no command line");
		CHECK_STR(s.c[1].kernel, "/k/bzImage", "the path is the second kernel");
		CHECK_STR(s.c[1].append, "a=1  b=2", "the command line is what follows '--', trimmed");
		CHECK_STR(s.c[1].line, "/k/bzImage -- a=1  b=2", "the candidate's name is its line");
		CHECK_EQ_U(s.c[1].lineno, 4, "its line number counts comments and blanks");
		series_free(&s);
	}
	CHECK(parse("k1\nk2 k3\n", &s) < 0, "two kernels on a line are refused");
	CHECK(parse("k1\nk2 --\n", &s) < 0, "nothing after '--' is refused");
	CHECK(parse("k1\n-- a=1\n", &s) < 0, "a command line without a kernel is refused");
	CHECK(parse("k1\n", &s) < 0, "one candidate is too few");
	fflush(stdout);
	CHECK(series_parse("series.txt", "k1\nk2\0x\n", 7, &s) < 0, "a NUL byte is refused");
	CHECK(parse("k1 --a=1\nk2\n", &s) < 0, "'--a=1' without a space is not a command line");
	CHECK(parse("k1\nk2 -- x -- y\n", &s) == 0 && s.n == 2 && !strcmp(s.c[1].append, "x -- y"),
	      "only the first ' -- ' separates");
	series_free(&s);
}

static void check_pick(void)
{
	int st[9] = { 1, 0, 0, 0, 0, 0, 0, 0, 2 };

	CHECK_EQ_U(bisect_pick(st, 9, 0, 8), 4, "the middle first");
	st[4] = 3;
	CHECK_EQ_U(bisect_pick(st, 9, 0, 8), 3, "a skip: the nearer neighbour, the lower of two");
	st[3] = 3;
	CHECK_EQ_U(bisect_pick(st, 9, 0, 8), 5, "then the other");
	CHECK_EQ_U(bisect_pick(st, 9, 3, 4), 9, "adjacent good and bad: none left");
	int sk[4] = { 1, 3, 3, 2 };
	CHECK_EQ_U(bisect_pick(sk, 4, 0, 3), 4, "only skipped ones left: none");
}

/* A simulated series: candidate i's metric is normal(100, 5) before the
 * first bad and normal(120, 5) from it on; some candidates do not boot. */
struct sim {
	struct prng rng;
	size_t first_bad;
	unsigned noboot;          /* bit i: candidate i does not boot */
	struct sprt test;
	size_t nmax;
};

static double sim_normal(struct prng *r, double mean, double sd)
{
	double u = ((double)(prng_next(r) >> 11) + 0.5) * 0x1p-53, v = ((double)(prng_next(r) >> 11) + 0.5) * 0x1p-53;
	return mean + sd * sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static int sim_step(void *ctx, size_t i, double share_s, struct bisect_step *st)
{
	struct sim *s = ctx;
	struct sprt t = s->test;

	(void)share_s;
	st->cand = i;
	if (s->noboot >> i & 1) {
		st->skip = strdup("did not boot");
		return 0;
	}
	for (size_t k = 0; k < s->nmax && t.decision == SPRT_UNDECIDED; k++)
		sprt_add(&t, sim_normal(&s->rng, i >= s->first_bad ? 120 : 100, 5));
	st->decision = t.decision;
	st->iterations = t.n;
	st->bound = t.decision == SPRT_UNDECIDED ? 0 : sprt_step_bound(t.alpha);
	if (t.decision == SPRT_UNDECIDED)
		st->skip = strdup("undecided");
	return 0;
}

static void check_bisections(double alpha, unsigned noboot, const char *what)
{
	struct sim s = { .nmax = 30, .noboot = noboot };
	size_t wrong = 0, found = 0, ranges = 0, ranges_wrong = 0, runs = 2000, steps = 0;
	double bound_sum = 0, g[10], b[10];
	char why[256];

	prng_seed(&s.rng, 31);
	for (size_t k = 0; k < runs; k++) {
		struct bisect_result res = { .alpha = alpha, .q = 0 };
		s.first_bad = 1 + k % 8;
		for (int j = 0; j < 10; j++) {
			g[j] = sim_normal(&s.rng, 100, 5);
			b[j] = sim_normal(&s.rng, 120, 5);
		}
		if (sprt_init(&s.test, SPRT_MEANS, alpha, g, 10, b, 10, why, sizeof(why)) < 0)
			continue;
		res.good.cand = 0;
		res.bad.cand = 8;
		bisect_search(&res, 9, INFINITY, sim_step, &s);
		bisect_bound(&res);
		steps += res.nsteps;
		if (res.end == BISECT_FOUND) {
			found++;
			bound_sum += res.bound;
			wrong += res.first_bad != s.first_bad;
		} else if (res.end == BISECT_RANGE) {
			ranges++;
			ranges_wrong += !(res.last_good < s.first_bad && s.first_bad <= res.first_bad);
		}
		bisect_result_free(&res);
	}
	CHECK(found > runs / 2, "%s: most bisections find a first bad (%zu of %zu, %zu ranges, %.1f steps each)", what,
	      found, runs, ranges, (double)steps / (double)runs);
	CHECK((double)wrong <= bound_sum, "%s: wrong answers %zu <= the bounds they stated (sum %.1f over %zu)", what,
	      wrong, bound_sum, found);
	CHECK(ranges_wrong == 0 || (double)ranges_wrong <= (double)ranges * alpha * 4,
	      "%s: a range holds the first bad (%zu of %zu do not)", what, ranges_wrong, ranges);
}

static void check_range(void)
{
	struct sim s = { .nmax = 30, .noboot = 1u << 4 | 1u << 3 };
	struct bisect_result res = { .alpha = 0.01 };
	double g[10], b[10];
	char why[256];

	prng_seed(&s.rng, 7);
	s.first_bad = 4;
	for (int j = 0; j < 10; j++) {
		g[j] = sim_normal(&s.rng, 100, 5);
		b[j] = sim_normal(&s.rng, 120, 5);
	}
	if (sprt_init(&s.test, SPRT_MEANS, 0.01, g, 10, b, 10, why, sizeof(why)) < 0) {
		SKIP_WHY("a first bad among skipped candidates", "%s", why);
		return;
	}
	res.bad.cand = 8;
	bisect_search(&res, 9, INFINITY, sim_step, &s);
	CHECK(res.end == BISECT_RANGE && res.last_good == 2 && res.first_bad == 5,
	      "a first bad among candidates that do not boot is a range #3..#6 (%s, %zu..%zu)", bisect_end_name(res.end),
	      res.last_good + 1, res.first_bad + 1);
	bisect_result_free(&res);
}

/* A budget already spent: no step, the answer is the references' range. */
static void check_budget(void)
{
	struct sim s = { .nmax = 30 };
	struct bisect_result res = { .alpha = 0.01 };

	res.bad.cand = 8;
	bisect_search(&res, 9, bisect_now() - 1, sim_step, &s);
	CHECK(res.end == BISECT_BUDGET && res.nsteps == 0 && res.last_good == 0 && res.first_bad == 8,
	      "a spent budget ends the search before a step (%s, %zu steps)", bisect_end_name(res.end), res.nsteps);
	bisect_result_free(&res);
}

int main(void)
{
	check_series();
	check_pick();
	check_bisections(0.01, 0, "alpha 0.01");
	check_bisections(0.1, 0, "alpha 0.1");
	check_bisections(0.1, 1u << 4, "alpha 0.1, the middle does not boot");
	check_range();
	check_budget();
	T_DONE();
}
