/* A functional comparison (stats/functional.h) as text, for the top of
 * compare's output, and as JSON, for compare --format json. */
#ifndef VMR_REPORT_FUNCTIONAL_H
#define VMR_REPORT_FUNCTIONAL_H

#include <jansson.h>
#include <stdio.h>

#include "stats/functional.h"

/* The verdict line and a line per change; nothing when no run had
 * selftest results. */
void functional_write_text(FILE *f, const struct functional *fn);
json_t *functional_to_json(const struct functional *fn);

/* The selftest cases as CI test cases, for compare's JUnit and TAP: each
 * case of each compared run (runs[1..]) with its status there (a failure
 * when it failed in any iteration, its reason and what compare made of it
 * said; skipped, with the reason, when it never ran; passed), and each
 * case the base ran that the run lacks, skipped.  labels: the runs' labels
 * (the comparison's).  The count, with how many fail and are skipped. */
size_t functional_ci_count(const struct functional *fn, size_t *failures, size_t *skipped);
/* A <testsuite> of those cases; nothing when there are none. */
void functional_write_junit(FILE *f, const struct functional *fn, char *const *labels);
/* A TAP line each, numbered on from *n (which is advanced). */
void functional_write_tap(FILE *f, const struct functional *fn, char *const *labels, size_t *n);

#endif
