#include "report/runsrc.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util.h"
#include "report/run_json.h"

static bool runsrc_is_file(const char *spec)
{
	struct stat st = { 0 };
	return stat(spec, &st) == 0 && S_ISREG(st.st_mode);
}

/* The store of set, opened on first need: 0, or -1 after a message. */
static int runsrc_store(struct run_set *set, const char *db)
{
	if (set->st)
		return 0;
	char *path = db ? xstrdup(db) : store_default_path();
	int rc = store_open(&set->st, path, STORE_READ);
	free(path);
	return rc < 0 ? -1 : 0;
}

static struct run *runsrc_from_store(struct run_set *set, const char *db, const char *spec, unsigned parts)
{
	int64_t id;
	struct run *r = NULL;
	if (runsrc_store(set, db) < 0 || store_resolve(set->st, spec, &id) < 0 ||
	    store_load_run_parts(set->st, id, parts, &r) < 0)
		return NULL;
	return r;
}

int runsrc_load_parts(const char *db, char *const *specs, size_t n, unsigned parts, struct run_set *set)
{
	*set = (struct run_set){ .runs = xcalloc(n + 1, sizeof(struct run *)),
				 .from_store = xcalloc(n + 1, sizeof(bool)) };
	for (size_t i = 0; i < n; i++) {
		bool file = runsrc_is_file(specs[i]);
		struct run *r = file ? run_json_load(specs[i]) : runsrc_from_store(set, db, specs[i], parts);
		if (!r) {
			runsrc_free(set);
			return -1;
		}
		set->runs[set->n] = r;
		set->from_store[set->n++] = !file;
	}
	return 0;
}

int runsrc_load(const char *db, char *const *specs, size_t n, struct run_set *set)
{
	return runsrc_load_parts(db, specs, n, RESULT_ALL, set);
}

int runsrc_each_run(const char *db, char *const *specs, size_t n, unsigned parts, runsrc_run_fn fn, void *ctx)
{
	struct run_set set = { 0 };
	int64_t *ids = xcalloc(n + 1, sizeof(*ids));
	struct run **files = xcalloc(n + 1, sizeof(*files));
	int rc = 0;
	/* every spec checked before any run is handed on, so that bad input
	 * leaves nothing written: ids[i] of a run of the store, files[i] a
	 * run read from a file (read whole now: a file is one document) */
	for (size_t i = 0; i < n && rc == 0; i++) {
		ids[i] = -1;
		if (runsrc_is_file(specs[i]))
			rc = (files[i] = run_json_load(specs[i])) ? 0 : -1;
		else
			rc = runsrc_store(&set, db) < 0 || store_resolve(set.st, specs[i], &ids[i]) < 0 ? -1 : 0;
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct run *r = files[i];
		files[i] = NULL;
		if (!r && store_load_run_parts(set.st, ids[i], parts, &r) < 0)
			r = NULL;
		rc = !r || fn(ctx, i, r) < 0 ? -1 : 0;
		run_free(r);
	}
	for (size_t i = 0; i < n; i++)
		run_free(files[i]);
	free(files);
	free(ids);
	runsrc_free(&set);
	return rc;
}

/* One run's reader for store_case_each. */
struct runsrc_each {
	size_t run;
	runsrc_each_fn fn;
	void *ctx;
};

static int runsrc_each_one(void *ctx, size_t i, const struct result *res)
{
	struct runsrc_each *e = ctx;
	(void)i;
	return e->fn(e->ctx, e->run, res);
}

int runsrc_case_each(struct run_set *set, const char *case_name, unsigned parts, runsrc_each_fn fn, void *ctx)
{
	for (size_t r = 0; r < set->n; r++) {
		const struct run_case *c = NULL;
		for (size_t k = 0; !c && k < set->runs[r]->ncases; k++)
			if (!strcmp(set->runs[r]->cases[k].name, case_name))
				c = &set->runs[r]->cases[k];
		if (c && set->from_store[r]) {
			struct runsrc_each e = { .run = r, .fn = fn, .ctx = ctx };
			if (store_case_each(set->st, set->runs[r], c, parts, runsrc_each_one, &e) < 0)
				return -1;
			continue;
		}
		for (size_t i = 0; c && i < c->niter; i++)
			if (fn(ctx, r, &c->iters[i]) < 0)
				return -1;
	}
	return 0;
}

void runsrc_free(struct run_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		run_free(set->runs[i]);
	if (set->st)
		store_close(set->st);
	free(set->runs);
	free(set->from_store);
	*set = (struct run_set){ 0 };
}
