/* Reading runs back (store.h): whole, or with the parts of each
 * iteration's result a reader needs, the rest on demand. */
#include "store/backend.h"

#include <stdlib.h>
#include <string.h>

#include "core/spelling.h"
#include "core/util.h"

/* Append a result read to a case being loaded. */
static void store_case_append(struct run_case *c, int iteration, int64_t seq, struct result *res)
{
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
	store_case_append(c, iteration, seq, &res);
	return 0;
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
	store_case_append(c, iteration, seq, &res);
	return 1;
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

/* Move the detail parts named from one result into another. */
static void store_move_parts(struct result *to, struct result *from, unsigned parts)
{
	result_drop(to, parts);
	if (parts & RESULT_TABLES) {
		to->tables = from->tables, to->ntables = from->ntables;
		from->tables = NULL, from->ntables = 0;
	}
	if (parts & RESULT_HISTS) {
		to->hists = from->hists, to->nhists = from->nhists;
		from->hists = NULL, from->nhists = 0;
	}
	if (parts & RESULT_MAPS) {
		to->maps = from->maps, to->nmaps = from->nmaps;
		from->maps = NULL, from->nmaps = 0;
	}
	if (parts & RESULT_SERIES) {
		to->series = from->series, to->nseries = from->nseries;
		from->series = NULL, from->nseries = 0;
	}
}

int store_case_parts(struct store *st, const struct run *r, struct run_case *c, unsigned parts)
{
	const struct store_backend *be = st->be;
	parts &= c->missing;
	if (!parts)
		return 0;
	/* The case read again as it is now, then its iterations' new parts
	 * moved into the ones held: the same iterations, unless the run was
	 * written to meanwhile. */
	struct run_case fresh = { .id = c->id, .name = c->name };
	if (be->begin(st, false) < 0)
		return -1;
	/* the metrics held already are not read again */
	int rc = be->iterations(st, &fresh, parts);
	be->rollback(st);
	for (size_t i = 0; rc == 0 && i < c->niter; i++) {
		if (i >= fresh.niter || fresh.iter_no[i] != c->iter_no[i]) {
			rc = vmr_err("%s: run %lld, case %s: changed while it was read", st->path,
				     (long long)r->info.id, c->name);
			break;
		}
		store_move_parts(&c->iters[i], &fresh.iters[i], parts);
	}
	if (rc == 0)
		c->missing &= ~parts;
	for (size_t i = 0; i < fresh.niter; i++)
		result_free(&fresh.iters[i]);
	free(fresh.iters);
	free(fresh.iter_no);
	free(fresh.iter_seq);
	return rc;
}

void run_case_drop(struct run_case *c, unsigned parts)
{
	parts &= RESULT_DETAIL & ~c->missing;
	for (size_t i = 0; parts && i < c->niter; i++)
		result_drop(&c->iters[i], parts);
	c->missing |= parts;
}
