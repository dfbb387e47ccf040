#include "report/functional.h"

#include "core/util.h"

static void functional_count_text(char *buf, size_t len, const struct fn_count *c, const char *when)
{
	if (!c->n)
		snprintf(buf, len, "not run %s", when);
	else if (c->fail)
		snprintf(buf, len, "failed %u of %u %s", c->fail, c->n, when);
	else if (c->pass)
		snprintf(buf, len, "passed %u of %u %s", c->pass, c->n, when);
	else
		snprintf(buf, len, "skipped %u of %u %s", c->skip, c->n, when);
}

void functional_write_text(FILE *f, const struct functional *fn)
{
	if (!fn->any)
		return;
	unsigned r = fn->count[FN_REGRESSION], i = fn->count[FN_IMPROVEMENT];
	fprintf(f, "Functional (kernel selftests, %zu cases): %u regression%s, %u improvement%s, %u flaky, "
		"%u coverage change%s\n", fn->ncases, r, r == 1 ? "" : "s", i, i == 1 ? "" : "s",
		fn->count[FN_FLAKY], fn->count[FN_COVERAGE], fn->count[FN_COVERAGE] == 1 ? "" : "s");
	if (fn->versions)
		fprintf(f, "  the selftests themselves differ (%s): a change may be the tests', not the kernel's\n",
			fn->versions);
	/* regressions first, then flaky, improvements, coverage */
	for (int k = FN_REGRESSION; k <= FN_COVERAGE; k++)
		for (size_t j = 0; j < fn->n; j++) {
			const struct fn_change *c = &fn->v[j];
			if ((int)c->kind != k)
				continue;
			char b[64], a[64];
			functional_count_text(b, sizeof(b), &c->before, "before");
			functional_count_text(a, sizeof(a), &c->after, "after");
			fprintf(f, "  %-11s %s: %s / %s: %s, %s%s%s\n", fn_kind_name(c->kind), c->run, c->test, c->name,
				b, a, c->reason ? ": " : "", c->reason ? c->reason : "");
		}
	fputc('\n', f);
}

static json_t *functional_count_json(const struct fn_count *c)
{
	return json_pack("{s:i, s:i, s:i, s:i}", "pass", c->pass, "fail", c->fail, "skip", c->skip, "iterations", c->n);
}

json_t *functional_to_json(const struct functional *fn)
{
	json_t *changes = json_array();
	for (size_t j = 0; j < fn->n; j++) {
		const struct fn_change *c = &fn->v[j];
		json_array_append_new(changes, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:s?}", "kind",
			fn_kind_name(c->kind), "run", c->run, "case", c->suite_case, "test", c->test, "name", c->name,
			"before", functional_count_json(&c->before), "after", functional_count_json(&c->after),
			"reason", c->reason));
	}
	return json_pack("{s:I, s:i, s:i, s:i, s:i, s:s?, s:o}", "cases", (json_int_t)fn->ncases,
			 "regressions", fn->count[FN_REGRESSION], "improvements", fn->count[FN_IMPROVEMENT],
			 "flaky", fn->count[FN_FLAKY], "coverage", fn->count[FN_COVERAGE], "versions", fn->versions,
			 "changes", changes);
}
