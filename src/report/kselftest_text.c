#include "report/kselftest_text.h"

#include <string.h>

#include "core/units.h"
#include "core/util.h"

void kselftest_build_text(FILE *f, const json_t *build, const char *dir)
{
	const char *pkg = json_string_value(json_object_get(build, "package"));
	const char *ver = json_string_value(json_object_get(build, "version"));
	json_t *built = json_object_get(build, "built"), *nb = json_object_get(build, "not_built");
	fprintf(f, "%s%s%s: %zu selftests built in %s%s\n", pkg ? pkg : json_string_value(json_object_get(build, "source")),
		ver ? " " : "", ver ? ver : "", json_array_size(built), dir,
		json_is_true(json_object_get(build, "static")) ? " (statically linked)" : "");
	if (json_object_size(nb))
		fprintf(f, "%zu did not build:\n", json_object_size(nb));
	const char *name;
	json_t *why;
	json_object_foreach((json_t *)nb, name, why)
		fprintf(f, "  %-24s %s\n", name, json_string_value(why));
}

/* How many of a test's cases have status st. */
static size_t kselftest_count(const json_t *cases, const char *st)
{
	size_t i, n = 0;
	json_t *c;
	json_array_foreach(cases, i, c)
		n += !strcmp(json_string_value(json_object_get(c, "status")), st);
	return n;
}

/* A test's skip reasons, each once with how many cases gave it. */
static void kselftest_skips(FILE *f, const json_t *cases)
{
	json_t *seen = json_object();
	size_t i;
	json_t *c;
	json_array_foreach(cases, i, c) {
		const char *why = json_string_value(json_object_get(c, "reason"));
		if (strcmp(json_string_value(json_object_get(c, "status")), "skip") || !why)
			continue;
		json_t *n = json_object_get(seen, why);
		json_object_set_new(seen, why, json_integer(n ? json_integer_value(n) + 1 : 1));
	}
	const char *why;
	json_t *n;
	size_t shown = 0, total = json_object_size(seen);
	json_object_foreach(seen, why, n) {
		if (shown++ == 4 && total > 5) {  /* the rest with --json */
			fprintf(f, "      and %zu other reasons\n", total - 4);
			break;
		}
		fprintf(f, "      skipped %lld: %s\n", (long long)json_integer_value(n), why);
	}
	json_decref(seen);
}

static void kselftest_failures(FILE *f, const json_t *cases)
{
	size_t i;
	json_t *c;
	json_array_foreach(cases, i, c) {
		const char *st = json_string_value(json_object_get(c, "status"));
		if (strcmp(st, "fail") && strcmp(st, "error"))
			continue;
		const char *why = json_string_value(json_object_get(c, "reason"));
		fprintf(f, "      %s: %s%s%s\n", st, json_string_value(json_object_get(c, "name")),
			why && *why ? ": " : "", why && *why ? why : "");
	}
}

void kselftest_result_text(FILE *f, const struct result *r)
{
	json_t *ks = json_object_get(r->info, "kselftest");
	const char *ver = json_string_value(json_object_get(ks, "version"));
	fprintf(f, "Kernel selftests of %s%s%s%s\n\n", json_string_value(json_object_get(ks, "source")),
		ver ? " (" : "", ver ? ver : "", ver ? ")" : "");
	fprintf(f, "  %-24s %6s %6s %6s %6s %10s\n", "test", "pass", "fail", "skip", "xfail", "time");
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(ks, "tests"), i, t) {
		json_t *cases = json_object_get(t, "cases");
		char time[32] = "-";
		json_t *ns = json_object_get(t, "time_ns");
		if (json_is_integer(ns))
			units_format_time(time, sizeof(time), (uint64_t)json_integer_value(ns));
		fprintf(f, "  %-24s %6zu %6zu %6zu %6zu %10s\n", json_string_value(json_object_get(t, "test")),
			kselftest_count(cases, "pass") + kselftest_count(cases, "xpass"),
			kselftest_count(cases, "fail") + kselftest_count(cases, "error"),
			kselftest_count(cases, "skip"), kselftest_count(cases, "xfail"), time);
		kselftest_failures(f, cases);
		kselftest_skips(f, cases);
	}
	fputc('\n', f);
	if (r->outcome == OUTCOME_PASS)
		fputs("Every case that ran passed\n", f);
	else
		fprintf(f, "Test %s: %s\n", r->outcome == OUTCOME_FAIL ? "failed" : outcome_name(r->outcome),
			r->reason ? r->reason : "no reason given");
}
