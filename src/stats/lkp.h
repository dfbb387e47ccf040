/* LKP's way of reading a comparison (lkp-tests' lib/stats.rb and
 * lib/changed_stat.rb), computed beside vmregress's own so that a user can
 * see where the two disagree and why.
 *
 * The table: each side's arithmetic mean and its standard deviation as a
 * percentage of the mean (the population deviation, divisor n, as LKP's
 * statistics.rb has it), and the change of the means in percent.
 *
 * The mark: LKP calls a metric changed when
 *   - one side or the other has at least 3 samples (a metric with fewer on
 *     both sides is not looked at);
 *   - after sorting each side and trimming n/32 samples from each end (at
 *     most 3 from the base, at most 1 from the other side when the base has
 *     3 or fewer), the ranges do not overlap past the middle: the lower
 *     side's largest value is below the higher side's middle value and the
 *     higher side's smallest value is above the lower side's middle
 *     ("mean" in LKP's code is the middle element of the sorted samples);
 *   - the ratio of the two middle values exceeds 1.01;
 *   - the change passes the metric's threshold: counters of /proc/vmstat
 *     must reach 1000 on some side (nr_* ones 100, with a difference of at
 *     least 50), fault and context-switch counts 1000 (difference 500).
 * LKP's own test figures (throughput and the like) have no threshold beyond
 * the 1%.  Nothing here prints. */
#ifndef VMR_LKP_H
#define VMR_LKP_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/cmp_model.h"

/* LKP's least number of samples, on one side at least. */
#define LKP_MIN_SAMPLES 3

struct lkp_side {
	size_t n;
	double mean, stddev_pct;     /* all samples */
	double min, mid, max;        /* after trimming */
};

enum lkp_mark {
	LKP_BASE,          /* the base column */
	LKP_CHANGED,       /* LKP would report it */
	LKP_OVERLAP,       /* the trimmed ranges overlap past the middle */
	LKP_SMALL,         /* the middles differ by 1% or less */
	LKP_THRESHOLD,     /* below the metric's threshold */
	LKP_TOO_FEW,       /* fewer than 3 samples on both sides */
	LKP_MISSING,       /* no samples on a side */
};

struct lkp_cell {
	struct lkp_side s;
	double change_pct;           /* 100 (mean - base mean) / base mean; NAN for the base */
	enum lkp_mark mark;
};

/* Why vmregress's verdict and LKP's mark differ on a cell, if they do. */
enum lkp_why {
	LKP_AGREE,
	LKP_WHY_Q,             /* LKP marks it; vmregress's test is not significant at the FDR */
	LKP_WHY_FLOOR,         /* LKP marks it; the change is below vmregress's noise floor */
	LKP_WHY_UNSTABLE,      /* LKP marks it; a side is too noisy for vmregress to call */
	LKP_WHY_FEW,           /* LKP marks it on one side's 3 samples; vmregress needs 3 on both */
	LKP_WHY_RANGES,        /* vmregress calls it; LKP's trimmed ranges overlap */
	LKP_WHY_LKP_SMALL,     /* vmregress calls it; LKP's 1% or the metric's threshold drops it */
	LKP_WHY_LKP_FEW,       /* vmregress calls it; LKP sees too few samples */
};

/* Summarize a side; max_margin bounds the trimming at each end. */
void lkp_side(const double *v, size_t n, size_t max_margin, struct lkp_side *out);
/* LKP's mark of run against base for a metric named as vmregress names it. */
void lkp_cell(const double *base, size_t nb, const double *run, size_t nr, const char *metric,
	      struct lkp_cell *out);
/* The LKP cells of row r of a comparison, one per run (cells[0] the base). */
void lkp_row(const struct comparison *cmp, size_t r, struct lkp_cell *cells);
/* Whether the two verdicts on cell i of row r differ, and why. */
enum lkp_why lkp_disagreement(const struct comparison *cmp, size_t r, size_t i, const struct lkp_cell *c);

#endif
