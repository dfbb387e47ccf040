/* A stored run as it is read back: its row (struct run_info), its cases,
 * each with its iterations' results.  The store fills it (store_load_run,
 * store/store.h), or a JSON file (report/run_json.h); run_free frees it
 * either way.  Statistics and formatters read it and need nothing else of
 * the store. */
#ifndef VMR_RUN_H
#define VMR_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

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
	size_t ncases;        /* cases in the plan */
	size_t niterations;   /* iterations stored, over all cases */
	bool running;         /* incomplete and its writer is still at it; an
			       * incomplete run that is not running was
			       * interrupted (killed, machine down) */
	/* A run made with others by one `run --variant ...` (harness/plan.h) is
	 * in their group; these are NULL (variant_index 0) otherwise. */
	char *group_uuid;     /* the group's identity, the same in every store */
	char *group_name;     /* what people type: `compare GROUP` */
	char *variant;        /* this run's variant */
	int variant_index;    /* its place in the group: 0 is the base */
};

struct run_case {
	int64_t id;
	char *name;           /* section name in the suite */
	char *workload;
	json_t *options;      /* resolved options */
	size_t niter;
	struct result *iters; /* iteration i at iters[i] */
	int *iter_no;         /* the stored iteration numbers (0-based), niter of them */
	/* when each ran: its place in the order of every iteration of the
	 * run's group (0-based), or -1 where none was recorded (a run of one
	 * configuration); NULL when none was */
	int64_t *iter_seq;
	/* the parts of each result (enum result_part) its iterations were
	 * loaded without: 0 for a whole case (store_load_run_parts) */
	unsigned missing;
};

/* Where a run read without some parts of its results (store_load_run_parts)
 * gets them when a reader asks: load fills the parts named of iteration i
 * of case c (RESULT_INFO alone so far).  0, or -1 after a message. */
struct run;
struct run_source {
	int (*load)(void *ctx, const struct run *r, const struct run_case *c, size_t i, unsigned parts);
	void *ctx;
};

struct run {
	struct run_info info;
	json_t *env;          /* environment fingerprint (sense system) */
	char *suite_text;
	/* a run of a group: how the group was run, the same in each of its
	 * runs ({"order", "seed", "variants": [{"name", "settings"}]}); NULL
	 * for a run of one configuration */
	json_t *group_plan;
	size_t ncases;
	struct run_case *cases;
	struct run_source source;  /* load of NULL: nothing more to get */
};

/* Iteration i of case c's info (result.h), read from the run's source
 * first when it was loaded without it: NULL when it has none, or when it
 * could not be read (after a message).  Statistics that need the info of
 * a few iterations (the first that recorded its sandbox) read it so, and
 * a run of thousands of iterations holds none of the rest. */
json_t *run_iter_info(const struct run *r, const struct run_case *c, size_t i);

/* Free one run_info's strings and zero it. */
void run_info_clear(struct run_info *ri);
/* Free n run_infos (store_list's) and the array. */
void run_info_free_array(struct run_info *runs, size_t n);
/* Free a run and everything it holds; NULL is nothing. */
void run_free(struct run *r);

#endif
