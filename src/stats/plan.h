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

#include "stats/compare.h"

struct plan_row {
	const char *case_name, *metric;   /* borrowed from the comparison */
	bool paired;                      /* planned for the paired test of blocks */
	bool rank;                        /* a rank test (percentiles): counted at 3/pi */
	size_t have;                      /* iterations (blocks) a variant the group had */
	double spread;                    /* sd of the tested logs: a relative spread */
	size_t need;                      /* iterations a variant; 0 when it cannot be said */
	double iter_s;                    /* mean wall-clock time of one iteration, s */
	double cv;                        /* the larger CV of the variants' values */
	double auto_precision;            /* the precision (relative 95% half-width of a
					     variant's mean, stats/precision.h) that values
					     of that CV reach at need iterations: the
					     --precision at which --iterations auto stops
					     there; NAN when need is 0 */
};

struct plan {
	double effect, alpha;             /* the change to see (a fraction), the FDR */
	size_t m;                         /* headline tests of the family */
	size_t nvariants;
	size_t nrows;
	struct plan_row *rows;
	double total_s;                   /* every case at its largest need, every variant */
	double auto_precision;            /* the smallest of the rows': --iterations auto
					     with it runs every case at least its need */
};

/* Plan from cmp (the group's variants compared, the base first). */
void plan_from_comparison(const struct comparison *cmp, double effect, struct plan *p);
void plan_free(struct plan *p);
/* The precision that values of coefficient of variation cv reach at n
 * iterations: t(n-1, 0.975) * cv / sqrt(n), precision_of's rule. */
double plan_precision_at(double cv, size_t n);

#endif
