/* Reading runs back (store.h): whole, or with the parts of each
 * iteration's result a reader needs, the rest on demand. */
#include "store/backend.h"

#include <stdlib.h>
#include <string.h>

#include "core/spelling.h"
#include "core/util.h"

/* A case being read one iteration at a time (store_case_each): the
 * iterations held, the next one's index, and whom to hand each to. */
struct store_each {
	const struct store *st;
	const struct run *r;
	const struct run_case *c;
	size_t next;
	store_each_fn fn;
	void *ctx;
};

/* Hand an iteration read to the reader of store_case_each, its outcome
 * that of the iteration held, and free it. */
static int store_each_take(struct store_each *e, int iteration, struct result *res)
{
	int rc = 0;
	/* a run written to meanwhile has more: those are not the reader's */
	if (e->next < e->c->niter && e->c->iter_no[e->next] != iteration) {
		rc = vmr_err("%s: run %lld, case %s: changed while it was read", e->st->path,
			     (long long)e->r->info.id, e->c->name);
	} else if (e->next < e->c->niter) {
		res->outcome = e->c->iters[e->next].outcome;
		rc = e->fn(e->ctx, e->next++, res) < 0 ? -1 : 0;
	}
	result_free(res);
	return rc;
}

/* Append a result read to a case being loaded, or hand it to the reader
 * of store_case_each. */
static int store_case_append(struct store *st, struct run_case *c, int iteration, int64_t seq, struct result *res)
{
	if (st->each)
		return store_each_take(st->each, iteration, res);
	/* Room for 8, then doubled whenever a power of two is full. */
	if (c->niter == 0 || (c->niter >= 8 && !(c->niter & (c->niter - 1)))) {
		size_t cap = c->niter ? 2 * c->niter : 8;
		c->iters = xrealloc(c->iters, cap * sizeof(*c->iters));
		c->iter_no = xrealloc(c->iter_no, cap * sizeof(*c->iter_no));
		c->iter_seq = xrealloc(c->iter_seq, cap * sizeof(*c->iter_seq));
	}
	c->iter_no[c->niter] = iteration;
	c->iter_seq[c->niter] = seq;
	c->iters[c->niter++] = *res;
	return 0;
}

static int store_case_damaged(struct store *st, const struct run_case *c, int iteration, const char *why)
{
	return vmr_err("%s: case %s iteration %d: stored result is damaged: %s", st->path, c->name, iteration + 1, why);
}

int store_case_result_json(struct store *st, struct run_case *c, int iteration, int64_t seq, json_t *j,
			   unsigned parts)
{
	const char *why = "not JSON";
	struct result res = { 0 };
	if (!j || result_from_json_parts(j, parts, &res, &why) < 0) {
		json_decref(j);
		return store_case_damaged(st, c, iteration, why);
	}
	json_decref(j);
	return store_case_append(st, c, iteration, seq, &res);
}

int store_case_text(struct store *st, struct run_case *c, int iteration, int64_t seq, const char *text, size_t len,
		    unsigned parts, bool whole)
{
	const char *why = "not JSON";
	struct result res = { 0 };
	int rc = text ? result_from_text_parts(text, len, parts, &res, &why) : -1;
	if (rc == 0 && !whole)
		return 0;
	if (rc != 1)
		return store_case_damaged(st, c, iteration, why);
	return store_case_append(st, c, iteration, seq, &res) < 0 ? -1 : 1;
}

int store_case_result(struct store *st, struct run_case *c, int iteration, int64_t seq, const char *text,
		      unsigned parts)
{
	if (parts != RESULT_ALL)
		/* the members asked for read from the text, the numbers
		 * straight into doubles (result_from_text_parts) */
		return store_case_text(st, c, iteration, seq, text, text ? strlen(text) : 0, parts, true) < 0 ? -1 : 0;
	return store_case_result_json(st, c, iteration, seq, text ? json_loads(text, 0, NULL) : NULL, parts);
}

/* A run's row and cases, and of its iterations' results the parts asked
 * for, inside the caller's read transaction. */
static int store_read_run(struct store *st, int64_t run_id, unsigned parts, struct run *r)
{
	const struct store_backend *be = st->be;
	if (be->info(st, run_id, r) < 0 || be->cases(st, r) < 0)
		return -1;
	for (size_t i = 0; i < r->ncases; i++) {
		r->cases[i].missing = RESULT_ALL & ~parts;
		if (be->iterations(st, &r->cases[i], parts) < 0)
			return -1;
	}
	return 0;
}

/* run_source's load for a run of the store: one iteration's info. */
static int store_iter_load(void *ctx, const struct run *r, const struct run_case *c, size_t i, unsigned parts)
{
	struct store *st = ctx;
	json_t *j = NULL;
	(void)r;
	if (parts != RESULT_INFO || st->be->pick(st, c->id, c->iter_no[i], RESULT_INFO, &j) < 0)
		return -1;
	/* Filling in what was left out is no change of the run: the
	 * iteration's info, as the whole result would have held it. */
	struct result *res = (struct result *)&c->iters[i];
	json_t *options = json_object_get(j, "options"), *info = json_object_get(j, "info");
	if (!options || !info) {
		json_decref(j);
		return vmr_err("%s: case %s iteration %d: stored result is damaged: not a result object", st->path,
			       c->name, c->iter_no[i] + 1);
	}
	res->options = json_incref(options);
	res->info = json_incref(info);
	spelling_info(res->info);
	json_decref(j);
	return 0;
}

int store_iter_read(struct store *st, const struct run_case *c, size_t i, unsigned parts, struct result *out)
{
	json_t *j = NULL;
	const char *why = "not a result object";
	*out = (struct result){ 0 };
	if (i >= c->niter)
		return vmr_err("%s: case %s has no iteration %zu", st->path, c->name, i + 1);
	parts |= RESULT_METRICS;
	if (st->be->pick(st, c->id, c->iter_no[i], parts, &j) < 0)
		return -1;
	int rc = j ? result_from_json_parts(j, parts, out, &why) : -1;
	json_decref(j);
	return rc < 0 ? store_case_damaged(st, c, c->iter_no[i], why) : 0;
}

int store_load_run_parts(struct store *st, int64_t run_id, unsigned parts, struct run **out)
{
	const struct store_backend *be = st->be;
	struct run *r = xcalloc(1, sizeof(*r));
	/* One read transaction: a run being written meanwhile is seen whole at
	 * one moment. */
	if (be->begin(st, false) < 0)
		goto free_run;
	if (store_read_run(st, run_id, parts | RESULT_METRICS, r) < 0)
		goto rollback;
	be->rollback(st);
	spelling_env(r->env);
	if (!(parts & RESULT_INFO))
		r->source = (struct run_source){ .load = store_iter_load, .ctx = st };
	*out = r;
	return 0;
rollback:
	be->rollback(st);
free_run:
	run_free(r);
	return -1;
}

int store_load_run(struct store *st, int64_t run_id, struct run **out)
{
	return store_load_run_parts(st, run_id, RESULT_ALL, out);
}

int store_case_each(struct store *st, const struct run *r, const struct run_case *c, unsigned parts,
		    store_each_fn fn, void *ctx)
{
	const struct store_backend *be = st->be;
	struct store_each e = { .st = st, .r = r, .c = c, .fn = fn, .ctx = ctx };
	/* the case read again as it is now, each iteration handed on as it
	 * is read (store_case_append) rather than added to this one */
	struct run_case fresh = { .id = c->id, .name = c->name };
	if (be->begin(st, false) < 0)
		return -1;
	st->each = &e;
	int rc = be->iterations(st, &fresh, parts);
	st->each = NULL;
	be->rollback(st);
	if (rc == 0 && e.next < c->niter)
		rc = vmr_err("%s: run %lld, case %s: changed while it was read", st->path, (long long)r->info.id,
			     c->name);
	return rc;
}
