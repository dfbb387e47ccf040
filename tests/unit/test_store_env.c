/* A run's environment replaced as it ends (what run --iterations auto
 * learns only then): the new one is what loads, the run's other columns
 * stay; a store opened only to read refuses to write.  On SQLite, or on the store VMR_TEST_STORE names (PostgreSQL). */
#include <stdlib.h>
#include <unistd.h>

#include "core/util.h"
#include "store/store.h"
#include "t.h"

int main(void)
{
	char tmpdir[] = "/tmp/vmr-store-env-XXXXXX";
	if (!mkdtemp(tmpdir)) {
		CHECK(0, "temporary directory");
		T_DONE();
	}
	const char *where = getenv("VMR_TEST_STORE");
	char *location = where && *where ? xstrdup(where) : xasprintf("%s/results.db", tmpdir);
	struct store *st = NULL;
	CHECK(store_open(&st, location, true) == 0, "store opens");
	if (!st)
		T_DONE();
	char uuid[40];
	store_uuid(uuid, sizeof(uuid));
	char *name = xasprintf("env-%s", uuid);
	json_t *env = json_pack("{s{ss} ss}", "kernel", "release", "6.1.0-test", "host", "box");
	int64_t run = 0;
	CHECK(store_run_begin(st, name, "quick", "[a]\nworkload=null\n", env, NULL, &run) == 0, "run begins");
	json_object_set_new(env, "iterations_auto", json_pack("{ss}", "a", "precision after 7 iterations"));
	CHECK(store_run_env_set(st, run, env) == 0, "the environment is replaced");
	CHECK(store_run_end(st, run, "complete") == 0, "run ends");
	struct run *r = NULL;
	CHECK(store_load_run(st, run, &r) == 0, "run loads");
	if (r) {
		CHECK_STR(json_string_value(json_object_get(json_object_get(r->env, "iterations_auto"), "a")),
			  "precision after 7 iterations", "the new environment is what loads");
		CHECK_STR(r->info.host, "box", "the host stays");
		CHECK_STR(r->info.status, "complete", "the status stays");
		CHECK(json_equal(r->env, env), "nothing else in it changed");
		/* bisect once marked its runs through a store opened to read */
		struct store *ro = NULL;
		CHECK(store_open(&ro, location, STORE_READ) == 0, "the store opens to read");
		if (ro) {
			fflush(stdout);
			CHECK(store_run_env_set(ro, run, env) < 0, "a store opened to read refuses a write");
			CHECK(store_delete_run(ro, run) < 0, "and a delete");
			store_close(ro);
		}
		store_delete_run(st, run);
	}
	run_free(r);
	json_decref(env);
	store_close(st);
	free(name);
	free(location);
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);
	CHECK(system(cmd) == 0, "clean up");
	free(cmd);
	T_DONE();
}
