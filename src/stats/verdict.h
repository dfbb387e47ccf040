/* Inside stats/: the test of one cell of a comparison against its base,
 * and the verdict of docs/statistics.md once the family's q-values are
 * known (compare.c calls them in that order). */
#ifndef VMR_STATS_VERDICT_H
#define VMR_STATS_VERDICT_H

#include "stats/cmp_model.h"

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
/* The sd of the logs a test of c against base sees: of each block's log
 * ratio when paired, else pooled over both sides' logs.  NAN when a value
 * is not above 0 or there are fewer than 2. */
double compare_log_spread(const struct cmp_cell *c, const struct cmp_cell *base, bool paired);
/* What the A/A comparison ref holds of a case and metric (found false when
 * it lacks them, or they have too few values). */
struct cmp_ref_noise compare_ref_noise(const struct comparison *ref, const char *case_name, const char *metric);
/* compare_mde with the spread of row->ref in place of the cell's own, at
 * the cell's iterations: the change this comparison would call with 80%
 * power were its spread the A/A group's. */
void compare_mde_ref(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row, double alpha);

#endif
