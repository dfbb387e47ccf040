/* Variants and the order of an interleaved run: the order is exactly ABBA
 * for two and three variants, a random order is reproducible from its seed
 * and balanced block by block, every malformed variant is refused with one
 * error naming it, and a variant's settings land where they belong. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness/plan.h"
#include "harness/suite.h"
#include "core/util.h"
#include "t.h"

/* Where the error of the last call_capture went. */
static char captured[4096];

/* fn's stderr into captured; its return value. */
#define CAPTURE(rc, call) do { \
	FILE *tmp_ = tmpfile(); int saved_ = dup(2); fflush(stderr); dup2(fileno(tmp_), 2); \
	rc = (call); fflush(stderr); dup2(saved_, 2); close(saved_); \
	long n_ = ftell(tmp_); rewind(tmp_); captured[0] = '\0'; \
	if (n_ > 0) { size_t k_ = fread(captured, 1, n_ < 4095 ? (size_t)n_ : 4095, tmp_); captured[k_] = '\0'; } \
	fclose(tmp_); } while (0)

static bool one_line_matching(const char *re)
{
	regex_t r;
	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB))
		return false;
	size_t lines = 0;
	for (const char *p = captured; *p; p++)
		lines += *p == '\n';
	bool ok = lines == 1 && regexec(&r, captured, 0, NULL, 0) == 0;
	regfree(&r);
	if (!ok)
		printf("    stderr: %s", captured);
	return ok;
}

static char *order_text(const size_t *o, size_t n)
{
	static char buf[512];
	size_t len = 0;
	for (size_t i = 0; i < n && len < sizeof(buf) - 2; i++)
		buf[len++] = (char)('A' + o[i]);
	buf[len] = '\0';
	return buf;
}

static void test_abba(void)
{
	size_t o[64];
	plan_order(PLAN_ABBA, 0, 0, 2, 5, o);
	CHECK_STR(order_text(o, 10), "ABBAABBAAB", "two variants, five iterations: ABBA blocks");
	plan_order(PLAN_ABBA, 0, 0, 3, 4, o);
	CHECK_STR(order_text(o, 12), "ABCCBAABCCBA", "three variants: every block the reverse of the last");
	plan_order(PLAN_ABBA, 99, 7, 2, 2, o);
	CHECK_STR(order_text(o, 4), "ABBA", "ABBA ignores the seed and the case");
	plan_order(PLAN_ABBA, 0, 0, 1, 3, o);
	CHECK_STR(order_text(o, 3), "AAA", "one configuration: its iterations in turn");
}

/* Every block of nv holds each variant once. */
static bool balanced(const size_t *o, size_t nv, long iterations)
{
	for (long b = 0; b < iterations; b++) {
		unsigned seen = 0;
		for (size_t i = 0; i < nv; i++)
			seen |= 1u << o[(size_t)b * nv + i];
		if (seen != (1u << nv) - 1)
			return false;
	}
	return true;
}

static void test_random(void)
{
	size_t a[300], b[300], c[300];
	plan_order(PLAN_RANDOM, 42, 0, 3, 100, a);
	plan_order(PLAN_RANDOM, 42, 0, 3, 100, b);
	CHECK(!memcmp(a, b, sizeof(a)), "the same seed gives the same order");
	CHECK(balanced(a, 3, 100), "every block of a random order holds each variant once");
	plan_order(PLAN_RANDOM, 43, 0, 3, 100, c);
	CHECK(memcmp(a, c, sizeof(a)) != 0, "another seed gives another order");
	plan_order(PLAN_RANDOM, 42, 1, 3, 100, c);
	CHECK(memcmp(a, c, sizeof(a)) != 0 && balanced(c, 3, 100), "each case has an order of its own");
	/* not ABBA in disguise: each of the 6 permutations of 3 turns up, and
	 * each variant comes first in about a third of the blocks */
	size_t first[3] = { 0 };
	unsigned perms = 0;
	for (long k = 0; k < 100; k++) {
		const size_t *blk = a + 3 * k;
		first[blk[0]]++;
		perms |= 1u << (blk[0] * 3 + blk[1]);
	}
	CHECK(__builtin_popcount(perms) == 6, "all six orders of three variants occur");
	CHECK(first[0] > 15 && first[1] > 15 && first[2] > 15, "each variant leads some blocks (%zu %zu %zu of 100)",
	      first[0], first[1], first[2]);
	uint64_t s1 = plan_random_seed(), s2 = plan_random_seed();
	CHECK(s1 != s2 && s1 < (1ull << 53) && s2 < (1ull << 53), "drawn seeds differ and fit a JSON number");
}

static void test_parse(void)
{
	struct variant v = { 0 };
	CHECK(variant_parse(&v, "pc0:vm.page-cluster=0", "--variant") == 0 && !strcmp(v.name, "pc0") &&
	      v.nsettings == 1 && !strcmp(v.set[0].key, "vm.page-cluster") && !strcmp(v.set[0].value, "0"),
	      "NAME:KNOB=VALUE");
	variant_free(&v);
	CHECK(variant_parse(&v, "base:", "--variant") == 0 && v.nsettings == 0 && !strcmp(v.settings, ""),
	      "NAME: alone is the suite as it is");
	variant_free(&v);
	CHECK(variant_parse(&v, "big:mem=128M, swap = zram ,fault.passes=3", "--variant") == 0 && v.nsettings == 3 &&
	      !strcmp(v.set[1].key, "swap") && !strcmp(v.set[1].value, "zram") && !strcmp(v.set[2].key, "fault.passes"),
	      "several settings, blanks around them trimmed");
	variant_free(&v);
	CHECK(variant_parse(&v, "s:set=vm.swappiness=10", "--variant") == 0 && !strcmp(v.set[0].value, "vm.swappiness=10"),
	      "a value may hold '='");
	variant_free(&v);

	static const struct {
		const char *arg, *expect;
	} bad[] = {
		{ "pc0", "^vmregress: --variant: 'pc0' is not NAME:SETTINGS" },
		{ ":vm.page-cluster=0", "^vmregress: --variant: '' is not a variant name" },
		{ "a b:x=1", "^vmregress: --variant: 'a b' is not a variant name" },
		{ "pc0:vm.page-cluster", "^vmregress: --variant pc0: 'vm.page-cluster' is not KEY=VALUE" },
		{ "pc0:=3", "^vmregress: --variant pc0: '=3' is not KEY=VALUE" },
		{ "pc0:a=1,,b=2", "^vmregress: --variant pc0: '' is not KEY=VALUE" },
		{ "pc0:a=1,", "^vmregress: --variant pc0: a setting is missing after the last comma" },
		{ "pc0:mem=1G,mem=2G", "^vmregress: --variant pc0: 'mem' is set twice" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int rc;
		CAPTURE(rc, variant_parse(&v, bad[i].arg, "--variant"));
		CHECK(rc < 0 && !v.name && one_line_matching(bad[i].expect), "refused with one line: '%s'", bad[i].arg);
	}

	struct variant two[2] = { 0 };
	int rc;
	variant_parse(&two[0], "a:", "--variant");
	CAPTURE(rc, variants_check(two, 1, "--variant"));
	CHECK(rc < 0 && one_line_matching("one variant alone compares with nothing"), "one variant is refused");
	variant_parse(&two[1], "a:mem=1G", "--variant");
	CAPTURE(rc, variants_check(two, 2, "--variant"));
	CHECK(rc < 0 && one_line_matching("variant name 'a' is given twice"), "two variants of one name are refused");
	variant_free(&two[0]);
	variant_free(&two[1]);
}

static const char suite_text[] =
	"[global]\n"
	"iterations = 2\n"
	"set = vm.page-cluster=3\n"
	"mem = 64M\n"
	"[fault-zero]\n"
	"workload = fault\n"
	"level = zero\n"
	"[fault-fast]\n"
	"workload = fault\n"
	"[spin]\n"
	"workload = null\n";

static int apply(const char *arg, struct suite *s)
{
	struct variant v = { 0 };
	if (suite_parse(s, "t.ini", suite_text) < 0 || variant_parse(&v, arg, "--variant") < 0)
		return -2;
	int rc = variant_apply(s, &v, "--variant");
	variant_free(&v);
	return rc;
}

static long passes(const struct suite_case *c)
{
	return *OPT_FIELD(c->wopts, opt_find(c->w->opts, "passes"), long);
}

static void test_apply(void)
{
	struct suite s = { 0 };
	CHECK(apply("pc0:vm.page-cluster=0", &s) == 0 && s.cases[0].sandbox.set.n == 1 &&
	      !strcmp(s.cases[2].sandbox.set.v[0], "vm.page-cluster=0"), "a knob replaces the suite's value of it");
	suite_free(&s);
	CHECK(apply("big:mem=128M,monitor-interval=200ms,trace=reclaim", &s) == 0 &&
	      s.cases[1].sandbox.mem_bytes == 128ull << 20 && s.cases[2].set.monitor_interval_ns == 200000000ull &&
	      s.cases[0].trace.trace != 0, "sandbox, suite and tracing options reach every case");
	suite_free(&s);
	CHECK(apply("p:fault.passes=2", &s) == 0 && passes(&s.cases[0]) == 2 && passes(&s.cases[1]) == 2,
	      "WORKLOAD.OPTION sets every case of that workload");
	suite_free(&s);
	CHECK(apply("p:fault-zero.passes=2", &s) == 0 && passes(&s.cases[0]) == 2 && passes(&s.cases[1]) == 5,
	      "CASE.OPTION sets that case alone");
	suite_free(&s);
	CHECK(apply("p:passes=4", &s) == 0 && passes(&s.cases[0]) == 4 && passes(&s.cases[1]) == 4,
	      "a bare OPTION sets every case whose workload has it");
	suite_free(&s);

	static const struct {
		const char *arg, *expect;
	} bad[] = {
		{ "x:iterations=3", "^vmregress: --variant x: iterations: every variant runs as many iterations" },
		{ "x:order=random", "^vmregress: --variant x: order: the order is the whole run's" },
		{ "x:frob=1", "^vmregress: --variant x: frob: not a knob, nor a sandbox, suite or workload option" },
		{ "x:mmap.pages=3", "^vmregress: --variant x: mmap.pages: 'mmap' is neither a case nor a workload" },
		{ "x:fault.frob=3", "^vmregress: --variant x: fault.frob: 'fault' has no option 'frob'" },
		{ "x:fault.passes=zero", "^vmregress: --variant x: fault.passes: 'zero' is not" },
		{ "x:mem=12Q", "^vmregress: --variant x: mem: '12Q' is not a size" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		int rc;
		CAPTURE(rc, apply(bad[i].arg, &s));
		CHECK(rc == -1 && one_line_matching(bad[i].expect), "refused with one line: '%s'", bad[i].arg);
		suite_free(&s);
	}
	struct variant v = { 0 };
	variant_parse(&v, "k:vm.swappiness=10", "--variant");
	CHECK(variant_needs_sandbox(&v), "a knob needs a sandbox");
	variant_free(&v);
	variant_parse(&v, "k:fault.passes=1,trace=faults", "--variant");
	CHECK(!variant_needs_sandbox(&v), "workload and tracing options do not");
	variant_free(&v);
}

static void test_suite_variants(void)
{
	struct suite s = { 0 };
	const char *text = "[global]\norder = random\nseed = 7\n[variants]\nbase =\npc0 = vm.page-cluster=0, mem=32M\n"
			   "[a]\nworkload = null\n";
	int rc;
	CAPTURE(rc, suite_parse(&s, "t.ini", text));
	CHECK(rc == 0 && s.ncases == 1 && s.nvariants == 2, "[variants] is variants, not a case");
	if (rc == 0) {
		CHECK(!strcmp(s.variants[0].name, "base") && s.variants[0].nsettings == 0 && s.variants[1].nsettings == 2 &&
		      s.variants[1].line == 6, "NAME = SETTINGS per line, with its line");
		CHECK(s.global.order == PLAN_RANDOM && s.global.seed == 7, "order and seed in [global]");
		suite_free(&s);
	}
	CAPTURE(rc, suite_parse(&s, "t.ini", "[a]\nworkload = null\n"));
	CHECK(rc == 0 && s.nvariants == 0 && s.global.order == PLAN_ABBA && s.global.seed == -1,
	      "no [variants]: none, ABBA, no seed");
	suite_free(&s);

	static const struct {
		const char *what, *text, *expect;
	} bad[] = {
		{ "a bad variant", "[variants]\na =\nb = vm.page-cluster\n[x]\nworkload = null\n",
		  "^vmregress: t.ini:3: variant b: 'vm.page-cluster' is not KEY=VALUE" },
		{ "one variant", "[variants]\na = mem=1G\n[x]\nworkload = null\n",
		  "^vmregress: t.ini:2: \\[variants\\]: one variant alone" },
		{ "an empty section", "[variants]\n[x]\nworkload = null\n", "^vmregress: t.ini:1: \\[variants\\]: no variants" },
		{ "order in a case", "[x]\nworkload = null\norder = random\n",
		  "^vmregress: t.ini:3: 'order' is the whole run's: set it in \\[global\\]" },
		{ "a bad order", "[global]\norder = sideways\n[x]\nworkload = null\n", "^vmregress: t.ini:2: order: 'sideways'" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		CAPTURE(rc, suite_parse(&s, "t.ini", bad[i].text));
		CHECK(rc < 0 && one_line_matching(bad[i].expect), "suite refused with one line: %s", bad[i].what);
	}
}

int main(void)
{
	test_abba();
	test_random();
	test_parse();
	test_apply();
	test_suite_variants();
	T_DONE();
}
