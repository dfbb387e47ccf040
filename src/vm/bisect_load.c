/* A stored bisection read back from its group (bisect run, bisect show):
 * see bisect.h. */
#include "vm/bisect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "store/store.h"

static const char *bisect_load_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static double bisect_load_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The passing iterations' values of the metric, appended to *v (*n). */
static void bisect_load_values(const struct run *r, const char *case_name, const char *metric, double **v,
			       size_t *n, char **unit)
{
	for (size_t c = 0; c < r->ncases; c++) {
		if (strcmp(r->cases[c].name, case_name))
			continue;
		*v = xrealloc(*v, (*n + r->cases[c].niter + 1) * sizeof(**v));
		for (size_t k = 0; k < r->cases[c].niter; k++) {
			const struct result *it = &r->cases[c].iters[k];
			const struct metric *m = result_find_metric(it, metric);
			if (m && it->outcome == OUTCOME_PASS && isfinite(m->value))
				(*v)[(*n)++] = m->value;
			if (m && !*unit)
				*unit = xstrdup(m->unit ? m->unit : "");
		}
	}
}

static void bisect_load_cand(struct bisect_loaded *L, size_t pos, const json_t *f)
{
	if (pos == 0)
		return;
	if (pos > L->ncands) {
		L->cands = xrealloc(L->cands, pos * sizeof(*L->cands));
		memset(L->cands + L->ncands, 0, (pos - L->ncands) * sizeof(*L->cands));
		L->ncands = pos;
	}
	struct bisect_candidate *c = &L->cands[pos - 1];
	if (c->line)
		return;
	c->line = xstrdup(bisect_load_str(f, "line"));
	c->kernel = xstrdup(bisect_load_str(f, "kernel"));
	c->append = json_is_string(json_object_get(f, "append")) ? xstrdup(bisect_load_str(f, "append")) : NULL;
}

static struct bisect_step *bisect_load_step(struct bisect_result *res, long key, long *keys)
{
	for (size_t i = 0; i < res->nsteps; i++)
		if (keys[i] == key)
			return &res->steps[i];
	return NULL;
}

/* Per step while loading: its key ("step") and its values in run order. */
struct bisect_load_acc {
	long *keys;
	double **vals;
	size_t *nvals;
};

/* One stored run of the group into L. */
static void bisect_load_run(struct bisect_loaded *L, const struct run *r, struct bisect_load_acc *acc)
{
	struct bisect_result *res = &L->res;
	const json_t *f = json_object_get(r->env, "bisect");
	const char *role = bisect_load_str(f, "role");
	size_t pos = (size_t)json_integer_value(json_object_get(f, "candidate"));

	if (!json_is_object(f))
		return;
	if (!res->case_name) {
		res->case_name = xstrdup(bisect_load_str(f, "case"));
		res->metric = xstrdup(bisect_load_str(f, "metric"));
		res->alpha = bisect_load_num(f, "alpha");
		L->git = !strcmp(bisect_load_str(f, "mode"), "git");
	}
	bisect_load_cand(L, pos, f);
	if (pos >= L->next_index)
		L->next_index = pos;
	if (!strcmp(role, "good") || !strcmp(role, "bad")) {
		struct bisect_ref *ref = !strcmp(role, "good") ? &res->good : &res->bad;
		const json_t *cf = json_object_get(f, "confirm");
		ref->cand = pos ? pos - 1 : 0;
		ref->run_id = r->info.id;
		bisect_load_values(r, res->case_name, res->metric, &ref->values, &ref->fig.n, &res->unit);
		if (json_is_object(cf) && !strcmp(role, "good")) {
			res->differ = json_is_true(json_object_get(cf, "differ"));
			free(L->verdict);
			L->verdict = xstrdup(bisect_load_str(cf, "verdict"));
			res->verdict = L->verdict;
			res->change_pct = bisect_load_num(cf, "change_pct");
			res->q = bisect_load_num(cf, "q");
			res->mde = bisect_load_num(cf, "mde");
			res->test.kind = (enum sprt_kind)json_integer_value(json_object_get(cf, "kind"));
		}
		if (json_is_object(json_object_get(f, "options")) && !L->options)
			L->options = json_deep_copy(json_object_get(f, "options"));
		return;
	}
	long key = (long)json_integer_value(json_object_get(f, "step"));
	struct bisect_step *st = bisect_load_step(res, key, acc->keys);
	if (!st) {
		size_t k = res->nsteps;
		res->steps = xrealloc(res->steps, (k + 1) * sizeof(*res->steps));
		acc->keys = xrealloc(acc->keys, (k + 1) * sizeof(*acc->keys));
		acc->vals = xrealloc(acc->vals, (k + 1) * sizeof(*acc->vals));
		acc->nvals = xrealloc(acc->nvals, (k + 1) * sizeof(*acc->nvals));
		acc->keys[k] = key;
		acc->vals[k] = NULL;
		acc->nvals[k] = 0;
		st = &res->steps[res->nsteps++];
		memset(st, 0, sizeof(*st));
	}
	size_t k = (size_t)(st - res->steps);
	const char *d = bisect_load_str(f, "decision");
	st->cand = pos ? pos - 1 : 0;
	st->decision = !strcmp(d, "good") ? SPRT_GOOD : !strcmp(d, "bad") ? SPRT_BAD : SPRT_UNDECIDED;
	st->iterations = (size_t)json_integer_value(json_object_get(f, "iterations"));
	st->llr = bisect_load_num(f, "llr");
	st->bound = bisect_load_num(f, "bound");
	free(st->skip);
	st->skip = json_is_string(json_object_get(f, "skip")) ? xstrdup(bisect_load_str(f, "skip")) : NULL;
	st->boots++;
	st->run_ids = xrealloc(st->run_ids, (st->nruns + 1) * sizeof(*st->run_ids));
	st->run_ids[st->nruns++] = r->info.id;
	size_t before = acc->nvals[k];
	bisect_load_values(r, res->case_name, res->metric, &acc->vals[k], &acc->nvals[k], &res->unit);
	st->measured += acc->nvals[k] - before;
}

static int bisect_load_key_cmp(const void *a, const void *b)
{
	const struct bisect_step *x = a, *y = b;
	return (x->elapsed_s > y->elapsed_s) - (x->elapsed_s < y->elapsed_s);
}

/* Figures of the iterations each step's test used; steps in their order
 * (their key, kept in elapsed_s while sorting: a loaded step has no time). */
static void bisect_load_steps(struct bisect_result *res, struct bisect_load_acc *acc)
{
	for (size_t k = 0; k < res->nsteps; k++) {
		struct bisect_step *st = &res->steps[k];
		size_t n = st->iterations < acc->nvals[k] ? st->iterations : acc->nvals[k];
		sprt_figure(res->test.kind, acc->vals[k], n, &st->fig.centre, &st->fig.lo, &st->fig.hi);
		st->fig.n = n;
		st->elapsed_s = (double)acc->keys[k];
		free(acc->vals[k]);
	}
	if (res->nsteps)
		qsort(res->steps, res->nsteps, sizeof(*res->steps), bisect_load_key_cmp);
	for (size_t k = 0; k < res->nsteps; k++)
		res->steps[k].elapsed_s = NAN;
	free(acc->keys);
	free(acc->vals);
	free(acc->nvals);
}

/* The answer as the search reached it: steps in order, good raising the
 * last good, bad lowering the first bad. */
static void bisect_load_answer(struct bisect_loaded *L)
{
	struct bisect_result *res = &L->res;
	char why[256];

	res->cands = L->cands;
	res->ncands = L->ncands;
	bisect_ref_figures(res);
	res->last_good = res->good.cand;
	res->first_bad = res->bad.cand;
	if (!res->differ) {
		res->end = BISECT_NO_DIFFERENCE;
		return;
	}
	if (sprt_init(&res->test, res->test.kind, res->alpha, res->good.values, res->good.fig.n, res->bad.values,
		      res->bad.fig.n, why, sizeof(why)) < 0) {
		res->end = BISECT_NO_TEST;
		res->why = xstrdup(why);
		return;
	}
	res->end = L->git ? (res->nsteps ? BISECT_GIT : BISECT_READY) : BISECT_FOUND;
	for (size_t i = 0; i < res->nsteps && !L->git; i++) {
		const struct bisect_step *st = &res->steps[i];
		if (!st->skip && st->decision == SPRT_GOOD && st->cand > res->last_good)
			res->last_good = st->cand;
		if (!st->skip && st->decision == SPRT_BAD && st->cand < res->first_bad)
			res->first_bad = st->cand;
	}
	for (size_t i = 0; i < res->nsteps && !L->git; i++)
		if (res->steps[i].skip && res->steps[i].cand > res->last_good && res->steps[i].cand < res->first_bad)
			res->end = BISECT_RANGE;
	if (!L->git && res->first_bad - res->last_good > 1 && res->end == BISECT_FOUND)
		res->end = BISECT_BUDGET;
	bisect_bound(res);
}

int bisect_load(const char *db, const char *name, struct bisect_loaded *L)
{
	struct store *st = NULL;
	struct bisect_load_acc acc = { 0 };
	char *path = db ? xstrdup(db) : store_default_path();
	int64_t *ids = NULL;
	size_t n = 0;
	int r = VMR_EXIT_USAGE;

	memset(L, 0, sizeof(*L));
	L->res.q = L->res.mde = NAN;
	int e = store_open(&st, path, STORE_READ);
	free(path);
	if (e < 0)
		return e == -2 ? VMR_EXIT_USAGE : VMR_EXIT_CANNOT;
	if (store_resolve_group(st, name, &ids, &n) < 0)
		goto close_store;
	for (size_t i = 0; i < n; i++) {
		struct run *run = NULL;
		/* the metric's values alone: of each iteration its metrics,
		 * not the maps, series and tables that are most of it */
		if (store_load_run_parts(st, ids[i], RESULT_METRICS, &run) < 0) {
			r = VMR_EXIT_CANNOT;
			goto close_store;
		}
		if (!L->res.group_uuid && run->info.group_uuid)
			L->res.group_uuid = xstrdup(run->info.group_uuid);
		bisect_load_run(L, run, &acc);
		run_free(run);
	}
	if (!L->res.good.fig.n || !L->res.bad.fig.n) {
		vmr_err("bisect: group %s holds no bisection's references (made by vmregress bisect start or bisect)",
			name);
		bisect_load_steps(&L->res, &acc);
		goto close_store;
	}
	L->res.name = xstrdup(name);
	bisect_load_steps(&L->res, &acc);
	bisect_load_answer(L);
	r = VMR_EXIT_OK;
close_store:
	free(ids);
	store_close(st);
	return r;
}

void bisect_loaded_add(struct bisect_loaded *L, size_t i, const struct bisect_candidate *c)
{
	json_t *f = json_pack("{s:s, s:s, s:s?}", "line", c->line, "kernel", c->kernel, "append", c->append);
	bisect_load_cand(L, i + 1, f);
	json_decref(f);
	L->res.cands = L->cands;
	L->res.ncands = L->ncands;
}

void bisect_loaded_free(struct bisect_loaded *L)
{
	for (size_t i = 0; i < L->ncands; i++) {
		free(L->cands[i].line);
		free(L->cands[i].kernel);
		free(L->cands[i].append);
	}
	free(L->cands);
	free(L->verdict);
	json_decref(L->options);
	bisect_result_free(&L->res);
	memset(L, 0, sizeof(*L));
}
