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

/* A case read one iteration at a time (store_case_each) against the
 * whole case: each handed in order, its detail parts and outcome those of
 * the whole's iteration. */
struct t_each {
	const struct run_case *whole;
	size_t next, detail;
	bool same;
};

static inline int t_each_check(void *ctx, size_t i, const struct result *res)
{
	static const char *const parts[] = { "tables", "hists", "maps", "series" };
	struct t_each *e = ctx;
	const struct result *w = i < e->whole->niter ? &e->whole->iters[i] : NULL;
	/* the whole's head with the detail read (a shallow copy, not freed) */
	struct result mix = { 0 };
	if (w) {
		mix = *w;
		mix.ntables = res->ntables, mix.tables = res->tables;
		mix.nhists = res->nhists, mix.hists = res->hists;
		mix.nmaps = res->nmaps, mix.maps = res->maps;
		mix.nseries = res->nseries, mix.series = res->series;
	}
	json_t *a = w ? result_to_json(w) : NULL, *b = w ? result_to_json(&mix) : NULL;
	bool same = w && i == e->next++ && w->outcome == res->outcome && a && b;
	for (size_t k = 0; same && k < sizeof(parts) / sizeof(parts[0]); k++)
		same = json_equal(json_object_get(a, parts[k]), json_object_get(b, parts[k]));
	e->detail += res->nmaps + res->nseries + res->nhists + res->ntables > 0;
	e->same = e->same && same;
	json_decref(a);
	json_decref(b);
	return 0;
}

/* Whether case c of part (run r loaded in parts from st) reads one
 * iteration at a time as whole holds it; *detail how many had some. */
static inline bool t_case_each_same(struct store *st, const struct run *part, const struct run_case *c,
				    const struct run_case *whole, size_t *detail)
{
	struct t_each e = { .whole = whole, .same = true };
	bool ok = store_case_each(st, part, c, RESULT_DETAIL, t_each_check, &e) == 0;
	if (detail)
		*detail += e.detail;
	return ok && e.same && e.next == whole->niter;
}

#endif
