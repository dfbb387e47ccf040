#include "probe/ktap.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static const char *const ktap_names[] = {
	[KTAP_PASS] = "pass", [KTAP_FAIL] = "fail", [KTAP_SKIP] = "skip",
	[KTAP_XFAIL] = "xfail", [KTAP_XPASS] = "xpass", [KTAP_ERROR] = "error",
};

const char *ktap_status_name(enum ktap_status s)
{
	return (unsigned)s < sizeof(ktap_names) / sizeof(ktap_names[0]) ? ktap_names[s] : "error";
}

int ktap_status_parse(const char *s, enum ktap_status *st)
{
	for (size_t i = 0; i < sizeof(ktap_names) / sizeof(ktap_names[0]); i++)
		if (!strcmp(s, ktap_names[i])) {
			*st = (enum ktap_status)i;
			return 0;
		}
	return -1;
}

void ktap_init(struct ktap *k)
{
	memset(k, 0, sizeof(*k));
	k->plan = -1;
}

/* Does [p, p+n) start with the word w (case-insensitive), then space or end? */
static bool ktap_word(const char *p, size_t n, const char *w)
{
	size_t wl = strlen(w);
	return n >= wl && !strncasecmp(p, w, wl) && (n == wl || isspace((unsigned char)p[wl]));
}

static void ktap_trim(const char **p, size_t *n)
{
	while (*n && isspace((unsigned char)**p))
		(*p)++, (*n)--;
	while (*n && isspace((unsigned char)(*p)[*n - 1]))
		(*n)--;
}

static void ktap_copy(char *dst, const char *p, size_t n)
{
	if (n >= KTAP_NAME_MAX)
		n = KTAP_NAME_MAX - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
}

/* A number at *p, advancing past it; -1 when there is none. */
static long ktap_number(const char **p, size_t *n)
{
	long v = 0;
	size_t i = 0;
	while (i < *n && isdigit((unsigned char)(*p)[i]) && v < 100000000)
		v = v * 10 + ((*p)[i++] - '0');
	if (!i)
		return -1;
	*p += i, *n -= i;
	return v;
}

/* "1..N" with an optional "# SKIP why". */
static void ktap_plan(struct ktap *k, const char *p, size_t n)
{
	p += 3, n -= 3;
	long v = ktap_number(&p, &n);
	if (v < 0)
		return;
	k->plan = v;
	ktap_trim(&p, &n);
	if (n && *p == '#') {
		p++, n--;
		ktap_trim(&p, &n);
		if (ktap_word(p, n, "skip")) {
			k->plan_skip = true;
			p += 4, n -= 4;
			ktap_trim(&p, &n);
			ktap_copy(k->why, p, n);
		}
	}
}

/* A diagnostic: remember the name a "[RUN] X" or kselftest_harness's
 * " RUN  X ..." line gives the case that follows. */
static void ktap_diag(struct ktap *k, const char *p, size_t n)
{
	ktap_trim(&p, &n);
	if (n >= 5 && !strncmp(p, "[RUN]", 5))
		p += 5, n -= 5;
	else if (ktap_word(p, n, "RUN"))
		p += 3, n -= 3;
	else
		return;
	ktap_trim(&p, &n);
	if (n >= 3 && !strncmp(p + n - 3, "...", 3))
		n -= 3;
	ktap_trim(&p, &n);
	ktap_copy(k->last_run, p, n);
}

/* The directive after " # ": SKIP, TODO, XFAIL, XPASS, error, TIMEOUT. */
static void ktap_directive(struct ktap_case *c, const char *p, size_t n)
{
	static const struct { const char *word; enum ktap_status st; bool ok; } dirs[] = {
		{ "skip", KTAP_SKIP, true }, { "todo", KTAP_XFAIL, false }, { "xfail", KTAP_XFAIL, true },
		{ "xpass", KTAP_XPASS, true }, { "error", KTAP_ERROR, false }, { "timeout", KTAP_FAIL, false },
	};
	ktap_trim(&p, &n);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t wl = strlen(dirs[i].word);
		if (!ktap_word(p, n, dirs[i].word))
			continue;
		/* "ok N # TODO" is a pass that was expected to fail; not ok # TODO an xfail */
		if (!strcmp(dirs[i].word, "todo"))
			c->status = c->status == KTAP_PASS ? KTAP_XPASS : KTAP_XFAIL;
		else if (dirs[i].st != KTAP_FAIL)
			c->status = dirs[i].st;
		p += wl, n -= wl;
		break;
	}
	ktap_trim(&p, &n);
	c->reason = p, c->reason_len = n;
}

static int ktap_result(struct ktap *k, const char *p, size_t n, unsigned depth, bool ok,
		       struct ktap_case *c)
{
	memset(c, 0, sizeof(*c));
	c->depth = depth;
	c->status = ok ? KTAP_PASS : KTAP_FAIL;
	ktap_trim(&p, &n);
	long num = ktap_number(&p, &n);
	c->number = num < 0 ? 0 : (unsigned)num;
	ktap_trim(&p, &n);
	if (n && *p == '-') {  /* TAP allows "ok 1 - name" */
		p++, n--;
		ktap_trim(&p, &n);
	}
	const char *hash = NULL;
	if (n && *p == '#')
		hash = p;
	else
		for (size_t i = 1; i + 1 < n; i++)
			if (p[i] == '#' && isspace((unsigned char)p[i - 1])) {
				hash = p + i;
				break;
			}
	size_t name_len = hash ? (size_t)(hash - p) : n;
	c->name = p, c->name_len = name_len;
	ktap_trim(&c->name, &c->name_len);
	if (hash)
		ktap_directive(c, hash + 1, n - (size_t)(hash + 1 - p));
	/* kselftest's "ok 3 # SKIP text": the text is the reason, and the case
	 * is named by the [RUN] line before it, else by the text */
	if (!c->name_len && k->last_run[0])
		c->name = k->last_run, c->name_len = strlen(k->last_run);
	else if (!c->name_len)
		c->name = c->reason, c->name_len = c->reason_len;
	if (!depth)
		k->results++;
	memcpy(k->context, k->last_run, sizeof(k->context));
	if (c->name == k->last_run)
		c->name = k->context;
	c->context = k->context;
	k->last_run[0] = '\0';
	return 1;
}

int ktap_line(struct ktap *k, const char *line, size_t len, struct ktap_case *c)
{
	const char *p = line;
	size_t n = len;
	while (n && (p[n - 1] == '\r' || p[n - 1] == '\n'))
		n--;
	unsigned indent = 0;
	while (indent < n && p[indent] == ' ')
		indent++;
	p += indent, n -= indent;
	if (ktap_word(p, n, "TAP") || ktap_word(p, n, "KTAP")) {
		k->seen_version = true;
		return 0;
	}
	if (n >= 3 && !strncmp(p, "1..", 3)) {
		if (!indent)
			ktap_plan(k, p, n);
		return 0;
	}
	if (n && *p == '#') {
		ktap_diag(k, p + 1, n - 1);
		return 0;
	}
	if (n >= 9 && !strncasecmp(p, "Bail out!", 9)) {
		k->bailed = true;
		p += 9, n -= 9;
		ktap_trim(&p, &n);
		ktap_copy(k->why, p, n);
		return 0;
	}
	if (ktap_word(p, n, "ok"))
		return ktap_result(k, p + 2, n - 2, indent / 2, true, c);
	if (ktap_word(p, n, "not") && n > 4 && ktap_word(p + 4, n - 4, "ok"))
		return ktap_result(k, p + 6, n - 6, indent / 2, false, c);
	return 0;
}
