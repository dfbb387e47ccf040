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
/* The same with, of the runs in the store, only the parts of each
 * iteration's result that the caller needs (enum result_part; the head
 * always): a run from a file comes whole. */
int runsrc_load_parts(const char *db, char *const *specs, size_t n, unsigned parts, struct run_set *set);
/* Load the parts named of case case_name of every run that lacks them
 * (load), or free them again (!load): a formatter that draws one case at a
 * time holds one case's detail at a time.  0, or -1 after a message. */
int runsrc_case_parts(struct run_set *set, const char *case_name, unsigned parts, bool load);
void runsrc_free(struct run_set *set);

#endif
