/* The kernel selftests' cases as KCIDB tests (report/kcidb_int.h). */
#include "report/kcidb_int.h"

#include <string.h>

#include "core/util.h"
#include "stats/functional.h"

/* KCIDB's status of a case over its iterations: FAIL if it failed (or
 * erred) in any, PASS if it passed in some, else SKIP. */
static const char *kcidb_ks_status(const struct fn_count *c)
{
	return c->fail ? "FAIL" : c->pass ? "PASS" : "SKIP";
}

void kcidb_kselftest_tests(json_t *tests, const struct run *r, const struct run_case *c,
			   const struct kcidb_source *s, const char *path)
{
	if (!c->workload || strcmp(c->workload, "kselftest"))
		return;
	/* the run's cases, of this suite case alone */
	struct run one = { .info = r->info, .ncases = 1, .cases = (struct run_case *)c };
	struct fn_run fr = { 0 };
	functional_run_cases(&one, &fr);
	for (size_t i = 0; i < fr.n; i++) {
		const struct fn_case *k = &fr.v[i];
		char *tail = xasprintf("%s:kselftest:%s:%s", c->name, k->test, k->name);
		char *tpart = kcidb_path_part(k->test), *npart = kcidb_path_part(k->name);
		char *kpath = xasprintf("%s.%s.%s", path, tpart, npart);
		json_t *t = kcidb_test_base(r, s, tail, kpath);
		json_object_set_new(t, "status", json_string(kcidb_ks_status(&k->c)));
		json_object_set_new(t, "duration", json_real((double)k->time_ns / 1e9));
		json_t *misc = json_pack("{ss ss ss sI sI sI sI}", "kselftest", k->test, "case", k->name, "result",
					 fn_case_status(&k->c), "iterations", (json_int_t)k->c.n, "pass",
					 (json_int_t)k->c.pass, "fail", (json_int_t)k->c.fail, "skip", (json_int_t)k->c.skip);
		if (fr.selftests)
			json_object_set_new(misc, "selftests", json_string(fr.selftests));
		if (fr.version)
			json_object_set_new(misc, "selftests_version", json_string(fr.version));
		if (k->reason) {
			json_object_set_new(misc, "reason", json_string(k->reason));
			json_object_set_new(t, "comment", json_string(k->reason));
		}
		json_object_set_new(t, "misc", misc);
		json_array_append_new(tests, t);
		free(kpath);
		free(npart);
		free(tpart);
		free(tail);
	}
	fn_run_free(&fr);
}
