/* Inside stats/: the test of one cell of a comparison against its base,
 * and the verdict of docs/statistics.md once the family's q-values are
 * known (compare.c calls them in that order). */
#ifndef VMR_STATS_VERDICT_H
#define VMR_STATS_VERDICT_H

#include "stats/compare.h"

/* Welch (or, paired, the paired t-test) on the means, rates on their
 * reciprocals; the ratio's interval on the log scale. */
void compare_welch(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row);
/* Mann-Whitney U (or, paired, the signed-rank test) and a bootstrap
 * interval of the ratio of medians. */
void compare_mwu(struct cmp_cell *cell, const struct cmp_cell *base);
/* The verdict of a cell whose q is known. */
void compare_cell_verdict(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row,
			  const struct comparison *cmp, double level);
/* The minimal detectable effect of a headline cell at level alpha. */
void compare_mde(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row, double alpha);

#endif
