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
/* Hand every iteration of case case_name to fn, run by run in order and
 * each run's in order, with the parts named of each result: read from the
 * store one iteration at a time (store_case_each), each freed when fn
 * returns; a run from a file hands its own.  fn gets the run's index in
 * set.  0, or -1 after a message. */
typedef int (*runsrc_each_fn)(void *ctx, size_t run, const struct result *res);
int runsrc_case_each(struct run_set *set, const char *case_name, unsigned parts, runsrc_each_fn fn, void *ctx);
/* runsrc_load_parts one run at a time: every spec checked first (a
 * spec that names no run, or a file that is no run, is reported before
 * any run is handed on; files are read whole then), then each
 * run loaded, handed to fn with its index in specs, and freed before the
 * next is read, so a reader that writes each out as it comes holds one
 * run's parts at a time, however many runs there are.  0, or -1 after a
 * message (fn's own when it returned < 0; the runs before it were handed
 * on). */
typedef int (*runsrc_run_fn)(void *ctx, size_t i, const struct run *r);
int runsrc_each_run(const char *db, char *const *specs, size_t n, unsigned parts, runsrc_run_fn fn, void *ctx);
void runsrc_free(struct run_set *set);

#endif
