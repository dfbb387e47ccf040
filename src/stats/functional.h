/* Functional comparison: the kernel selftests' cases (the kselftest
 * workload's results) of each run against the base run, case by case.
 *
 *   regression   passed in every iteration of the base, failed in any of
 *                the run (how many of how many said, so a flake shows)
 *   flaky        failed in some iterations of the base and passed in
 *                others, and fails in the run: listed, not a regression
 *   improvement  failed in every iteration of the base, passes in every
 *                one of the run
 *   coverage     ran in the base and was skipped (or not run) in the run,
 *                or the other way round: a change in what was tested
 *
 * A case is a suite case's test and KTAP case ("cow" / "cow" / "Basic COW
 * after fork() with base page: No leak from parent into child"); xfail and
 * xpass count as passes (the test got what it expected), error as a
 * failure. */
#ifndef VMR_FUNCTIONAL_H
#define VMR_FUNCTIONAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/run.h"

enum fn_kind { FN_REGRESSION, FN_FLAKY, FN_IMPROVEMENT, FN_COVERAGE };

/* How a case went over one run's iterations. */
struct fn_count {
	unsigned pass, fail, skip, n;   /* n: iterations that ran its test */
};

/* One selftest case of one run, over its iterations. */
struct fn_case {
	const char *suite_case, *test, *name;   /* the run's own strings */
	const char *reason;     /* the last reason of a case that did not pass, or NULL */
	struct fn_count c;
	uint64_t time_ns;       /* over its iterations */
};

/* Every selftest case of one run, in the order they ran. */
struct fn_run {
	const char *run;        /* the run's name */
	const char *version;    /* the selftests' Debian version ("6.12.117-1~deb12u1"), or NULL */
	const char *selftests;  /* their source version ("6.12"), or NULL */
	struct fn_case *v;
	size_t n, cap;
	bool mixed_versions;
};

/* A case's status in one run over its iterations, as CI formats say it:
 * "fail" if it failed in any, "flaky" if it also passed in some, "pass",
 * "skip" (skipped in every one) or "absent" (n is 0). */
const char *fn_case_status(const struct fn_count *c);

struct fn_change {
	enum fn_kind kind;
	const char *run;        /* the compared run's name (the runs own it) */
	char *suite_case, *test, *name;
	struct fn_count before, after;
	char *reason;           /* the run's reason (a failure's or skip's), or NULL */
};

struct functional {
	bool any;               /* some run had selftest results */
	size_t ncases;          /* cases of the base compared */
	struct fn_change *v;
	size_t n, cap;
	unsigned count[FN_COVERAGE + 1];
	/* the selftests' versions when the runs' differ ("6.12.117-1 -> 6.12.119-1"), or NULL */
	char *versions;
	/* each run's cases, runs[0] the base's */
	struct fn_run *runs;
	size_t nruns;
};

/* The selftest cases of r (its kselftest results), into out (zeroed
 * first); the strings are r's.  Free with fn_run_free. */
void functional_run_cases(const struct run *r, struct fn_run *out);
void fn_run_free(struct fn_run *fr);
/* The case of fr named so, or NULL. */
const struct fn_case *fn_run_find(const struct fn_run *fr, const char *suite_case, const char *test,
				  const char *name);

/* Compare runs[1..n) with runs[0].  Never fails. */
void functional_compare(const struct run *const *runs, size_t n, struct functional *f);
void functional_free(struct functional *f);
const char *fn_kind_name(enum fn_kind k);

#endif
