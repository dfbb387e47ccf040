/* A bisection's result as data: the references, the confirmation, every
 * step with its figures and error bound, the answer and its bound.  The
 * search's rule (bisect_pick) lives here too, so that `bisect` and
 * `bisect show` share it.  vm/bisect.h runs a bisection; report/bisect_fmt.h
 * formats one.  Nothing here prints. */
#ifndef VMR_STATS_BISECT_H
#define VMR_STATS_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/sprt.h"

/* A candidate: one line of the series. */
struct bisect_candidate {
	char *line;      /* the line as given, trimmed: the candidate's name */
	char *kernel;
	char *append;    /* the command line after "--", or NULL */
	size_t lineno;   /* in the file, 1-based */
};

/* The counters shown beside each step, at most. */
#define BISECT_EXPLAIN 3

/* A figure and its 95% interval (sprt_figure). */
struct bisect_figure {
	size_t n;
	double centre, lo, hi;
};

struct bisect_step {
	size_t cand;                 /* index into the series */
	enum sprt_decision decision;
	char *skip;                  /* why it was skipped, or NULL */
	size_t iterations;           /* what the test used */
	size_t measured;             /* what the boots measured */
	size_t boots;
	struct bisect_figure fig;    /* of the iterations the test used */
	double llr, bound;           /* the log likelihood ratio; the error bound (0: undecided) */
	double elapsed_s;
	int64_t *run_ids;
	size_t nruns;
	double explain[BISECT_EXPLAIN]; /* the means of the result's explain metrics */
};

struct bisect_ref {
	size_t cand;
	double *values;
	struct bisect_figure fig;
	int64_t run_id;
	double explain[BISECT_EXPLAIN];
};

enum bisect_end {
	BISECT_FOUND,          /* the first bad, next to the last good */
	BISECT_RANGE,          /* skipped candidates lie between them */
	BISECT_NO_DIFFERENCE,  /* good and bad do not differ by compare's rules */
	BISECT_NO_TEST,        /* they differ, but too little for the test at alpha */
	BISECT_BUDGET,         /* the budget ran out before the end */
	BISECT_READY,          /* bisect start: references that differ, the test set up */
	BISECT_GIT,            /* bisect show of git bisect run's steps: git names the first bad */
};

struct bisect_result {
	char *name, *group_uuid, *case_name, *metric, *unit, *why;
	const struct bisect_candidate *cands; /* borrowed: the series */
	size_t ncands;
	double alpha;
	struct bisect_ref good, bad;
	/* the confirmation, by compare's rules */
	bool differ;
	const char *verdict;
	double change_pct, q, mde;
	struct sprt test;            /* as set up from the references */
	struct bisect_step *steps;
	size_t nsteps;
	enum bisect_end end;
	size_t last_good, first_bad; /* series indices */
	double bound;                /* the answer's error bound */
	double elapsed_s;
	bool emulated;
	/* the case's metrics that changed most with the metric between the
	 * references (compare's explanations, cmp_explain), shown beside */
	char *explain[BISECT_EXPLAIN];
	size_t nexplain;
};

/* The candidate to try next: among those still untested strictly between
 * lo and hi (status 0), the nearest to their middle (the lower of two
 * equally near); n (none left) otherwise.  status: 0 untested, 1 good,
 * 2 bad, 3 skipped. */
size_t bisect_pick(const int *status, size_t n, size_t lo, size_t hi);

/* One step of a search: measure candidate i within share_s seconds and
 * fill st (decision, or skip with its reason).  Non-zero stops the search
 * and is returned by bisect_search. */
typedef int (*bisect_step_fn)(void *ctx, size_t i, double share_s, struct bisect_step *st);

/* The binary search between res->good.cand and res->bad.cand over n
 * candidates: bisect_pick's candidate each step, until none is left or the
 * monotonic clock (bisect_now) passes deadline (INFINITY: none); each step's
 * share is what is left of the time over the steps still needed.  Fills
 * res->steps, end, last_good and first_bad (a range when a skipped
 * candidate lies between them).  0, or what step returned. */
int bisect_search(struct bisect_result *res, size_t n, double deadline, bisect_step_fn step, void *ctx);
double bisect_now(void);

/* The references' figures (fig.centre, lo, hi) from their values. */
void bisect_ref_figures(struct bisect_result *r);
void bisect_result_free(struct bisect_result *r);
const char *bisect_end_name(enum bisect_end e);
/* The answer's error bound from the confirmation and the steps into
 * r->bound (sprt_answer_bound). */
void bisect_bound(struct bisect_result *r);

#endif
