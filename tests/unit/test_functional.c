/* The functional comparison's rules (stats/functional.h) over runs made
 * here: a case that always passed and now fails is a regression (with how
 * many iterations failed), one that failed sometimes before is flaky, one
 * that always failed and now passes an improvement, one tested before and
 * skipped now (or gone) a coverage change; the text and JSON say so. */
#include <stdlib.h>
#include <string.h>

#include "report/functional.h"
#include "stats/functional.h"
#include "t.h"

/* A run of one suite case "mm" of iters iterations; statuses[k] is the
 * status of each named case in iteration k, "a=pass b=fail ...". */
static struct run *mkrun(const char *name, const char *version, size_t iters, const char *const *statuses)
{
	struct run *r = calloc(1, sizeof(*r));
	r->info.name = strdup(name);
	r->ncases = 1;
	r->cases = calloc(1, sizeof(*r->cases));
	r->cases[0].name = strdup("mm");
	r->cases[0].workload = strdup("kselftest");
	r->cases[0].niter = iters;
	r->cases[0].iters = calloc(iters, sizeof(struct result));
	for (size_t k = 0; k < iters; k++) {
		struct result *res = &r->cases[0].iters[k];
		result_init(res, "kselftest");
		json_t *cases = json_array();
		char *copy = strdup(statuses[k]);
		for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(w, '=');
			*eq = '\0';
			json_t *c = json_pack("{s:s, s:s}", "name", w, "status", eq + 1);
			if (!strcmp(eq + 1, "skip") || !strcmp(eq + 1, "fail"))
				json_object_set_new(c, "reason", json_string(!strcmp(eq + 1, "skip") ? "no huge pages" : "bad data"));
			json_array_append_new(cases, c);
		}
		free(copy);
		json_t *info = json_pack("{s:s, s:[{s:s, s:o}]}", "version", version, "tests", "test", "cow", "cases", cases);
		result_info_set(res, "kselftest", info);
	}
	return r;
}

static void freerun(struct run *r)
{
	for (size_t k = 0; k < r->cases[0].niter; k++)
		result_free(&r->cases[0].iters[k]);
	free(r->cases[0].iters);
	free(r->cases[0].name);
	free(r->cases[0].workload);
	free(r->cases);
	free(r->info.name);
	free(r);
}

static const struct fn_change *find(const struct functional *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].name, name))
			return &f->v[i];
	return NULL;
}

int main(void)
{
	const char *before[] = {
		"steady=pass breaks=pass flake=pass fixed=fail dropped=pass stillbad=fail xf=xfail",
		"steady=pass breaks=pass flake=fail fixed=fail dropped=pass stillbad=fail xf=xfail",
		"steady=pass breaks=pass flake=pass fixed=fail dropped=pass stillbad=fail xf=xfail",
	};
	const char *after[] = {
		"steady=pass breaks=fail flake=fail fixed=pass dropped=skip stillbad=fail xf=xfail new=pass",
		"steady=pass breaks=pass flake=pass fixed=pass dropped=skip stillbad=fail xf=xfail new=pass",
		"steady=pass breaks=pass flake=pass fixed=pass dropped=skip stillbad=fail xf=xfail new=pass",
	};
	struct run *a = mkrun("base", "6.12.117-1", 3, before), *b = mkrun("new", "6.12.117-1", 3, after);
	const struct run *runs[] = { a, b };
	struct functional f;
	functional_compare(runs, 2, &f);
	const struct fn_change *c;
	CHECK(f.any && f.ncases == 7, "7 cases of the base compared");
	c = find(&f, "breaks");
	CHECK(c && c->kind == FN_REGRESSION, "passed 3 of 3, failed 1 of 3 after: a regression");
	CHECK(c && c->after.fail == 1 && c->after.n == 3 && c->before.pass == 3, "... with how many of how many");
	CHECK(c && c->reason && !strcmp(c->reason, "bad data"), "... and the failure's reason");
	c = find(&f, "flake");
	CHECK(c && c->kind == FN_FLAKY, "failed 1 of 3 before and again after: flaky, not a regression");
	c = find(&f, "fixed");
	CHECK(c && c->kind == FN_IMPROVEMENT, "failed 3 of 3, passes 3 of 3: an improvement");
	c = find(&f, "dropped");
	CHECK(c && c->kind == FN_COVERAGE && c->after.skip == 3, "passed before, skipped after: coverage");
	c = find(&f, "new");
	CHECK(c && c->kind == FN_COVERAGE && c->before.n == 0, "a case only the new run ran: coverage");
	CHECK(!find(&f, "steady") && !find(&f, "stillbad") && !find(&f, "xf"),
	      "no change listed for a steady pass, a steady failure, a steady xfail");
	CHECK(f.count[FN_REGRESSION] == 1 && f.count[FN_FLAKY] == 1 && f.count[FN_IMPROVEMENT] == 1 &&
	      f.count[FN_COVERAGE] == 2, "the counts: 1 regression, 1 flaky, 1 improvement, 2 coverage");
	CHECK(!f.versions, "the same selftests on both sides: no version note");

	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	functional_write_text(m, &f);
	fclose(m);
	CHECK(text && strstr(text, "Functional (kernel selftests, 7 cases): 1 regression, 1 improvement, 1 flaky, "
			     "2 coverage changes"), "the verdict line counts them");
	CHECK(text && strstr(text, "regression  new: cow / breaks: passed 3 of 3 before, failed 1 of 3 after: bad data"),
	      "the regression's line");
	CHECK(text && strstr(text, "regression") < strstr(text, "flaky      "), "regressions listed first");
	free(text);
	json_t *j = functional_to_json(&f);
	CHECK(json_integer_value(json_object_get(j, "regressions")) == 1 &&
	      json_array_size(json_object_get(j, "changes")) == 5, "JSON carries the counts and each change");
	json_decref(j);
	functional_free(&f);

	/* the other selftest version: said */
	struct run *c2 = mkrun("other", "6.12.119-1", 3, before);
	const struct run *runs2[] = { a, c2 };
	functional_compare(runs2, 2, &f);
	CHECK(f.count[FN_REGRESSION] == 0 && f.count[FN_IMPROVEMENT] == 0 && f.versions && !strcmp(f.versions, "6.12.117-1 -> 6.12.119-1"),
	      "the same results from another selftest version: no regression, the versions named");
	functional_free(&f);
	freerun(c2);

	/* no selftests at all: nothing to say */
	struct run *empty = calloc(1, sizeof(*empty));
	empty->info.name = strdup("empty");
	const struct run *runs3[] = { empty, empty };
	functional_compare(runs3, 2, &f);
	CHECK(!f.any, "runs without selftests: no functional section");
	functional_free(&f);
	free(empty->info.name);
	free(empty);
	freerun(a);
	freerun(b);
	T_DONE();
}
