/* Inside stats/: the environment diff of compare.c, and what the two
 * files share. */
#ifndef VMR_STATS_ENVDIFF_H
#define VMR_STATS_ENVDIFF_H

#include <stdbool.h>

#include "core/util.h"
#include "stats/compare.h"

void compare_env_diff(struct comparison *cmp, const struct compare_opts *o);
bool compare_run_emulated(const struct run *r);
void compare_counters_first(struct comparison *cmp);
void compare_env_flags(struct comparison *cmp, const struct compare_opts *o);
void compare_note_to(struct strlist *l, char *note);
const struct run_case *compare_find_case(const struct run *r, const char *name);
bool compare_glob(const char *pattern, const char *s);

#endif
