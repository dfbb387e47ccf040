/* What older versions stored under other names, and what it is called now.
 *
 * Stored runs are read, never rewritten, so a rename lives here: every
 * reader of a stored result (result_from_json) and of a run's environment
 * (store_load_run) passes what it read through these, and compare, show,
 * report and export see one name for one thing whatever version wrote it.
 *
 * - Metrics: one name has one unit across every workload
 *   (tests/unit/test_metric_units.c).  A name that once meant another unit
 *   is renamed by its name and its old unit together, so a figure is never
 *   compared with one in another unit: mtest01's "alloc-rate" in bytes/s is
 *   "alloc-byte-rate" (alloc's "alloc-rate" is pages/s); mthp's
 *   "faults-per-sec-SIZE" in pages/s is "faultin-per-sec-SIZE" (pft's
 *   "faults-per-sec-tN" counts faults).  The unit "ratio" is "x".
 * - JSON keys vmregress writes are snake_case (docs/output.md); the info
 *   keys "sandbox-before", "sandbox-after", "trace-skipped",
 *   "profile-skipped", "perf-unsupported", "profile-top-kernel-symbols" and
 *   the environment's "iterations-auto", "iterations-auto-reached" were
 *   kebab-case.  Names that are data (option, metric, knob and kernel
 *   names) keep their own spelling. */
#ifndef VMR_SPELLING_H
#define VMR_SPELLING_H

#include <jansson.h>
#include <stddef.h>

/* A stored metric's name now: name itself, or its new name written into
 * buf[0..size). */
const char *spelling_metric(const char *name, const char *unit, char *buf, size_t size);
/* A stored unit's spelling now. */
const char *spelling_unit(const char *unit);
/* Rename, in place, the keys of a result's info / a run's environment that
 * older versions spelt otherwise (NULL or not an object: nothing). */
void spelling_info(json_t *info);
void spelling_env(json_t *env);

#endif
