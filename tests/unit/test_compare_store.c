/* Runs stored in a real SQLite store and loaded back compare exactly as the
 * checked-in expectation says (the same one the command-line test checks
 * against the JSON files): nothing is lost on the way through the store. */
#include <stdlib.h>
#include <unistd.h>

#include "core/util.h"
#include "report/compare_fmt.h"
#include "report/run_json.h"
#include "stats/compare.h"
#include "store/store.h"
#include "t.h"
#include "trun.h"

#define FIXTURES "tests/fixtures/runs/"

static char *compare_text(const struct run *a, const struct run *b)
{
	const struct run *runs[] = { a, b };
	struct comparison cmp = { 0 };
	compare_runs(runs, 2, &(struct compare_opts){ .alpha = 0.05 }, &cmp);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	compare_write_text(f, &cmp);
	fclose(f);
	compare_free(&cmp);
	return buf;
}

int main(void)
{
	char dir[] = "/tmp/vmr-test-compare-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "temporary directory");
		T_DONE();
	}
	char *path = xasprintf("%s/results.db", dir);
	struct run *a = run_json_load(FIXTURES "pc3.json"), *b = run_json_load(FIXTURES "pc0.json");
	CHECK(a && b, "fixture runs load");
	struct store *st = NULL;
	int64_t ida = -1, idb = -1;
	if (a && b && store_open(&st, path, true) == 0) {
		ida = t_store_put(st, a);
		idb = t_store_put(st, b);
	}
	CHECK(ida > 0 && idb > 0, "fixture runs stored");
	struct run *sa = NULL, *sb = NULL;
	int64_t id;
	CHECK(st && store_resolve(st, "pc3", &id) == 0 && id == ida && store_load_run(st, id, &sa) == 0 &&
	      store_resolve(st, "last", &id) == 0 && id == idb && store_load_run(st, id, &sb) == 0,
	      "stored runs resolve by name and as last, and load");
	/* pc3-pc0.txt is a format snapshot (its figures are checked against an
	 * independent computation in tests/cli/test_compare.sh): here it only
	 * shows that runs read back from the store compare as the files do */
	char *want = NULL;
	if (vmr_read_file(FIXTURES "pc3-pc0.txt", &want, NULL) < 0)
		want = NULL;
	CHECK(want, "expectation file read");
	if (sa && sb && want) {
		char *got = compare_text(sa, sb), *direct = compare_text(a, b);
		CHECK_STR(got, want, "stored runs compare as the expectation says");
		CHECK_STR(direct, want, "the JSON files compare the same");
		free(got);
		free(direct);
	}
	free(want);
	run_free(sa);
	run_free(sb);
	run_free(a);
	run_free(b);
	if (st)
		store_close(st);
	/* The store may keep WAL and shared-memory files beside the database. */
	static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		char *p = xasprintf("%s%s", path, suffixes[i]);
		unlink(p);
		free(p);
	}
	CHECK(rmdir(dir) == 0, "temporary store removed");
	free(path);
	T_DONE();
}
