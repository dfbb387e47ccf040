/* The results store: one SQLite file (PostgreSQL later behind the same
 * interface).  A run holds cases; a case holds iterations; an iteration
 * holds one struct result.  Writes are transactional per iteration, so a run
 * killed at any moment leaves a sound database and the run `incomplete`. */
#ifndef VMR_STORE_H
#define VMR_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"

struct store;

struct run_info {
	int64_t id;
	char *uuid;
	char *name;
	char *suite;          /* suite name or file */
	char *status;         /* complete | incomplete | failed */
	char *kernel;         /* from the environment */
	char *host;
	double started, ended;/* seconds since the epoch; ended 0 if not ended */
	char *tag;            /* e.g. the matrix name; may be NULL */
};

struct run_case {
	char *name;           /* section name in the suite */
	char *workload;
	json_t *options;      /* resolved options */
	size_t niter;
	struct result *iters; /* iteration i at iters[i] */
};

struct run {
	struct run_info info;
	json_t *env;          /* environment fingerprint (sense system) */
	char *suite_text;
	size_t ncases;
	struct run_case *cases;
};

/* The default path: $XDG_DATA_HOME/vmregress/results.db or
 * ~/.local/share/vmregress/results.db.  Malloc'd. */
char *store_default_path(void);
/* Open (creating and migrating when create) a store.  0 or -1 after a
 * one-line error. */
int store_open(struct store **st, const char *path, bool create);
void store_close(struct store *st);

int store_run_begin(struct store *st, const char *name, const char *suite, const char *suite_text,
		    json_t *env, const char *tag, int64_t *run_id);
int store_case_add(struct store *st, int64_t run_id, const char *case_name, const char *workload,
		   json_t *options, int64_t *case_id);
int store_result_add(struct store *st, int64_t case_id, int iteration, const struct result *r);
int store_run_end(struct store *st, int64_t run_id, const char *status);

/* Runs, newest first.  Free with run_info_free_array. */
int store_list(struct store *st, struct run_info **runs, size_t *n);
void run_info_free_array(struct run_info *runs, size_t n);
/* RUN is an id, a unique name, or "last".  0 or -1 after an error naming it. */
int store_resolve(struct store *st, const char *spec, int64_t *run_id);
int store_load_run(struct store *st, int64_t run_id, struct run **out);
void run_free(struct run *r);
int store_delete_run(struct store *st, int64_t run_id);

#endif
