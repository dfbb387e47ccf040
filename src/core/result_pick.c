/* Picking the members of a stored result's JSON text that a reader needs,
 * without parsing the rest (result.h, result_pick_text): a text is mostly
 * maps, series and histograms, which statistics never read, and parsing
 * them into JSON values costs more than all the statistics. */
#include "core/result.h"

#include <string.h>

#include "core/util.h"

/* The members of each part, in the order result_to_json writes them. */
static const struct {
	const char *key;
	unsigned part;
	bool optional;   /* "reason" is left out on a pass */
} pick_members[] = {
	{ "workload", RESULT_METRICS, false }, { "outcome", RESULT_METRICS, false },
	{ "reason", RESULT_METRICS, true },    { "options", RESULT_INFO, false },
	{ "info", RESULT_INFO, false },        { "metrics", RESULT_METRICS, false },
	{ "tables", RESULT_TABLES, false }, { "hists", RESULT_HISTS, false },  { "maps", RESULT_MAPS, false },
	{ "series", RESULT_SERIES, false },
};

static const char *pick_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* Past the string at p (its opening quote), or NULL when the text ends
 * first.  A quote ends it unless an odd number of backslashes precede it. */
static const char *pick_string(const char *p, const char *end)
{
	const char *from = p + 1;
	for (;;) {
		const char *q = memchr(from, '"', (size_t)(end - from));
		if (!q)
			return NULL;
		size_t bs = 0;
		while (q - bs > p + 1 && q[-1 - (long)bs] == '\\')
			bs++;
		if (!(bs & 1))
			return q + 1;
		from = q + 1;
	}
}

/* Past the value at p, or NULL when the text ends first. */
static const char *pick_value(const char *p, const char *end)
{
	if (*p == '"')
		return pick_string(p, end);
	if (*p != '{' && *p != '[') {
		while (p < end && !strchr(",}] \t\r\n", *p))
			p++;
		return p < end ? p : NULL;
	}
	size_t depth = 0;
	while (p < end) {
		switch (*p) {
		case '"':
			p = pick_string(p, end);
			if (!p)
				return NULL;
			continue;
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (--depth == 0)
				return p + 1;
			break;
		}
		p++;
	}
	return NULL;
}

/* Where a member's value lies in the text. */
struct pick_span {
	const char *v;
	size_t n;
};

/* The parts result_from_text_parts reads from their text, and where each
 * one's span goes. */
#define PICK_TEXT_PARTS (RESULT_TABLES | RESULT_HISTS | RESULT_SERIES)

/* The span of a member read from its text (pick_text), or -1. */
static int pick_span_index(const char *key)
{
	static const char *const keys[] = { "tables", "hists", "series", "metrics" };
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++)
		if (!strcmp(keys[k], key))
			return (int)k;
	return -1;
}

/* Index into pick_members of the key text k[0..n) (without its quotes), or -1. */
static int pick_member(const char *k, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(pick_members); i++)
		if (strlen(pick_members[i].key) == n && !memcmp(pick_members[i].key, k, n))
			return (int)i;
	return -1;
}

/* Whether every member asked for is in o.  An optional member counts as
 * there once a member written after it is: result_to_json writes them in
 * the order of pick_members. */
static bool pick_done(const json_t *o, unsigned parts, int last)
{
	for (size_t i = 0; i < ARRAY_SIZE(pick_members); i++)
		if (parts & pick_members[i].part && !json_object_get(o, pick_members[i].key) &&
		    !(pick_members[i].optional && (int)i < last))
			return false;
	return true;
}

/* The members of parts picked from text, as result_pick_text; with spans
 * given, the "tables", "hists", "series" and "metrics" members are not
 * parsed but their text's spans left in spans[0] to [3] (a JSON null in
 * *out marks each found, an empty array the metrics). */
static int pick_text(const char *text, size_t len, unsigned parts, json_t **out, struct pick_span *spans)
{
	const char *p = pick_ws(text, text + len), *end = text + len;
	*out = NULL;
	if (p == end)
		return 0;
	if (*p != '{')
		return -1;
	json_t *o = json_object();
	int last = -1, rc = 0;
	for (p++;;) {
		p = pick_ws(p, end);
		if (p < end && *p == ',')
			p = pick_ws(p + 1, end);
		if (p == end)
			goto more;
		if (*p == '}')
			break;
		if (*p != '"')
			goto bad;
		const char *key = p + 1;
		p = pick_string(p, end);
		if (!p)
			goto more;
		int m = pick_member(key, (size_t)(p - 1 - key));
		p = pick_ws(p, end);
		if (p == end)
			goto more;
		if (*p != ':')
			goto bad;
		p = pick_ws(p + 1, end);
		const char *v = p;
		if (p == end || !(p = pick_value(p, end)))
			goto more;
		if (m < 0 || !(parts & pick_members[m].part))
			continue;
		json_t *val;
		int k = spans ? pick_span_index(pick_members[m].key) : -1;
		if (k >= 0) {
			spans[k] = (struct pick_span){ .v = v, .n = (size_t)(p - v) };
			/* metrics an empty array: the head holds them */
			val = k == 3 ? json_array() : json_null();
		} else if (!(val = json_loadb(v, (size_t)(p - v), JSON_DECODE_ANY, NULL))) {
			goto bad;
		}
		json_object_set_new(o, pick_members[m].key, val);
		last = m > last ? m : last;
		if (pick_done(o, parts, last))
			break;
	}
	*out = o;
	return 1;
more:
	json_decref(o);
	return rc;
bad:
	rc = -1;
	goto more;
}

int result_pick_text(const char *text, size_t len, unsigned parts, json_t **out)
{
	return pick_text(text, len, parts, out, NULL);
}

int result_from_text_parts(const char *text, size_t len, unsigned parts, struct result *r, const char **why)
{
	static const struct {
		const char *key;
		unsigned part;
		int (*read)(const char *text, size_t len, struct result *r);
	} readers[] = { { "tables", RESULT_TABLES, result_tables_from_text },
			{ "hists", RESULT_HISTS, result_hists_from_text },
			{ "series", RESULT_SERIES, result_series_from_text },
			{ "metrics", RESULT_METRICS, result_metrics_from_text } };
	struct pick_span spans[4] = { { 0 }, { 0 }, { 0 }, { 0 } };
	json_t *j = NULL;
	*why = "not JSON";
	int rc = pick_text(text, len, parts, &j, spans);
	if (rc != 1)
		return rc;
	if (!(parts & RESULT_METRICS)) {
		/* an empty head, for detail read into a result held already */
		json_object_set_new(j, "workload", json_string(""));
		json_object_set_new(j, "outcome", json_string("pass"));
		json_object_set_new(j, "metrics", json_array());
	}
	rc = result_from_json_parts(j, parts & ~(unsigned)PICK_TEXT_PARTS, r, why);
	bool read = rc == 0;
	for (size_t k = 0; read && k < ARRAY_SIZE(readers); k++)
		read = !(parts & readers[k].part) || (spans[k].v && !readers[k].read(spans[k].v, spans[k].n, r));
	if (rc == 0 && !read) {
		/* a shape the text readers leave alone: all through JSON values */
		result_free(r);
		for (size_t k = 0; k < ARRAY_SIZE(readers); k++)
			if (spans[k].v)
				json_object_set_new(j, readers[k].key,
						    json_loadb(spans[k].v, spans[k].n, JSON_DECODE_ANY, NULL) ?: json_null());
		rc = result_from_json_parts(j, parts, r, why);
	}
	json_decref(j);
	return rc == 0 ? 1 : -1;
}
