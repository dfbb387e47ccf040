/* Running the plan of `vmregress run`: the command (cmd/run.c) parses,
 * prepares the configurations (a suite, or one per variant), begins their
 * runs in the store and prints; run_case runs one case of every
 * configuration and stores each iteration as it ends. */
#ifndef VMR_HARNESS_RUN_H
#define VMR_HARNESS_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/plan.h"
#include "harness/progress.h"
#include "harness/suite.h"
#include "sandbox/sandbox.h"
#include "stats/precision.h"
#include "store/store.h"

/* iterations = auto: the most iterations per variant, and what makes
 * the least (stats/precision.h). */
#define RUN_AUTO_MAX 1000
#define RUN_AUTO_MIN 3

struct run_opts;

/* One configuration of the suite being run: the suite itself, or one of
 * the variants of an interleaved run, each stored as a run of its own. */
struct run_var {
	struct suite *suite;
	const struct variant *variant;  /* NULL: a run of one configuration */
	char *name;                     /* the stored run's name (NULL: the default) */
	int64_t run_id;
	int64_t *case_ids;
	json_t *out;                    /* --json: cases with their results */
	struct precision_track track;   /* iterations auto: the case's headline figures */
	json_t *stops;                  /* iterations auto: {CASE: why it stopped, ...} */
	json_t *reached;                /* and {"CASE.METRIC": precision reached, ...} */
	size_t stored;                  /* iterations stored so far */
};

/* The state of one run in progress. */
struct run_state {
	const struct run_opts *o;       /* the command's options (opaque here) */
	struct store *st;
	size_t nvars;
	struct run_var *vars;
	struct store_group group;       /* uuid NULL: not a group */
	json_t *plan;                   /* the group's, as stored */
	int64_t seq;                    /* iterations begun so far, over the group */
	struct sandbox *sb;
	json_t *sb_echo;                /* the open sandbox's configuration */
	struct progress *prog;
	bool any_failed;
	json_t *env;                    /* the environment stored with the runs */
	uint64_t auto_spent_ns;         /* iterations auto: what the cases so far took of the budget */
	/* Called after each iteration is stored (NULL: nothing). */
	void (*on_stored)(struct run_state *rs);
};

/* Every configuration's iterations of case ci, in the plan's order
 * (harness/plan.h), a block (one iteration of each) at a time: first the
 * warm-up blocks, then the counted ones, as many as the suite says or,
 * with iterations = auto, until the precision is reached or the budget
 * spent.  Each configuration's sandbox, with its knobs, is opened for its
 * own iterations and closed when another's come.  0, or an exit code. */
int run_case(struct run_state *rs, size_t ci);

#endif
