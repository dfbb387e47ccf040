/* Runs built by hand, and stored, for the unit tests of compare, plan and
 * the store. */
#ifndef VMR_TEST_TRUN_H
#define VMR_TEST_TRUN_H

#include <jansson.h>

#include "core/result.h"
#include "core/run.h"
#include "core/util.h"
#include "store/store.h"

/* r's one case, of n iterations each initialised for workload, with no
 * metric yet; in blocks of two (iteration i of side s has sequence number
 * 2i+s), or with side < 0 no sequence at all (runs made apart). */
static inline struct run_case *t_one_case(struct run *r, const char *name, const char *workload, size_t n, int side)
{
	r->ncases = 1;
	r->cases = xcalloc(1, sizeof(*r->cases));
	struct run_case *c = &r->cases[0];
	c->name = xstrdup(name);
	c->workload = xstrdup(workload);
	c->options = json_object();
	c->niter = n;
	c->iters = xcalloc(n, sizeof(struct result));
	c->iter_no = xcalloc(n, sizeof(int));
	c->iter_seq = side >= 0 ? xcalloc(n, sizeof(int64_t)) : NULL;
	for (size_t i = 0; i < n; i++) {
		c->iter_no[i] = (int)i;
		if (side >= 0)
			c->iter_seq[i] = (int64_t)(2 * i + (size_t)side);
		result_init(&c->iters[i], workload);
	}
	return c;
}

/* Store r as a complete run, its iterations in order: its id, or -1. */
static inline int64_t t_store_put(struct store *st, const struct run *r)
{
	int64_t run_id, case_id;
	if (store_run_begin(st, r->info.name, r->info.suite, r->suite_text, r->env, NULL, &run_id) < 0)
		return -1;
	for (size_t c = 0; c < r->ncases; c++) {
		const struct run_case *rc = &r->cases[c];
		if (store_case_add(st, run_id, rc->name, rc->workload, rc->options, &case_id) < 0)
			return -1;
		for (size_t i = 0; i < rc->niter; i++)
			if (store_result_add(st, case_id, (int)i, &rc->iters[i]) < 0)
				return -1;
	}
	return store_run_end(st, run_id, "complete") < 0 ? -1 : run_id;
}

#endif
