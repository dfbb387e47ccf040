/* The comparison as data: the types compare_runs fills (rows of cells,
 * the environment diff, what was left out, the trust warnings, the tally)
 * and its options, with the few lookups every part of it uses (a run's
 * case, a glob, whether two runs were interleaved, the names of the
 * verdicts and of the reasons to leave out).  compare.c orchestrates;
 * envdiff.c, trust.c and verdict.c each compute a part of the struct from
 * what they are given; all of them build on this file, which calls none
 * of them.  Nothing here prints. */
#ifndef VMR_STATS_CMP_MODEL_H
#define VMR_STATS_CMP_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/result.h"
#include "core/run.h"
#include "core/util.h"
#include "stats/stats.h"

enum cmp_verdict {
	CMP_SAME,         /* not significant (or the base column itself) */
	CMP_IMPROVED,     /* significant, in the better direction */
	CMP_REGRESSED,    /* significant, in the worse direction */
	CMP_CHANGED,      /* significant, metric has no better-direction */
	CMP_TOO_FEW,      /* fewer than two iterations on a side */
	CMP_MISSING,      /* this run lacks the case or metric */
	CMP_UNSTABLE,     /* cannot tell: no finding, and the interval reaches beyond the floor */
};

enum cmp_test { CMP_TEST_WELCH, CMP_TEST_MWU };

/* Fewer iterations than this on a side: too few to call a change (LKP's
 * three). */
#define CMP_MIN_ITERATIONS 3

struct cmp_cell {
	bool present;
	struct stats_summary s;
	double *values;          /* the iterations' values, s.n of them */
	double median;           /* their median, for CMP_TEST_MWU rows; NAN elsewhere */
	double change_pct;       /* (run - base) / |base|, in percent; 0 for the base */
	struct welch w;          /* against the base; too_few for the base */
	struct mwu mw;           /* against the base, for CMP_TEST_MWU rows */
	double ratio;            /* run / base: means by the combine rule, medians for
				    CMP_TEST_MWU; 1 for the base, NAN from a base of 0 */
	double ci_low, ci_high;  /* its 95% confidence interval; NAN when too few */
	double p, q;             /* the row's test and its BH q-value; NAN for the base */
	double noise_floor;      /* fraction: the opts noise minimum for variants of one
				    interleaved group (interleaved), else max(it, CV of
				    base, CV of run) */
	bool interleaved;        /* run and base are variants of one group, their
				    iterations interleaved: the machine's drift falls on
				    both, and the noise floor is the minimum alone */
	bool paired;             /* interleaved, with CMP_MIN_ITERATIONS or more blocks where
				    both passed: tested on the blocks' differences, by the
				    paired t-test (Welch rows) or the Wilcoxon signed-rank
				    test (Mann-Whitney rows) */
	struct wsr wsr;          /* that signed-rank test, for paired CMP_TEST_MWU cells */
	size_t npairs;           /* those blocks */
	double *pair_base, *pair_run; /* their values, block by block */
	double mde;              /* headline cells: the smallest change (fraction) the test
				    would call with 80% power, never below the noise floor;
				    NAN elsewhere (docs/statistics.md) */
	bool abs_change;         /* a percentage would mislead (base near 0, counts under
				    10): formatters show run - base instead */
	bool noisy;              /* a side's CV is above the unstable threshold (shown
				    beside a finding, which it does not change) */
	bool noise_ref;          /* noise floor and MDE from the A/A reference's spread
				    (compare_opts.noise_ref) */
	size_t settle_n;         /* unstable cells: iterations a side (blocks, paired) at
				    which the interval would settle if the change and the
				    spread held; 0 when it cannot be said */
	bool significant;        /* verdict is improved, regressed or changed */
	enum cmp_verdict verdict;
};

/* What an A/A reference group measured of one case and metric: the larger
 * CV of its variants, and the sd of the logs its test saw, per side
 * (pooled) and of the blocks' log ratios (paired). */
struct cmp_ref_noise {
	bool found;
	double cv, sd_side, sd_pair;
};

struct cmp_row {
	char *case_name, *metric, *unit;
	struct cmp_ref_noise ref; /* from compare_opts.noise_ref, for headline rows */
	enum better better;
	enum combine combine;
	bool headline;           /* a figure the workload declares its own */
	enum cmp_test test;
	struct cmp_cell *cells;  /* one per run, the base first */
};

struct cmp_env_diff {
	char *key;
	char **values;           /* one per run; "-" where a run lacks the key */
	bool hardware;           /* host, CPU, memory, NUMA: the runs ran on different machines */
};

struct compare_opts {
	double alpha;            /* the false-discovery rate, 0.05 */
	const char *metrics;     /* fnmatch glob or NULL */
	const char *cases;
	bool only_significant;
	double noise_min;        /* the noise floor's minimum, a fraction (0: 0.01) */
	double unstable_cv;      /* the CV above which a cell is marked noisy (0: 0.20) */
	/* Whether a workload declares metric a headline one; NULL: none does. */
	bool (*headline)(const char *workload, const char *metric);
	const char *headline_glob;          /* metrics that are headline too, or NULL */
	/* Environment keys (fnmatch globs) that the runs were meant to differ
	 * in (a variant's own settings): not flagged.  NULL-terminated or NULL. */
	const char *const *setting_keys;
	/* An A/A group's variants compared (their settings alike), whose
	 * spread gives each headline row it holds its noise floor (the larger
	 * of noise_min and the group's CV) and its minimal detectable effect
	 * (at this comparison's iterations); noise_ref_name names it.  NULL:
	 * each comparison's own spread. */
	const struct comparison *noise_ref;
	const char *noise_ref_name;
};

/* What a comparison left out, and why: data, which the formatters render
 * (compare_left_text in report/compare_fmt.h for people). */
enum cmp_left_why {
	CMP_LEFT_NO_PASS,        /* metric of case has no passing iteration in run */
	CMP_LEFT_ZERO,           /* metrics of case are zero in every run */
	CMP_LEFT_FAILED,         /* count of the case's iterations in run did not pass */
	CMP_LEFT_ONLY_IN_RUN,    /* case (or metric of case) is in run, not in the base */
	CMP_LEFT_NOT_IN_RUN,     /* case of the base is not in run */
	CMP_LEFT_WARMUP,         /* count of the case's iterations in run were warm-ups */
};

struct cmp_left {
	enum cmp_left_why why;
	char *case_name;
	char *metric;            /* the one metric it is about, or NULL */
	char *run;               /* the run's label, or NULL (ZERO: every run) */
	size_t count, of;        /* FAILED, WARMUP: such iterations, of all */
	struct strlist metrics;  /* ZERO: the metrics */
};

/* The reason's name in JSON: "no-passing-iteration", "zero-in-every-run",
 * "did-not-pass", "only-in-run", "not-in-run", "warm-up". */
const char *compare_left_reason(enum cmp_left_why why);

/* What the runs record that can move their figures without the change
 * compared: the verdict's trust warnings. */
enum cmp_trust_kind {
	CMP_TRUST_INCOMPLETE,    /* runs: a run that did not complete; detail: its status */
	CMP_TRUST_APART,         /* runs: not interleaved with the base (runs made apart) */
	CMP_TRUST_KDAMOND,       /* runs: a kdamond was on with a reclaiming scheme (detail) */
	CMP_TRUST_SANDBOXES,     /* runs: count other sandboxes were live when they started */
	CMP_TRUST_CASES,         /* detail: the --cases glob; count: the headline tests left */
	CMP_TRUST_HUGEPAGE,      /* runs: host-wide khugepaged collapses and compaction stalls
				    beyond CMP_TRUST_HUGEPAGE_MIN an iteration; count: the
				    collapses, stalls: the stalls, over those runs' iterations */
	CMP_TRUST_STEAL,         /* runs: the host's CPU steal above CMP_TRUST_STEAL_PCT of its
				    CPU time; share: the largest of theirs, in percent */
};

/* The share of the host's CPU time a hypervisor stole during a run's
 * passing iterations (metric host-steal, weighted by each one's elapsed
 * time), in percent, above which a run is named: the workload and the
 * kernel's threads waited for CPUs the measurement counts as theirs. */
#define CMP_TRUST_STEAL_PCT 5.0

/* Host-wide khugepaged collapses (vmstat thp_collapse_alloc) plus
 * compaction stalls (compact_stall) a passing iteration, on average, above
 * which a run is named: they copy and move pages behind the measurement
 * (the run's own may be among them: the counters are host-wide). */
#define CMP_TRUST_HUGEPAGE_MIN 1.0

struct cmp_trust {
	enum cmp_trust_kind kind;
	struct strlist runs;     /* the labels of the runs concerned */
	char *detail;
	size_t count;
	size_t stalls;           /* HUGEPAGE: the compaction stalls */
	double share;            /* STEAL: the largest share, in percent */
};

/* The headline cells of a comparison, counted by verdict. */
struct cmp_tally {
	size_t regressed, improved, same, unstable, too_few, changed, missing;
};

struct comparison {
	size_t nruns;
	const struct run *const *runs;   /* borrowed; runs[0] is the base */
	char **labels;                   /* one short unique label per run */
	double alpha;
	size_t nrows, nenv;
	struct cmp_row *rows;
	struct cmp_env_diff *env;
	struct cmp_left *left_out;       /* what was left out, and why */
	size_t nleft;
	bool emulated;                   /* a run ran in an emulated guest (matrix, TCG):
					    its times mean little, so counters lead */
	double noise_min, unstable_cv;   /* as used */
	size_t ninterleaved;             /* runs[1..) interleaved with the base (cell.interleaved) */
	struct cmp_tally tally;          /* headline cells against the base */
	struct strlist env_flags;        /* "kernel.release: 6.1 | 6.5": environment that
					    differs beyond the settings compared */
	struct cmp_trust *trust;         /* the trust warnings, in order */
	size_t ntrust;
	char *noise_from;                /* compare_opts.noise_ref_name, or NULL */
	size_t noise_from_rows;          /* headline rows whose floor and MDE it gave */
	const struct comparison *noise_ref; /* during compare_runs only */
	size_t nshared;                  /* cases with a passing iteration in the base and
					    in some other run: 0, and nothing was compared */
};

const char *cmp_verdict_name(enum cmp_verdict v);
/* Whether r's iterations ran interleaved with base's: both runs of one
 * group, unless the group's runs say they were made apart (a bisection's
 * boots, environment key "bisect": one boot each, minutes apart). */
bool compare_interleaved(const struct run *base, const struct run *r);
/* The case of run r named name, or NULL. */
const struct run_case *compare_find_case(const struct run *r, const char *name);
/* Whether s matches the fnmatch glob pattern; a NULL pattern matches all. */
bool compare_glob(const char *pattern, const char *s);

#endif
