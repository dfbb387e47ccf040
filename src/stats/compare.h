/* The comparison of runs against a base run, in the manner of mmtests'
 * compare-kernels: for every case and metric the base holds, a summary per
 * run, the change against the base and whether it is significant.
 *
 * Change has one sign everywhere: after over before minus one, (run -
 * base) / base, so a time that fell is negative (1234.5 -> 1010.2 is
 * -18.17%) and a rate that rose positive; the verdict (improved or
 * regressed, by the metric's better-direction) says which way is better.
 *
 * Each cell against the base carries the change as a ratio of the run's
 * figure to the base's with a 95% confidence interval, a p-value and the
 * Benjamini-Hochberg q-value, and a verdict by the rule of
 * docs/statistics.md: regressed or improved only when q < the FDR, the
 * change exceeds the noise floor (a stated minimum; for runs that were not
 * interleaved with the base, the larger of that and either side's
 * coefficient of variation) and both sides have enough iterations, however
 * noisy the iterations (a CV above the unstable threshold marks the cell
 * noisy, no more); unstable ("cannot tell") when there is no finding and
 * the interval reaches beyond the floor, so that it spans both no change
 * and a change larger than the floor; same when it lies within the floor.
 * The interval of a ratio of positive quantities is on the log scale.  Means are
 * tested by Welch (rates on their reciprocals, which the harmonic mean
 * averages), or, for variants of one interleaved group, by the paired
 * t-test of the differences within each block of the plan (percentiles by
 * the signed-rank test of them), percentiles and maxima by Mann-Whitney U with a bootstrap
 * interval of the ratio of medians.  The verdict of a comparison is on the
 * headline metrics (those the workload declares, see opts->headline); the
 * others are explanations of the headline changes beside them.  Only
 * iterations that passed are counted.  Cases and metrics that not every run holds are compared
 * where they exist and listed in `left_out`, as are cases the base lacks
 * and metrics that are zero in every iteration of every run (counters that
 * never moved), which get no row.
 *
 * The environment diff (envdiff.h) flattens each run's environment JSON into key paths
 * ("sysctl.vm.page-cluster", "swap[0].type") and keeps the keys whose values
 * are not all the same; each case's options count as settings too, as
 * "case.NAME.OPTION".  An option naming the reference trace a case replayed
 * is compared by the trace's header as the case recorded it (description,
 * pages, references, seed, checksum), not by the file's path, which a
 * run's refs-generate makes anew every time.
 *
 * When any run was emulated (env.matrix.emulated, a matrix guest under
 * TCG), absolute times say more about the emulator than the kernel: each
 * case's rows are reordered so that counters (faults, swap-ins, Refd,
 * refaults) come before times and rates, and cmp->emulated says so for the
 * formatters.
 *
 * The comparison's types are cmp_model.h's.  compare.c orchestrates: it
 * fills the rows and the left-out list and calls envdiff.c (the
 * environment), verdict.c (each cell's test and verdict) and trust.c (the
 * trust warnings), which compute from what they are given and never call
 * compare.c back.  Nothing here prints. */
#ifndef VMR_COMPARE_H
#define VMR_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/cmp_model.h"

/* Compare runs[1..n) against runs[0].  The runs must outlive cmp. */
void compare_runs(const struct run *const *runs, size_t n, const struct compare_opts *o,
		  struct comparison *cmp);
void compare_free(struct comparison *cmp);
/* The change of value against base in percent, (value - base) / |base|:
 * after over before minus one, whatever the metric's better-direction. */
double cmp_change_pct(double base, double value);

/* The ratio as a signed percentage, (ratio - 1) * 100. */
double cmp_ratio_pct(double ratio);
/* Up to max rows (indices into cmp->rows) that explain a headline change of
 * row r in run i: the same case's other metrics that changed in that run,
 * largest relative change first.  Returns how many. */
size_t cmp_explain(const struct comparison *cmp, size_t r, size_t i, size_t *out, size_t max);

/* Percentiles and maxima of an iteration are not normal across
 * iterations (a few slow events move them): compare tests them by rank
 * (signed-rank, Mann-Whitney), not by t. */
bool compare_rank_tested(const char *metric);

#endif
