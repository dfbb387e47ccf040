/* The formatters of `vmregress sandbox status` and `sandbox exec`: the
 * host's leftovers that sandbox_status found, and what a command run in
 * the sandbox used (in GNU time's -v words, so that a reader of time's
 * output finds the same lines).  cmd/sandbox.c runs; these only format. */
#ifndef VMR_REPORT_SANDBOX_TEXT_H
#define VMR_REPORT_SANDBOX_TEXT_H

#include <jansson.h>
#include <stdio.h>

#include "harness/exec.h"

/* sandbox_status's document as lines for people. */
void sandbox_status_text(json_t *st);
/* The command's use of the machine, as `time -v` prints it, to f. */
void sandbox_exec_text(FILE *f, char *const argv[], const struct exec_result *r);
/* The result as JSON (without before/after, which the caller may add; with
 * oom_report when there was a kill). */
json_t *exec_result_json(const struct exec_result *r);

#endif
