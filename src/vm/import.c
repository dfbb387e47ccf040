/* Bringing a guest's run into the host's store: see import.h. */
#include "vm/import.h"

#include <string.h>

#include "core/util.h"

static json_t *import_env(const json_t *env, const json_t *matrix)
{
	json_t *e = json_is_object(env) ? json_deep_copy(env) : json_object();
	json_object_set_new(e, "matrix", json_deep_copy(matrix));
	return e;
}

static int import_cases(struct store *host, int64_t run_id, const struct run *r)
{
	for (size_t i = 0; i < r->ncases; i++) {
		const struct run_case *rc = &r->cases[i];
		int64_t case_id;
		if (store_case_add(host, run_id, rc->name, rc->workload, rc->options, &case_id) < 0)
			return -1;
		for (size_t k = 0; k < rc->niter; k++)
			if (store_result_add(host, case_id, rc->iter_no ? rc->iter_no[k] : (int)k, &rc->iters[k]) < 0)
				return -1;
	}
	return 0;
}

int import_guest_run(struct store *host, const char *guest_db, const char *name, const char *suite,
		     const char *tag, const json_t *matrix, int64_t *run_id)
{
	struct store *g;
	struct run *r = NULL;
	int64_t gid;
	int rc = -1;

	if (store_open(&g, guest_db, false) < 0)
		return -1;
	if (store_resolve(g, "last", &gid) < 0 || store_load_run(g, gid, &r) < 0)
		goto close_guest;
	json_t *env = import_env(r->env, matrix);
	if (store_run_begin(host, name, suite ? suite : r->info.suite, r->suite_text, env, tag, run_id) == 0 &&
	    import_cases(host, *run_id, r) == 0 &&
	    store_run_end(host, *run_id, r->info.status ? r->info.status : "incomplete") == 0)
		rc = 0;
	json_decref(env);
	run_free(r);
close_guest:
	store_close(g);
	return rc;
}

int import_failed_run(struct store *host, const char *name, const char *suite, const char *tag,
		      const json_t *matrix, int64_t *run_id)
{
	json_t *env = import_env(NULL, matrix);
	json_t *release = json_object_get(matrix, "kernel_release");
	int rc = -1;

	if (release)  /* so that list and compare name the kernel */
		json_object_set(env, "kernel", release);

	if (store_run_begin(host, name, suite, NULL, env, tag, run_id) == 0 &&
	    store_run_end(host, *run_id, "failed") == 0)
		rc = 0;
	json_decref(env);
	return rc;
}
