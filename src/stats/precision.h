/* When to stop adding iterations: `run --iterations auto --precision P
 * --budget T`.
 *
 * After each block of iterations (one of every variant, so that an
 * interleaved run stays balanced) the runner asks whether to go on.  The
 * precision of a metric is the half-width of the 95% confidence interval
 * of its mean, t(n-1, 0.975) * s / sqrt(n), relative to the mean: the
 * figure `compare` prints as ±.  The run stops
 *
 *   "precision"  when every headline metric of every variant is within the
 *                target (and each variant has its minimum of iterations);
 *   "effect"     with an effect to see instead (--effect): when each
 *                headline metric has had the iterations compare's test
 *                needs to see that change with 80% power, counted from the
 *                spread so far as `vmregress plan` counts from a group's
 *                (stats/plan.h), so that the two agree;
 *   "budget"     when the time spent on the case, plus one more block at
 *                the mean block's time so far, would pass the budget;
 *   "max"        at the most iterations a case may have;
 *   "no headline figure"  after the minimum, when no headline figure was
 *                measured (none declared, or every iteration skipped).
 *
 * The minimum comes first: a case always gets min_iterations per variant,
 * budget or not, as a variance from fewer says nothing.  A metric that is
 * constant (s = 0) has precision 0; one whose mean is 0, or with fewer than
 * two values, has none (INFINITY) and keeps the run going.  Pure: no clock,
 * no I/O; the caller passes the times. */
#ifndef VMR_PRECISION_H
#define VMR_PRECISION_H

#include <stdbool.h>
#include <stddef.h>

enum precision_stop {
	PRECISION_GO,         /* another block */
	PRECISION_MET,        /* "precision" */
	PRECISION_EFFECT,     /* "effect" */
	PRECISION_BUDGET,     /* "budget" */
	PRECISION_MAX,        /* "max" */
	PRECISION_NONE,       /* "no headline figure": none measured (none
			       * declared, or every iteration skipped) */
};

struct precision_rule {
	double target;        /* relative half-width, 0.02 for 2% */
	double budget_s;      /* seconds for the case, all variants' blocks */
	long min_iterations;  /* per variant, at least 2 */
	long max_iterations;  /* per variant */
	double effect;        /* > 0: the effect rule, this change (0.05 for 5%) */
	bool seen;            /* the effect rule: precision_effect_seen of every
			       * headline metric */
};

/* Whether compare's test would see a change of effect (a fraction) at
 * level with 80% power from the n values so far, as plan counts
 * (stats/plan.h): with y, from the pairs' log ratios log(y/x) (blocks of
 * two variants, the paired test); without, from x's logs (a run against
 * a like one, Welch's).  rank: a metric compare tests by rank
 * (compare_rank_tested).  False while it cannot say (fewer than three
 * values above 0). */
bool precision_effect_seen(const double *x, const double *y, size_t n, double effect, double level, bool rank);

/* The relative 95% half-width of x[0..n): INFINITY when n < 2 or the mean
 * is 0, 0 when every value is the same. */
double precision_of(const double *x, size_t n);

/* Whether to run another block, after iterations per variant, elapsed_s
 * seconds spent on the case in blocks blocks, with reached[0..nmetrics)
 * each headline metric's precision_of (every variant's metrics in one
 * array). */
enum precision_stop precision_decide(const struct precision_rule *rule, const double *reached, size_t nmetrics,
				     long iterations, double elapsed_s, long blocks);

/* "2%" or "0.02" into *fraction (0 < P < 1).  0, or -1 when it is
 * neither (the caller names the input). */
int precision_parse(const char *text, double *fraction);

/* The figures of one configuration's iterations of a case, one series per
 * metric name, in the order first seen. */
struct precision_series {
	char *metric;
	size_t n;
	double *v;
};

struct precision_track {
	size_t n;
	struct precision_series *s;
};

void precision_track_add(struct precision_track *t, const char *metric, double v);
void precision_track_free(struct precision_track *t);

/* "precision", "budget", "max", or NULL for PRECISION_GO. */
const char *precision_stop_name(enum precision_stop s);

#endif
