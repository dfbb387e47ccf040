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
#include "core/runner.h"
#include "core/suite.h"
#include "store/store.h"

struct progress;

/* Progress of suite s; st (may be NULL) is read for the suite's newest
 * stored run, so call this before the new run is begun.  quiet: print
 * nothing. */
struct progress *progress_new(const struct suite *s, struct store *st, bool quiet);
void progress_free(struct progress *p);
/* Iteration it of case ci starts; the runner hook keeps the line moving. */
void progress_begin(struct progress *p, size_t ci, long it);
/* The hook to put first in the case's runner hooks: its thread runs only
 * while the workload child does. */
struct runner_hook progress_hook(struct progress *p);
/* The iteration ended with r: its line, and a warning with the reason when
 * it did not pass. */
void progress_end(struct progress *p, size_t ci, long it, const struct result *r);
/* The run is over: end the line on a terminal. */
void progress_finish(struct progress *p);
/* Seconds the rest of the suite is expected to take after the iteration
 * of case ci that has run for running_s (for tests and the line). */
double progress_left(const struct progress *p, double running_s);

#endif
