/* The workloads' own text layouts (report/workload_text.c) from stored
 * results: each fixture under tests/fixtures/workload_text/ prints exactly
 * its .txt, both as read and after a trip through a real store, so that a
 * layout deleted, a field misread or something the layout needs that the
 * store does not keep fails here.  Results that did not come back, and
 * workloads without a layout, print the generic text. */
#include <stdlib.h>
#include <unistd.h>

#include "core/util.h"
#include "report/result_text.h"
#include "report/workload_text.h"
#include "store/store.h"
#include "fixture.h"
#include "t.h"

/* Each guards a branch of a layout. */
static const char *const cases[] = {
	"alloc",       /* alloc in a sandbox: the pass table's times */
	"fault",       /* fault with --pages: the level meaning's stand-in */
	"fault-zero",  /* fault at level zero: swapped pages, major faults, latency */
	"fault-bad",   /* a damaged page: "Test failed: <reason>" */
	"fault-host",  /* --no-sandbox: "Zone Starting Information" */
	"mmap",        /* batched timing: the "Timing:" line */
	"mmap-batch1", /* every access timed: the one "Slow accesses" line */
	"reread",      /* reread, pattern fill */
	"reread-zero", /* --fill zero: the swpout_zero line */
};

static char *workload_text_of(const struct result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	result_text(f, r, false, false);
	fclose(f);
	return buf;
}

/* Compare got with want; on a difference show the first line that differs. */
static void check_text(const char *got, const char *want, const char *what)
{
	bool same = got && !strcmp(got, want);
	CHECK(same, "%s", what);
	if (same || !got)
		return;
	size_t line = 1, i = 0;
	for (; got[i] && got[i] == want[i]; i++)
		line += got[i] == '\n';
	size_t at = i;
	while (at > 0 && want[at - 1] != '\n')
		at--;
	printf("    line %zu: got '%.*s', want '%.*s'\n", line, (int)strcspn(got + at, "\n"), got + at,
	       (int)strcspn(want + at, "\n"), want + at);
}

static int load_result(const char *name, struct result *r)
{
	char *file = xasprintf("%s.json", name);
	char *text = fixture_read("workload_text", file, NULL);
	json_t *j = json_loads(text, 0, NULL);
	const char *why = "not JSON";
	int rc = j ? result_from_json(j, r, &why) : -1;
	CHECK(rc == 0, "%s.json loads", name);
	if (rc)
		printf("    %s\n", why);
	json_decref(j);
	free(text);
	free(file);
	return rc;
}

static char *want_text(const char *name)
{
	char *file = xasprintf("%s.txt", name);
	char *text = fixture_read("workload_text", file, NULL);
	free(file);
	return text;
}

static void test_fixtures(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct result r = { 0 };
		if (load_result(cases[i], &r) < 0)
			continue;
		char *want = want_text(cases[i]), *got = workload_text_of(&r);
		check_text(got, want, cases[i]);
		free(got);
		free(want);
		result_free(&r);
	}
}

/* Every table's columns in reverse order: a layout reads its columns by
 * name (table_get), so a workload that adds or reorders columns, or a
 * result stored in another day's order, prints the same text. */
static void reverse_columns(struct result *r)
{
	for (size_t i = 0; i < r->ntables; i++) {
		struct table *t = &r->tables[i];
		for (size_t a = 0, b = t->ncols - 1; t->ncols && a < b; a++, b--) {
			char *c = t->cols[a];
			t->cols[a] = t->cols[b];
			t->cols[b] = c;
			for (size_t k = 0; k < t->nrows; k++) {
				double v = t->cells[k * t->ncols + a];
				t->cells[k * t->ncols + a] = t->cells[k * t->ncols + b];
				t->cells[k * t->ncols + b] = v;
			}
		}
	}
}

static void test_columns_by_name(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct result r = { 0 };
		if (load_result(cases[i], &r) < 0)
			continue;
		if (!result_find_table(&r, "passes")) {
			result_free(&r);
			continue;
		}
		reverse_columns(&r);
		char *want = want_text(cases[i]), *got = workload_text_of(&r);
		char *what = xasprintf("%s: the same text with the pass table's columns reversed", cases[i]);
		check_text(got, want, what);
		free(what);
		free(got);
		free(want);
		result_free(&r);
	}
}

/* Every fixture into one run of a real (SQLite) store and back. */
static void test_store_round_trip(void)
{
	char dir[] = "/tmp/vmr-test-workload-text-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "temporary directory");
		return;
	}
	char *path = xasprintf("%s/results.db", dir);
	struct store *st = NULL;
	int64_t run_id = 0;
	json_t *env = json_pack("{s{ss} ss}", "kernel", "release", "6.18.0-test", "host", "box");
	CHECK(store_open(&st, path, true) == 0, "a store opens");
	if (!st)
		goto free_path;
	CHECK(store_run_begin(st, "layouts", "layouts", "[global]\n", env, NULL, &run_id) == 0, "a run begins");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct result r = { 0 };
		int64_t case_id = 0;
		if (load_result(cases[i], &r) < 0)
			continue;
		CHECK(store_case_add(st, run_id, cases[i], r.workload, r.options, &case_id) == 0 &&
		      store_result_add(st, case_id, 0, &r) == 0, "%s: stored", cases[i]);
		result_free(&r);
	}
	struct run *run = NULL;
	CHECK(store_load_run(st, run_id, &run) == 0 && run->ncases == ARRAY_SIZE(cases), "the run loads back whole");
	for (size_t i = 0; run && i < run->ncases && i < ARRAY_SIZE(cases); i++) {
		char *want = want_text(cases[i]), *got = NULL;
		if (run->cases[i].niter == 1)
			got = workload_text_of(&run->cases[i].iters[0]);
		char *what = xasprintf("%s: the same text from the store", cases[i]);
		check_text(got, want, what);
		free(what);
		free(got);
		free(want);
	}
	run_free(run);
	store_close(st);
free_path:
	json_decref(env);
	unlink(path);
	rmdir(dir);
	free(path);
}

/* What does not get a layout of its own. */
static void test_generic(void)
{
	struct result r = { 0 };
	if (load_result("fault", &r) < 0)
		return;
	result_info_set(&r, "workload_result", json_false());
	char *got = workload_text_of(&r);
	CHECK(got && !strncmp(got, "fault: pass\n", 12) && !strstr(got, "Test Results"),
	      "a result that did not come back prints the generic text");
	free(got);
	result_free(&r);

	struct result n = { 0 };
	result_init(&n, "null");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool had = workload_text(f, &n);
	fclose(f);
	CHECK(!had && len == 0, "a workload without a layout gets none, and nothing is written");
	free(buf);
	result_free(&n);
}

int main(void)
{
	test_fixtures();
	test_columns_by_name();
	test_store_round_trip();
	test_generic();
	T_DONE();
}
