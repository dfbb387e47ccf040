/* Where compare, report and plot-map get their runs: a RUN argument is a
 * JSON file of a run (as `show --json` writes it) when such a file exists,
 * and otherwise an id, a unique name or "last" in the results store. */
#ifndef VMR_RUNSRC_H
#define VMR_RUNSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

struct run_set {
	struct store *st;     /* opened on first need */
	size_t n;
	struct run **runs;
	bool *from_store;
};

/* Load every spec.  db may be NULL for the default store.  Returns 0, or -1
 * after a one-line error naming the spec (and frees what it loaded). */
int runsrc_load(const char *db, char *const *specs, size_t n, struct run_set *set);
void runsrc_free(struct run_set *set);

#endif
