/* Suite files: a good suite resolves every case (defaults, then [global],
 * then the case), and each kind of malformed suite is refused with one error
 * naming FILE:LINE. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness/suite.h"
#include "core/util.h"
#include "t.h"

/* Parse text and return what it printed on stderr (malloc'd), rc in *rc. */
static char *parse_capture(const char *text, struct suite *s, int *rc)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	*rc = suite_parse(s, "t.ini", text);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	long n = ftell(tmp);
	char *out = xcalloc(1, (size_t)(n > 0 ? n : 0) + 1);
	rewind(tmp);
	if (n > 0 && fread(out, 1, (size_t)n, tmp) != (size_t)n)
		out[0] = '\0';
	fclose(tmp);
	return out;
}

static void good_suite(void)
{
	const char *text =
		"; a comment\n"
		"[global]\n"
		"iterations = 3\n"
		"mem = 64M\n"
		"spin = 1ms           ; a workload option for every case that has it\n"
		"set = vm.page-cluster=2\n"
		"refs-generate = --pages 100 --references 1000 --pattern linear\n"
		"\n"
		"[first]\n"
		"workload = null\n"
		"\n"
		"[second]\n"
		"  workload = null\n"
		"  iterations = 5\n"
		"  spin = 2ms\n"
		"  mem = 1G\n"
		"  set = vm.swappiness=10\n"
		"  monitor-interval = 100ms\n";
	struct suite s = { 0 };
	int rc;
	char *err = parse_capture(text, &s, &rc);
	CHECK(rc == 0, "a good suite parses");
	if (rc) {
		printf("    %s", err);
		free(err);
		return;
	}
	free(err);
	CHECK_EQ_U(s.ncases, 2, "two cases");
	CHECK_STR(s.cases[0].name, "first", "case named by its section");
	CHECK_EQ_U(s.cases[0].line, 9, "case line is its header's");
	CHECK(s.cases[0].set.iterations == 3 && s.cases[1].set.iterations == 5, "iterations: global, then case");
	CHECK(s.cases[0].sandbox.mem_bytes == 64ull << 20 && s.cases[1].sandbox.mem_bytes == 1ull << 30,
	      "sandbox options: global, then case");
	CHECK(s.cases[0].sandbox.set.n == 1 && s.cases[1].sandbox.set.n == 2 &&
	      !strcmp(s.cases[1].sandbox.set.v[1], "vm.swappiness=10"), "set accumulates global then case");
	CHECK(s.cases[0].set.monitor_interval_ns == 1000000000ull && s.cases[1].set.monitor_interval_ns == 100000000ull,
	      "monitor interval default 1s, overridden per case");
	json_t *j0 = suite_case_json(&s.cases[0]), *j1 = suite_case_json(&s.cases[1]);
	CHECK(json_integer_value(json_object_get(json_object_get(j0, "options"), "spin")) == 1000000 &&
	      json_integer_value(json_object_get(json_object_get(j1, "options"), "spin")) == 2000000,
	      "workload options: global, then case, echoed");
	CHECK_STR(json_string_value(json_object_get(j0, "workload")), "null", "echo names the workload");
	json_decref(j0);
	json_decref(j1);
	CHECK(!s.cases[0].set.refs_generate, "a global refs-generate skips workloads without traces");
	CHECK(suite_override(&s, suite_opts, "iterations", "7", "--iterations") == 0 && s.cases[0].set.iterations == 7 &&
	      s.cases[1].set.iterations == 7, "command-line override reaches every case");
	CHECK(suite_override(&s, sandbox_opts, "set", "vm.page-cluster=4", "--set") == 0 &&
	      s.cases[0].sandbox.set.n == 2, "--set appends to every case");
	suite_free(&s);
}

struct bad_case {
	const char *what, *text, *expect;
};

/* Each guards against one kind of mistake a person makes in a suite. */
static const struct bad_case bad_cases[] = {
	{ "unknown workload", "[a]\nworkload = nosuch\n", "t.ini:2: workload 'nosuch' is not in this build" },
	{ "unknown option in a case", "[a]\nworkload = null\nbogus = 1\n", "t.ini:3: unknown option 'bogus' for workload null" },
	{ "out-of-range option", "[global]\niterations = 0\n[a]\nworkload = null\n", "t.ini:2: iterations: '0' is out of range" },
	{ "out-of-range workload option", "[a]\nworkload=null\nspin = 2h\n", "t.ini:3: spin: '2h' is out of range" },
	{ "duplicate section", "[a]\nworkload = null\n[b]\nworkload=null\n[a]\n", "t.ini:5: duplicate section \\[a\\] \\(first at line 1\\)" },
	{ "duplicate empty global", "[global]\n[global]\n[a]\nworkload=null\n", "t.ini:2: duplicate section \\[global\\]" },
	{ "bad size", "[global]\nmem = 12Q\n[a]\nworkload = null\n", "t.ini:2: mem: '12Q' is not a size" },
	{ "bad time", "[a]\nworkload = null\nmonitor-interval = soon\n", "t.ini:3: monitor-interval: 'soon' is not a time" },
	{ "monitor interval below 50ms", "[a]\nworkload = null\nmonitor-interval = 10ms\n", "t.ini:3: monitor-interval: '10ms' is out of range" },
	{ "key outside a section", "iterations = 2\n[a]\nworkload = null\n", "t.ini:1: 'iterations' is outside a section" },
	{ "unclosed section header", "[a]\nworkload = null\n[b\n", "t.ini:3: expected 'key = value'" },
	{ "line without =", "[a]\nworkload = null\njust words\n", "t.ini:3: expected 'key = value'" },
	{ "bad section name", "[a b]\nworkload = null\n", "t.ini:1: bad section name" },
	{ "case without workload", "[global]\n[a]\nspin = 1s\n", "t.ini:2: \\[a\\] names no workload" },
	{ "unknown global option", "[global]\nfrobs = 3\n[a]\nworkload = null\n", "t.ini:2: unknown option 'frobs'" },
	{ "no cases", "[global]\niterations = 2\n", "t.ini: no cases" },
	{ "empty file", "", "t.ini: no cases" },
	{ "line too long", "[a]\nworkload = null\n; xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n",
	  "t.ini:3: line too long" },
	{ "refs-generate for a workload without traces", "[a]\nworkload = null\nrefs-generate = --pages 10\n",
	  "t.ini:3: refs-generate: workload null takes no reference trace" },
	{ "bad flag value", "[a]\nworkload = null\nno-probe = maybe\n", "t.ini:3: no-probe: 'maybe' is not a yes/no value" },
};

#include <regex.h>

static void bad_suites(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *b = &bad_cases[i];
		struct suite s = { 0 };
		int rc;
		char *err = parse_capture(b->text, &s, &rc);
		regex_t re;
		char *pat = xasprintf("^vmregress: %s", b->expect);
		regcomp(&re, pat, REG_EXTENDED | REG_NOSUB);
		size_t lines = 0;
		for (const char *p = err; *p; p++)
			lines += *p == '\n';
		bool ok = rc < 0 && regexec(&re, err, 0, NULL, 0) == 0 && lines == 1;
		CHECK(ok, "%s: refused with one line naming the place", b->what);
		if (!ok)
			printf("    rc %d, stderr: %s", rc, err);
		regfree(&re);
		free(pat);
		free(err);
	}
}

static void find_suites(void)
{
	setenv("VMR_SUITE_DIR", "suites", 1);
	char *p = suite_find("quick");
	CHECK(p && strstr(p, "suites/quick.ini"), "built-in suite found by name in VMR_SUITE_DIR");
	free(p);
	FILE *tmp = tmpfile();
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	p = suite_find("no-such-suite");
	dup2(saved, 2);
	close(saved);
	fclose(tmp);
	CHECK(!p, "an unknown suite name is refused");
	/* The built-in suites name only workloads and options of this build. */
	static const char *const builtin[] = { "quick", "seeds", "full" };
	for (size_t i = 0; i < ARRAY_SIZE(builtin); i++) {
		struct suite s = { 0 };
		int rc = suite_load(&s, builtin[i]);
		CHECK(rc == 0 && s.ncases > 0, "built-in suite %s parses", builtin[i]);
		if (rc == 0)
			suite_free(&s);
	}
}

int main(void)
{
	good_suite();
	bad_suites();
	find_suites();
	T_DONE();
}
