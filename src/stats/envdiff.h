/* The environment diff of a comparison (compare.h): what differs between
 * the runs' environments and their cases' options, and which of those
 * differences the verdict must flag.  It reads the runs and the options
 * and fills cmp->env and cmp->env_flags; it calls nothing of compare.c
 * (cmp_model.h is all it builds on).  Nothing here prints. */
#ifndef VMR_STATS_ENVDIFF_H
#define VMR_STATS_ENVDIFF_H

#include <stdbool.h>

#include "core/util.h"
#include "stats/cmp_model.h"

/* cmp->env from cmp->runs (the runs, labels and nruns set): the keys whose
 * values differ, volatile facts left out, a setting alike in every case
 * collapsed to one "case.*.REST" row. */
void compare_env_diff(struct comparison *cmp, const struct compare_opts *o);
/* cmp->env_flags from cmp->env: what differs about the machine or the
 * kernel beyond the settings compared (o->setting_keys). */
void compare_env_flags(struct comparison *cmp, const struct compare_opts *o);
/* A matrix guest, or a LAVA job run here (lava run-local), under TCG. */
bool compare_run_emulated(const struct run *r);

/* Flatten a JSON value into "path=value" pairs: keys joined by '.', array
 * elements as "[i]", scalars as their compact JSON text (strings bare).
 * Appends to keys/values (parallel lists). */
void cmp_json_flatten(const json_t *j, const char *prefix, struct strlist *keys, struct strlist *values);

#endif
