/* A kernel-matrix guest's run comes into the host's store with the guest's
 * own UUID and times (not the time it was imported, which is kept beside
 * them), under the matrix's name, suite and tag, whole, and once however
 * often it is imported; a guest whose clock was never set keeps how long
 * its run took.  The guest's store is a real one, written as a guest writes
 * it; only its times are set by hand, to tell them from the host's. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "store/store.h"
#include "t.h"
#include "vm/import.h"

static char tmpdir[] = "/tmp/vmr-test-import-XXXXXX";

#define GUEST_STARTED 1767225600.25 /* 2026-01-01T00:00:00Z and a quarter */
#define GUEST_TOOK 40.5

/* A guest's store file holding one complete run of two iterations, begun
 * at `started`.  Its UUID into uuid. */
static char *guest_store(const char *name, double started, char uuid[40])
{
	char *path = xasprintf("%s/%s.db", tmpdir, name);
	struct store *g = NULL;
	int64_t run, c;
	json_t *env = json_pack("{s{ss} ss}", "kernel", "release", "6.1.0-guest", "hostname", "(none)");
	CHECK(store_open(&g, path, true) == 0, "%s: the guest's store opens", name);
	CHECK(store_run_begin(g, "quick-guest", "/tmp/x/tiny.ini", "[a]\nworkload=null\n", env, NULL, &run) == 0 &&
	      store_case_add(g, run, "a", "null", NULL, &c) == 0, "%s: the guest's run begins", name);
	for (int i = 0; i < 2; i++) {
		struct result r = { 0 };
		result_init(&r, "null");
		result_metric(&r, "time", "ns", BETTER_LOWER, COMBINE_AMEAN, 100 + i);
		CHECK(store_result_add(g, c, i, &r) == 0, "%s: iteration %d", name, i);
		result_free(&r);
	}
	CHECK(store_run_end(g, run, "complete") == 0, "%s: the guest's run ends", name);
	struct run *gr = NULL;
	if (store_load_run(g, run, &gr) == 0)
		snprintf(uuid, 40, "%s", gr->info.uuid);
	run_free(gr);
	store_close(g);
	json_decref(env);

	sqlite3 *db;
	char *sql = sqlite3_mprintf("UPDATE runs SET started = %.17g, ended = %.17g", started, started + GUEST_TOOK);
	CHECK(sqlite3_open(path, &db) == SQLITE_OK && sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK,
	      "%s: the guest's times set", name);
	sqlite3_free(sql);
	sqlite3_close(db);
	return path;
}

static double parse_time(const char *s)
{
	struct tm tm = { 0 };
	return s && strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) ? (double)timegm(&tm) : -1;
}

static const char *matrix_fact(const struct run *r, const char *key)
{
	return json_string_value(json_object_get(json_object_get(r->env, "matrix"), key));
}

static void test_guest_times(struct store *host, json_t *facts)
{
	char uuid[40] = "";
	char *path = guest_store("good", GUEST_STARTED, uuid);
	int64_t id = -1, id2 = -1;
	double before = vmr_wall_s();
	CHECK(import_guest_run(host, path, "ci-6.1.0-guest", "tiny", "ci", facts, &id) == 0, "the guest's run is imported");
	struct run *r = NULL;
	CHECK(store_load_run(host, id, &r) == 0, "it loads from the host's store");
	if (!r)
		goto free_path;
	CHECK(r->info.started == GUEST_STARTED, "its start is the guest's (%.3f)", r->info.started);
	CHECK(r->info.ended == GUEST_STARTED + GUEST_TOOK, "its end is the guest's (%.3f)", r->info.ended);
	double imported = parse_time(matrix_fact(r, "imported"));
	CHECK(imported >= (double)(long)before && imported <= vmr_wall_s() + 1, "the import time is kept beside them (%s)",
	      matrix_fact(r, "imported"));
	CHECK(!json_object_get(json_object_get(r->env, "matrix"), "guest_clock_unset"), "the guest's clock was set");
	CHECK_STR(r->info.uuid, uuid, "it keeps the guest's UUID");
	CHECK_STR(r->info.name, "ci-6.1.0-guest", "it is named by the matrix");
	CHECK_STR(r->info.suite, "tiny", "under the matrix's suite name");
	CHECK_STR(r->info.tag, "ci", "tagged with the matrix name");
	CHECK_STR(r->info.status, "complete", "with the guest's status");
	CHECK_STR(r->info.kernel, "6.1.0-guest", "under the guest's kernel");
	CHECK_STR(matrix_fact(r, "name"), "ci", "the matrix's facts are in its environment");
	CHECK(r->ncases == 1 && r->cases[0].niter == 2 && r->cases[0].iter_no[1] == 1, "whole: its case and iterations");
	CHECK(!r->info.running, "not running");
	run_free(r);
	CHECK(import_guest_run(host, path, "ci-6.1.0-guest", "tiny", "ci", facts, &id2) == 0 && id2 == id,
	      "imported again, it is the same run");
	struct run_info *runs;
	size_t n, same = 0;
	if (store_list(host, &runs, &n) == 0) {
		for (size_t i = 0; i < n; i++)
			same += !strcmp(runs[i].uuid, uuid);
		run_info_free_array(runs, n);
	}
	CHECK_EQ_U(same, 1, "stored once");
free_path:
	free(path);
}

static void test_unset_clock(struct store *host, json_t *facts)
{
	char uuid[40] = "";
	char *path = guest_store("noclock", 12.0, uuid);
	int64_t id = -1;
	double before = vmr_wall_s();
	CHECK(import_guest_run(host, path, "ci-noclock", "tiny", "ci", facts, &id) == 0, "a guest without a clock is imported");
	double after = vmr_wall_s();
	struct run *r = NULL;
	CHECK(store_load_run(host, id, &r) == 0, "it loads");
	if (r) {
		CHECK(r->info.ended >= before && r->info.ended <= after, "its run ends at the import");
		CHECK_NEAR(r->info.ended - r->info.started, GUEST_TOOK, 1e-6, "and took as long as in the guest");
		CHECK(json_is_true(json_object_get(json_object_get(r->env, "matrix"), "guest_clock_unset")),
		      "the unset clock is noted");
	}
	run_free(r);
	free(path);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		CHECK(0, "temporary directory");
		T_DONE();
	}
	char *hpath = xasprintf("%s/host.db", tmpdir);
	struct store *host = NULL;
	json_t *facts = json_pack("{ss ss ss}", "name", "ci", "kernel_release", "6.1.0-guest", "accel", "tcg");
	CHECK(store_open(&host, hpath, true) == 0, "the host's store opens");
	if (host) {
		test_guest_times(host, facts);
		test_unset_clock(host, facts);
		store_close(host);
	}
	json_decref(facts);
	free(hpath);
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);
	CHECK(system(cmd) == 0, "clean up");
	free(cmd);
	T_DONE();
}
