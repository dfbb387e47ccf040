/* The comparison of runs against a base run, in the manner of mmtests'
 * compare-kernels: for every case and metric the base holds, a summary per
 * run, the change against the base and whether it is significant.
 *
 * Change is signed by the metric's better-direction, as mmtests signs it:
 * a positive percentage is an improvement, a negative one a regression
 * (for a time, 1234.5 -> 1010.2 is +18.17%).  Metrics with no direction get
 * the plain relative change, (run - base) / base.
 *
 * A difference is significant when Welch's t-test gives p < alpha; with
 * fewer than two iterations on either side it is `too_few` instead, and is
 * never called an improvement or a regression.  Only iterations that passed
 * are counted.  Cases and metrics that not every run holds are compared
 * where they exist and listed in `left_out`, as are cases the base lacks
 * and metrics that are zero in every iteration of every run (counters that
 * never moved), which get no row.
 *
 * The environment diff flattens each run's environment JSON into key paths
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
 * formatters.  Nothing here prints. */
#ifndef VMR_COMPARE_H
#define VMR_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "core/util.h"
#include "stats/stats.h"
#include "store/store.h"

enum cmp_verdict {
	CMP_SAME,         /* not significant (or the base column itself) */
	CMP_IMPROVED,     /* significant, in the better direction */
	CMP_REGRESSED,    /* significant, in the worse direction */
	CMP_CHANGED,      /* significant, metric has no better-direction */
	CMP_TOO_FEW,      /* fewer than two iterations on a side */
	CMP_MISSING,      /* this run lacks the case or metric */
};

struct cmp_cell {
	bool present;
	struct stats_summary s;
	double *values;          /* the iterations' values, s.n of them */
	double change_pct;       /* signed as above; 0 for the base */
	struct welch w;          /* against the base; too_few for the base */
	bool significant;
	enum cmp_verdict verdict;
};

struct cmp_row {
	char *case_name, *metric, *unit;
	enum better better;
	enum combine combine;
	struct cmp_cell *cells;  /* one per run, the base first */
};

struct cmp_env_diff {
	char *key;
	char **values;           /* one per run; "-" where a run lacks the key */
	bool hardware;           /* host, CPU, memory, NUMA: the runs ran on different machines */
};

struct compare_opts {
	double alpha;            /* 0.05 */
	const char *metrics;     /* fnmatch glob or NULL */
	const char *cases;
	bool only_significant;
};

struct comparison {
	size_t nruns;
	const struct run *const *runs;   /* borrowed; runs[0] is the base */
	char **labels;                   /* one short unique label per run */
	double alpha;
	size_t nrows, nenv;
	struct cmp_row *rows;
	struct cmp_env_diff *env;
	struct strlist left_out;         /* "case 'x' is only in run b", ... */
	bool emulated;                   /* a run ran in an emulated guest (matrix, TCG):
					    its times mean little, so counters lead */
};

/* Compare runs[1..n) against runs[0].  The runs must outlive cmp. */
void compare_runs(const struct run *const *runs, size_t n, const struct compare_opts *o,
		  struct comparison *cmp);
void compare_free(struct comparison *cmp);
const char *cmp_verdict_name(enum cmp_verdict v);
/* The signed change of value against base for a metric's direction. */
double cmp_change_pct(double base, double value, enum better b);

/* Flatten a JSON value into "path=value" pairs: keys joined by '.', array
 * elements as "[i]", scalars as their compact JSON text (strings bare).
 * Appends to keys/values (parallel lists). */
void cmp_json_flatten(const json_t *j, const char *prefix, struct strlist *keys, struct strlist *values);

#endif
