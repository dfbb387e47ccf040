/* Bisection over a series of kernels on a noisy metric (`vmregress
 * bisect`).  Every candidate is booted as the matrix boots its guests
 * (vm/matrix.h), running one case of a suite; each boot is stored as a run
 * of the bisection's group (its name), the candidate's series position its
 * variant index, so list, compare and report see the group.
 *
 * 1. The good and the bad references are measured and compared by
 *    compare's rules (stats/compare.h: FDR at alpha, the noise floor of
 *    runs made apart, the minimal detectable effect); if they do not
 *    differ there is nothing to bisect.
 * 2. A binary search, each step a sequential test (stats/sprt.h) fed boot
 *    by boot (batch iterations a boot) until it decides, the step's share
 *    of the budget is spent or its most iterations are reached.  A
 *    candidate that does not boot or stays undecided is skipped as git
 *    does: the candidate nearest the middle among those left is tried.
 * 3. The answer (last good, first bad, or the range the skips leave) and
 *    the bound on the probability it is wrong (sprt_answer_bound).
 *
 * Nothing here prints but the progress lines on stderr; report/bisect_fmt
 * formats the result. */
#ifndef VMR_BISECT_H
#define VMR_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "stats/bisect.h"
#include "vm/matrix.h"
#include "vm/series.h"

struct bisect_boot_out;

struct bisect_opts {
	struct matrix_opts m;     /* the guests, as matrix's options; m.name is the bisection's */
	char *series_file, *case_name, *metric;
	double alpha;
	uint64_t budget_ns;
	long good, bad;           /* series positions, 1-based; 0: the first and the last */
	char *good_spec, *bad_spec; /* as given: positions, or bisect start's kernels */
	char *kernel, *append, *reference; /* bisect run */
	long references;          /* iterations of each reference */
	long batch;               /* iterations a boot, for the steps */
	long max_iterations;      /* a step's most */
	/* not options */
	struct bisect_boot_out *out; /* the last boot's outcome */
	bool start;               /* bisect start: the references only */
	bool git;                 /* bisect start/run, for git bisect run: candidates are not a series */
	json_t *echo;             /* the options as given, kept with the references for bisect run */
};

/* Run the bisection o describes over series s into res.  Returns an exit
 * code: 0 when res is filled (whatever it found), 2 or 3 after a one-line
 * error (a reference that does not run, a metric the case lacks), 128+N
 * when interrupted. */
int bisect_host(struct bisect_opts *o, const struct kernel_series *s, struct bisect_result *res);
/* One step of `bisect run`: candidate 0 of s (one line) measured and
 * tested against res's references and test (bisect_load), stored in
 * res->group_uuid's group as variant index + 1; appended to res->steps,
 * res->bound updated.  An exit code as bisect_host's. */
int bisect_host_step(struct bisect_opts *o, const struct kernel_series *s, struct bisect_result *res,
		     size_t index);

/* A bisection read back from its group: its references, confirmation,
 * test and steps as stored in each run's environment ("bisect"), for
 * `bisect run` and `bisect show`. */
struct bisect_loaded {
	struct bisect_result res;      /* cands point into cands below */
	struct bisect_candidate *cands;
	size_t ncands;
	char *verdict;
	json_t *options;               /* the options the references were made with */
	bool git;                      /* made by bisect start: steps from git bisect run */
	size_t next_index;             /* the group's variant index a new step takes */
};

/* Load the bisection of group name from the store at db (NULL: the
 * default).  An exit code, after a one-line error. */
int bisect_load(const char *db, const char *name, struct bisect_loaded *L);
/* Name candidate i (0-based) of L as c says, unless it has a name. */
void bisect_loaded_add(struct bisect_loaded *L, size_t i, const struct bisect_candidate *c);
void bisect_loaded_free(struct bisect_loaded *L);

#endif
