/* run's progress lines: case, iteration, elapsed, and time left.  On a
 * terminal one line rewritten in place (a thread redraws it every second
 * while an iteration runs); otherwise one line per finished iteration.
 *
 * The time left is what the suite is expected to take, not an average of
 * the iterations done so far (a suite's first cases are often its fastest):
 * per case, the wall time of an iteration in the newest stored run of the
 * same suite, else an estimate per workload. */
#ifndef VMR_PROGRESS_H
#define VMR_PROGRESS_H

#include <stdbool.h>

#include "core/result.h"
#include "harness/runner.h"
#include "harness/suite.h"
#include "store/store.h"

struct progress;

/* Progress of suite s run as nvars variants (1: the suite as it is), each
 * case's iterations of every variant; st (may be NULL) is read for the
 * suite's newest stored run, so call this before the new run is begun.
 * quiet: print nothing. */
struct progress *progress_new(const struct suite *s, size_t nvars, struct store *st, bool quiet);
void progress_free(struct progress *p);
/* Iteration it of case c (the ci-th of the suite, in variant's copy of
 * it; variant NULL when there are none) starts; the runner hook keeps the
 * line moving. */
void progress_begin(struct progress *p, const struct suite_case *c, size_t ci, long it, const char *variant);
/* The hook to put first in the case's runner hooks: its thread runs only
 * while the workload child does. */
struct runner_hook progress_hook(struct progress *p);
/* The iteration begun last ended with r: its line, and a warning with the
 * reason when it did not pass. */
void progress_end(struct progress *p, const struct result *r);
/* Whether a progress line could not be written because stderr is a pipe
 * with no reader (EPIPE): the run should stop. */
bool progress_closed(const struct progress *p);
/* n more iterations of the current case than planned (iterations chosen
 * by precision add them a block at a time). */
void progress_grow(struct progress *p, size_t n);
/* The run is over: end the line on a terminal. */
void progress_finish(struct progress *p);
/* Seconds the rest of the suite is expected to take when the current
 * iteration has run for running_s. */
double progress_left(const struct progress *p, double running_s);

#endif
