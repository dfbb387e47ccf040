/* The store keeps what it is given: results built by hand go in and come
 * back whole (metrics, histograms, series), runs resolve by id, name and
 * "last", delete cascades, and the schema is versioned. */
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/util.h"
#include "report/export.h"
#include "store/store.h"
#include "stats/summary.h"
#include "t.h"

static void make_result(struct result *r, double t)
{
	result_init(r, "null");
	result_metric(r, "time", "ns", BETTER_LOWER, COMBINE_AMEAN, t);
	result_metric(r, "rate", "ops/s", BETTER_HIGHER, COMBINE_HMEAN, 1e9 / t);
	struct hist *h = hist_new();
	hist_add(h, (uint64_t)t);
	result_hist(r, "latency", "ns", h);
	struct series *s = result_series(r, "pswpout", "pages");
	series_add(s, 0.0, 0);
	series_add(s, 1.0, t);
	json_object_set_new(r->options, "spin", json_integer(0));
}

static int64_t store_one_run(struct store *st, const char *name, int niter)
{
	int64_t run, c1, c2;
	json_t *env = json_pack("{s{ss} ss}", "kernel", "release", "6.1.0-test", "host", "box");
	json_t *opts = json_pack("{si}", "spin", 0);
	CHECK(store_run_begin(st, name, "quick", "[global]\n[a]\nworkload=null\n", env, NULL, &run) == 0,
	      "%s: run begins", name);
	CHECK(store_case_add(st, run, "a", "null", opts, &c1) == 0, "%s: case a added", name);
	CHECK(store_case_add(st, run, "b", "null", opts, &c2) == 0, "%s: case b added", name);
	for (int i = 0; i < niter; i++) {
		struct result r = { 0 };
		make_result(&r, 100 + i);
		CHECK(store_result_add(st, c1, i, &r) == 0, "%s: iteration %d stored", name, i);
		result_free(&r);
	}
	struct result bad = { 0 };
	result_init(&bad, "null");
	result_set_outcome(&bad, OUTCOME_SKIP, "not here");
	CHECK(store_result_add(st, c2, 0, &bad) == 0, "%s: a skipped iteration is stored", name);
	result_free(&bad);
	json_decref(env);
	json_decref(opts);
	return run;
}

static void test_round_trip(struct store *st, int64_t run)
{
	struct run *r = NULL;
	CHECK(store_load_run(st, run, &r) == 0, "run loads");
	if (!r)
		return;
	CHECK_STR(r->info.status, "incomplete", "an unfinished run is incomplete");
	CHECK_STR(r->info.kernel, "6.1.0-test", "kernel taken from the environment");
	CHECK_STR(r->info.host, "box", "host taken from the environment");
	CHECK(r->info.uuid && strlen(r->info.uuid) == 36 && r->info.uuid[14] == '4', "a version 4 UUID");
	CHECK_STR(r->suite_text, "[global]\n[a]\nworkload=null\n", "suite text kept");
	CHECK(r->ncases == 2 && !strcmp(r->cases[0].name, "a") && !strcmp(r->cases[1].name, "b"), "cases in order");
	CHECK_EQ_U(r->cases[0].niter, 3, "three iterations of a");
	CHECK(json_integer_value(json_object_get(r->cases[0].options, "spin")) == 0, "case options kept");
	const struct result *it = &r->cases[0].iters[2];
	CHECK(result_find_metric(it, "time") && result_find_metric(it, "time")->value == 102, "metric value kept");
	CHECK(result_find_metric(it, "rate")->better == BETTER_HIGHER, "metric direction kept");
	CHECK(it->nhists == 1 && it->hists[0].h->count == 1 && it->hists[0].h->max == 102, "histogram kept");
	CHECK(it->nseries == 1 && it->series[0].n == 2 && it->series[0].v[1] == 102, "series kept");
	CHECK(r->cases[1].niter == 1 && r->cases[1].iters[0].outcome == OUTCOME_SKIP &&
	      !strcmp(r->cases[1].iters[0].reason, "not here"), "outcome and reason kept");

	struct case_summary *s = summary_build(r);
	CHECK(s[0].nmetrics == 2 && s[0].m[0].n == 3, "summary counts iterations");
	CHECK_NEAR(s[0].m[0].mean, 101, 1e-9, "summary mean");
	CHECK_NEAR(s[0].m[0].stddev, 1, 1e-9, "summary sample stddev");
	CHECK(s[0].m[0].min == 100 && s[0].m[0].max == 102, "summary min and max");
	CHECK(s[1].outcomes[OUTCOME_SKIP] == 1, "summary counts outcomes");
	summary_free(s, r->ncases);

	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct export_json x = { 0 };
	export_json_begin(&x, f);
	export_json_run(&x, r);
	export_json_run(&x, r);
	export_json_end(&x);
	fclose(f);
	json_t *rows = json_loads(text, 0, NULL);
	CHECK_EQ_U(json_array_size(rows), 12, "tidy rows: 3 iterations x 2 metrics, of each run written");
	json_t *last = json_array_get(rows, 5);
	CHECK(json_integer_value(json_object_get(last, "iteration")) == 3 &&
	      !strcmp(json_string_value(json_object_get(last, "metric")), "rate"), "rows numbered from 1");
	/* written a row at a time, the text json_dumpf prints of them all */
	char *whole = json_dumps(rows, EXPORT_JSON_FLAGS);
	CHECK(whole && strlen(text) == strlen(whole) + 1 && !strncmp(text, whole, strlen(whole)) &&
	      text[len - 1] == '\n', "json rows streamed as the whole array dumps");
	free(whole);
	json_decref(rows);
	free(text);
	f = open_memstream(&text, &len);
	export_json_begin(&x, f);
	export_json_end(&x);
	fclose(f);
	CHECK_STR(text, "[]\n", "no rows: an empty array");
	free(text);

	free(r->cases[0].name);
	r->cases[0].name = xstrdup("a,\"b\"");
	char *csv = NULL;
	f = open_memstream(&csv, &len);
	export_csv_header(f);
	export_csv_run(f, r);
	fclose(f);
	CHECK(strstr(csv, ",\"a,\"\"b\"\"\",null,1,pass,time,ns,100\n") != NULL, "csv quotes a field with a comma or quote");
	CHECK(!strncmp(csv, "run,uuid,group,variant,kernel,host,knobs,case,workload,iteration,outcome,metric,unit,value\n", 91),
	      "csv starts with the header");
	free(csv);
	run_free(r);
}

static void test_resolve(struct store *st, int64_t first, int64_t second)
{
	int64_t id = 0;
	char buf[32];
	CHECK(store_resolve(st, "last", &id) == 0 && id == second, "last is the newest run");
	snprintf(buf, sizeof(buf), "%lld", (long long)first);
	CHECK(store_resolve(st, buf, &id) == 0 && id == first, "an id resolves");
	CHECK(store_resolve(st, "one", &id) == 0 && id == first, "a unique name resolves");
	fprintf(stderr, "(expected errors follow)\n");
	CHECK(store_resolve(st, "nope", &id) < 0, "an unknown name does not resolve");
	CHECK(store_resolve(st, "99999", &id) < 0, "an unknown id does not resolve");
	struct run_info *runs;
	size_t n;
	CHECK(store_list(st, &runs, &n) == 0 && n == 2 && runs[0].id == second && runs[1].id == first,
	      "list is newest first");
	CHECK(n == 2 && runs[1].niterations == 4 && runs[1].ncases == 2, "list counts cases and iterations");
	run_info_free_array(runs, n);
}

static int sql_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	int v = -1;
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

static void test_schema(const char *path)
{
	CHECK(sql_int(path, "PRAGMA user_version") == STORE_SCHEMA_VERSION, "schema version recorded");
	CHECK(sql_int(path, "SELECT version FROM schema_version") == STORE_SCHEMA_VERSION, "schema_version table");
	sqlite3 *db;
	sqlite3_open(path, &db);
	sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL);
	sqlite3_close(db);
	struct store *st = NULL;
	fprintf(stderr, "(expected error follows)\n");
	CHECK(store_open(&st, path, false) < 0, "a newer schema is refused");
	/* a negative version once indexed the migrations at -1 (found by
	 * fuzzing a guest's results file) */
	sqlite3_open(path, &db);
	sqlite3_exec(db, "PRAGMA user_version = -1", NULL, NULL, NULL);
	sqlite3_close(db);
	fprintf(stderr, "(expected error follows)\n");
	CHECK(store_open(&st, path, false) < 0, "a negative schema version is refused");
	sqlite3_open(path, &db);
	sqlite3_exec(db, "PRAGMA user_version = 1", NULL, NULL, NULL);
	sqlite3_close(db);
}

/* Times a damaged store may hold (found by fuzzing a guest's results
 * file: a time beyond time_t converted to an undefined value). */
static void test_format_time(void)
{
	char buf[40];
	CHECK_STR(store_format_time(buf, sizeof(buf), 0), "1970-01-01T00:00:00Z", "the epoch");
	CHECK_STR(store_format_time(buf, sizeof(buf), 1795000000.5), "2026-11-18T11:06:40Z", "a time of this year");
	CHECK_STR(store_format_time(buf, sizeof(buf), 7.36547e223), "invalid", "a time beyond time_t");
	CHECK_STR(store_format_time(buf, sizeof(buf), -1e300), "invalid", "a time long before year 0");
	CHECK_STR(store_format_time(buf, sizeof(buf), 0.0 / 0.0), "invalid", "not a number");
	CHECK_STR(store_format_time(buf, sizeof(buf), 253402300800.0), "invalid", "the year 10000");
}

int main(void)
{
	test_format_time();
	char dir[] = "/tmp/vmr-test-store-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "temporary directory");
		T_DONE();
	}
	char *path = xasprintf("%s/sub/dir/results.db", dir);
	struct store *st = NULL;
	CHECK(store_open(&st, path, false) < 0, "a missing file is not created without create");
	CHECK(store_open(&st, path, true) == 0, "store created with its directories");
	if (!st)
		T_DONE();
	int64_t first = store_one_run(st, "one", 3);
	int64_t second = store_one_run(st, "two", 1);
	CHECK(sql_int(path, "SELECT COUNT(*) FROM metrics") == 8, "one metric row per metric and iteration");
	struct result dup = { 0 };
	make_result(&dup, 1);
	fprintf(stderr, "(expected error follows)\n");
	CHECK(store_result_add(st, 1, 0, &dup) < 0, "an iteration cannot be stored twice");
	result_free(&dup);
	CHECK(store_run_end(st, second, "complete") == 0, "run ends");
	test_round_trip(st, first);
	test_resolve(st, first, second);
	store_close(st);

	CHECK(store_open(&st, path, false) == 0, "store reopens");
	struct run *r = NULL;
	CHECK(store_load_run(st, second, &r) == 0 && !strcmp(r->info.status, "complete") && r->info.ended > 0,
	      "complete status and end time kept");
	run_free(r);
	CHECK(store_delete_run(st, first) == 0, "run deleted");
	int64_t id;
	fprintf(stderr, "(expected error follows)\n");
	CHECK(store_resolve(st, "one", &id) < 0, "a deleted run is gone");
	store_close(st);
	CHECK(sql_int(path, "SELECT COUNT(*) FROM iterations") == 2, "delete cascades to iterations");
	CHECK(sql_int(path, "SELECT COUNT(*) FROM metrics") == 2, "delete cascades to metric rows");
	test_schema(path);

	char *cmd = xasprintf("rm -rf '%s'", dir);
	CHECK(system(cmd) == 0, "clean up");
	free(cmd);
	free(path);
	T_DONE();
}
