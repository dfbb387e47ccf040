/* The KTAP/TAP parser (probe/ktap.h) over kselftest's own output, captured
 * from the mm selftests of linux-source-6.12, and over each form the format
 * allows. */
#include <string.h>

#include "probe/ktap.h"
#include "t.h"
#include "fixture.h"

struct tally {
	unsigned n[KTAP_ERROR + 1];
	char first_xfail[128];
	char last_name[128];
};

static void tally_text(struct ktap *k, const char *buf, size_t len, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	ktap_init(k);
	const char *p = buf, *end = buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct ktap_case c;
		if (ktap_line(k, p, n, &c) == 1 && !c.depth) {
			t->n[c.status]++;
			snprintf(t->last_name, sizeof(t->last_name), "%.*s", (int)c.name_len, c.name);
			if (c.status == KTAP_XFAIL && !t->first_xfail[0])
				snprintf(t->first_xfail, sizeof(t->first_xfail), "%.*s", (int)c.name_len, c.name);
		}
		p += n + 1;
	}
}

/* One line's case; the name and reason copied out. */
static int one(struct ktap *k, const char *line, struct ktap_case *c, char *name, char *reason)
{
	int r = ktap_line(k, line, strlen(line), c);
	if (r == 1) {
		snprintf(name, 128, "%.*s", (int)c->name_len, c->name);
		snprintf(reason, 128, "%.*s", (int)c->reason_len, c->reason ? c->reason : "");
	}
	return r;
}

int main(void)
{
	struct ktap k;
	struct tally t;
	size_t len;
	char *buf = fixture_read("ktap", "mremap_test-6.12.txt", &len);
	tally_text(&k, buf, len, &t);
	/* its own totals line: pass:16 fail:0 xfail:3 */
	CHECK_EQ_U(t.n[KTAP_PASS], 16, "mremap_test: 16 passed, as its Totals line says");
	CHECK_EQ_U(t.n[KTAP_XFAIL], 3, "mremap_test: 3 expected failures");
	CHECK_EQ_U(t.n[KTAP_FAIL], 0, "mremap_test: none failed");
	CHECK(k.plan == 19 && k.results == 19, "mremap_test: the plan (19) and 19 results");
	CHECK_STR(t.first_xfail, "mremap - Source and Destination Regions Overlapping",
		  "a nameless XFAIL is named by its text");
	free(buf);

	buf = fixture_read("ktap", "madv_populate-6.12.txt", &len);
	tally_text(&k, buf, len, &t);
	CHECK_EQ_U(t.n[KTAP_PASS], 16, "madv_populate: 16 passed");
	CHECK(k.seen_version && k.plan == 16, "madv_populate: TAP version and plan 16");
	free(buf);

	struct ktap_case c;
	char name[128], reason[128];
	ktap_init(&k);
	CHECK(one(&k, "# [RUN] Basic COW after fork() ... with PTE-mapped THP (16 kB)", &c, name, reason) == 0,
	      "a [RUN] diagnostic is no result");
	CHECK(one(&k, "ok 5 # SKIP MADV_HUGEPAGE failed", &c, name, reason) == 1 && c.status == KTAP_SKIP,
	      "ok # SKIP is a skip");
	CHECK_STR(name, "Basic COW after fork() ... with PTE-mapped THP (16 kB)",
		  "a nameless skip is named by the [RUN] line before it");
	CHECK_STR(reason, "MADV_HUGEPAGE failed", "the skip's text is its reason");
	CHECK(one(&k, "not ok 6 No leak from parent into child", &c, name, reason) == 1 &&
	      c.status == KTAP_FAIL && c.number == 6, "not ok N name is a failure numbered N");
	CHECK_STR(c.context, "", "a result after another has no [RUN] context left");
	CHECK(one(&k, "not ok 7 # error could not fork", &c, name, reason) == 1 && c.status == KTAP_ERROR,
	      "not ok # error is an error");
	CHECK(one(&k, "ok 8 - dashed name # TODO later", &c, name, reason) == 1 && c.status == KTAP_XPASS,
	      "ok # TODO passed where a failure was expected");
	CHECK_STR(name, "dashed name", "TAP's '- ' before a name is dropped");
	CHECK(one(&k, "not ok 9 slow # TIMEOUT 45 seconds", &c, name, reason) == 1 && c.status == KTAP_FAIL,
	      "not ok # TIMEOUT is a failure");
	CHECK_STR(reason, "45 seconds", "... with its text as the reason");
	CHECK(one(&k, "    ok 1 subtest", &c, name, reason) == 1 && c.depth == 2,
	      "an indented result is a subtest, its depth from the indent");
	CHECK(one(&k, "okay then", &c, name, reason) == 0, "a line that only starts with 'ok' is text");
	CHECK(one(&k, "ok 10 thp # XFAIL not on this kernel\r", &c, name, reason) == 1 &&
	      c.status == KTAP_XFAIL, "XFAIL after a name, with a carriage return");
	CHECK_STR(reason, "not on this kernel", "... its reason without the carriage return");

	ktap_init(&k);
	ktap_line(&k, "1..0 # SKIP need root", 21, &c);
	CHECK(k.plan == 0 && k.plan_skip && !strcmp(k.why, "need root"), "1..0 # SKIP: nothing can run, and why");
	ktap_init(&k);
	ktap_line(&k, "Bail out! no memory", 19, &c);
	CHECK(k.bailed && !strcmp(k.why, "no memory"), "Bail out! is remembered with its reason");

	enum ktap_status st;
	for (int s = KTAP_PASS; s <= KTAP_ERROR; s++)
		CHECK(ktap_status_parse(ktap_status_name((enum ktap_status)s), &st) == 0 && (int)st == s,
		      "status %s reads back", ktap_status_name((enum ktap_status)s));
	CHECK(ktap_status_parse("maybe", &st) < 0, "an unknown status name is refused");
	T_DONE();
}
