/* How many iterations a variant needs to see a given change, planned from
 * a stored group's spread (`vmregress plan`, docs/variance.md): per headline
 * metric of the comparison of the group's variants, the spread of what
 * compare tests (the blocks' log ratios for variants of one group, the
 * logs of each side otherwise), and the smallest count at which that test,
 * at the level BH holds a lone change to (alpha / m for m headline tests),
 * has 80% power for the change; and the time it takes, from the
 * iterations' own wall-clock time.  Nothing here prints. */
#ifndef VMR_STATS_PLAN_H
#define VMR_STATS_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/cmp_model.h"

struct plan_row {
	const char *case_name, *metric;   /* borrowed from the comparison */
	bool paired;                      /* planned for the paired test of blocks */
	bool rank;                        /* a rank test (percentiles): counted at 3/pi */
	size_t have;                      /* iterations (blocks) a variant the group had */
	double spread;                    /* sd of the tested logs: a relative spread */
	size_t need;                      /* iterations a variant; 0 when it cannot be said */
	size_t need_lo, need_hi;          /* need at the ends of the spread's 95% interval
					     (chi-square, have - 1 degrees of freedom): how
					     rough the plan is; 0 when it cannot be said */
	double iter_s;                    /* mean wall-clock time of one iteration, s */
};

struct plan {
	double effect, alpha;             /* the change to see (a fraction), the FDR */
	size_t m;                         /* headline tests of the family */
	size_t nvariants;
	size_t nrows;
	struct plan_row *rows;
	double total_s;                   /* every case at its largest need, every variant */
};

/* The fewest iterations a variant is planned for: --iterations auto's
 * minimum (three blocks). */
#define PLAN_MIN 3

/* The smallest n in [PLAN_MIN, 100000] at which the test (paired: one-sample
 * t of n blocks' log ratios; else Welch's of n a side; rank: counted at
 * 3/pi) has 80% power at level for a change of effect_log (a log ratio)
 * when what it tests has sd spread; 0 when no n does.  plan's count, and
 * --iterations auto --effect's stop (stats/precision.h). */
size_t plan_iterations(double effect_log, double spread, bool paired, bool rank, double level);
/* The smallest change (a log ratio) that test sees with 80% power at level
 * from n iterations a variant whose tested logs have sd spread. */
double plan_mde(size_t n, double spread, bool paired, bool rank, double level);

/* Plan from cmp (the group's variants compared, the base first). */
void plan_from_comparison(const struct comparison *cmp, double effect, struct plan *p);
void plan_free(struct plan *p);

#endif
