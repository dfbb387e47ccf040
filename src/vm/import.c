/* Bringing a guest's run into the host's store: see import.h. */
#include "vm/import.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* Before this a clock was never set (a guest without a real-time clock
 * counts from 1970); a time after it is the guest's own. */
#define IMPORT_CLOCK_SET_S 1e9 /* 2001-09-09 */

static json_t *import_env(const json_t *env, const json_t *matrix)
{
	json_t *e = json_is_object(env) ? json_deep_copy(env) : json_object();
	json_object_set_new(e, "matrix", json_deep_copy(matrix));
	return e;
}

/* The guest's run as the host keeps it: its own UUID, times, cases and
 * iterations, under the host's name, suite and tag, with the matrix's facts
 * and the time it came home in its environment.  A guest whose clock was
 * never set keeps how long its run took, ending at the import. */
static void import_as_host_run(struct run *r, const char *name, const char *suite, const char *tag,
			       const json_t *matrix, double now)
{
	char when[40];
	json_t *facts = json_deep_copy(matrix);
	json_object_set_new(facts, "imported", json_string(store_format_time(when, sizeof(when), now)));
	if (r->info.started < IMPORT_CLOCK_SET_S) {
		double took = r->info.ended > r->info.started ? r->info.ended - r->info.started : 0;
		r->info.started = now - took;
		r->info.ended = r->info.ended ? now : 0;
		json_object_set_new(facts, "guest_clock_unset", json_true());
	}
	json_t *env = import_env(r->env, facts);
	json_decref(facts);
	json_decref(r->env);
	r->env = env;
	free(r->info.name);
	r->info.name = xstrdup(name);
	if (suite) {
		free(r->info.suite);
		r->info.suite = xstrdup(suite);
	}
	free(r->info.tag);
	r->info.tag = tag ? xstrdup(tag) : NULL;
	if (!r->info.status)
		r->info.status = xstrdup("incomplete");
}

int import_guest_run(struct store *host, const char *guest_db, const char *name, const char *suite,
		     const char *tag, const json_t *matrix, int64_t *run_id)
{
	return import_guest_run_group(host, guest_db, name, suite, tag, NULL, matrix, run_id);
}

static void import_join_group(struct run *r, const struct store_group *g)
{
	r->info.group_uuid = xstrdup(g->uuid);
	r->info.group_name = xstrdup(g->name);
	r->info.variant = g->variant ? xstrdup(g->variant) : NULL;
	r->info.variant_index = g->index;
	r->group_plan = g->plan ? json_incref(g->plan) : NULL;
}

int import_guest_run_group(struct store *host, const char *guest_db, const char *name, const char *suite,
			   const char *tag, const struct store_group *group, const json_t *matrix, int64_t *run_id)
{
	struct store *g;
	struct run *r = NULL;
	int64_t gid;
	int rc = -1;

	if (store_open(&g, guest_db, STORE_READ) < 0)
		return -1;
	/* the run's rows with each iteration's metrics: the whole results are
	 * read from the guest's store one at a time as they are written */
	if (store_resolve(g, "last", &gid) < 0 || store_load_run_parts(g, gid, RESULT_METRICS, &r) < 0)
		goto close_guest;
	import_as_host_run(r, name, suite, tag, matrix, vmr_wall_s());
	if (group && !r->info.group_uuid)
		import_join_group(r, group);
	/* One transaction, keyed by the guest's UUID: imported twice, stored once. */
	rc = store_copy_loaded(g, r, host, run_id) < 0 ? -1 : 0;
	run_free(r);
close_guest:
	store_close(g);
	return rc;
}

int import_failed_run(struct store *host, const char *name, const char *suite, const char *tag,
		      const struct store_group *group, const json_t *matrix, int64_t *run_id)
{
	json_t *env = import_env(NULL, matrix);
	json_t *release = json_object_get(matrix, "kernel_release");
	int rc = -1;

	if (release)  /* so that list and compare name the kernel */
		json_object_set(env, "kernel", release);

	if (store_run_begin_group(host, name, suite, NULL, env, tag, group, run_id) == 0 &&
	    store_run_end(host, *run_id, "failed") == 0)
		rc = 0;
	json_decref(env);
	return rc;
}
