/* The kernel's test output format: KTAP (Documentation/dev-tools/ktap.rst)
 * and the TAP 13 that tools/testing/selftests/kselftest.h prints.  A test
 * prints, a line at a time:
 *
 *   TAP version 13                  or "KTAP version 1"
 *   1..3                            the plan ("1..0 # SKIP why": none can run)
 *   # [RUN] COW after fork()        diagnostics
 *   ok 1 COW after fork()           a passed case
 *   not ok 2 mremap expand          a failed one
 *   ok 3 # SKIP need huge pages     skipped: kselftest puts the directive
 *                                   before the text, which is then the reason
 *   ok 4 name # XFAIL why           an expected failure (also XPASS, TODO)
 *   not ok 5 # error why            the test itself broke
 *     ok 1 sub                      a subtest: indented, before its parent
 *   Bail out! why                   the test gave up
 *   # Totals: pass:1 fail:1 ...
 *
 * The parser is fed one line at a time (so that the caller can time each
 * case as its line arrives), from a buffer that need not be NUL-terminated,
 * and never allocates: a case's name and reason point into the line, or
 * into the parser's copy of the last "[RUN]" diagnostic, which names a case
 * whose result line has no name of its own (kselftest's skips). */
#ifndef VMR_KTAP_H
#define VMR_KTAP_H

#include <stdbool.h>
#include <stddef.h>

enum ktap_status { KTAP_PASS, KTAP_FAIL, KTAP_SKIP, KTAP_XFAIL, KTAP_XPASS, KTAP_ERROR };

struct ktap_case {
	unsigned number;       /* the result line's number */
	unsigned depth;        /* 0 for a test's own cases, 1 for their subtests... */
	enum ktap_status status;
	const char *name;      /* not NUL-terminated: name_len bytes */
	size_t name_len;
	const char *reason;    /* the directive's text or the "#" comment; reason_len bytes */
	size_t reason_len;
	const char *context;   /* the "[RUN]" line before it ("" if none), NUL-terminated */
};

#define KTAP_NAME_MAX 200

struct ktap {
	bool seen_version;
	long plan;                   /* -1 until the plan line */
	bool plan_skip;              /* "1..0 # SKIP why" */
	bool bailed;                 /* "Bail out!" */
	char why[KTAP_NAME_MAX];     /* the plan's skip reason or the bail-out's */
	char last_run[KTAP_NAME_MAX];/* the last "[RUN] ..." diagnostic, for nameless results */
	char context[KTAP_NAME_MAX]; /* the one the last result followed */
	unsigned results;            /* result lines at depth 0 */
};

void ktap_init(struct ktap *k);
/* Feed one line (without its newline).  Returns 1 when the line is a
 * result (filled into *c), else 0: a version, plan, diagnostic or other
 * text, which updates k. */
int ktap_line(struct ktap *k, const char *line, size_t len, struct ktap_case *c);
/* "pass", "fail", "skip", "xfail", "xpass", "error". */
const char *ktap_status_name(enum ktap_status s);
int ktap_status_parse(const char *s, enum ktap_status *st);

#endif
