/* Reading a stored result's tables and series from their text straight
 * into doubles (result.h, result_from_text_parts): they are most of a
 * stored result, and JSON values of their numbers cost most of reading
 * it.  Each reader takes the shape result_to_json writes and nothing else;
 * for any other, the caller reads the member through JSON values. */
#include "core/result.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/util.h"

/* Powers of ten that a double holds exactly. */
static const double text_pow10[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
				       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

static bool text_digit(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

/* A JSON number at p into *v as json_number_value gives it: past it, or
 * NULL for anything else (or a number JSON values would refuse).  Up to 15
 * significant digits and no exponent, the digits are an exact integer and
 * the power of ten exact, so one division rounds as strtod would; other
 * numbers go to strtod itself. */
static const char *text_number(const char *p, const char *end, double *v)
{
	const char *start = p;
	bool neg = p < end && *p == '-', real = false, exact = true;
	uint64_t m = 0;
	int digits = 0, scale = 0;
	p += neg;
	if (!text_digit(p, end) || (*p == '0' && text_digit(p + 1, end)))
		return NULL;
	for (; text_digit(p, end); p++) {
		digits += m || *p != '0';
		exact = exact && digits <= 15;
		m = exact ? m * 10 + (uint64_t)(*p - '0') : m;
	}
	if (p < end && *p == '.') {
		real = true;
		if (!text_digit(++p, end))
			return NULL;
		for (; text_digit(p, end); p++, scale++) {
			digits += m || *p != '0';
			exact = exact && digits <= 15;
			m = exact ? m * 10 + (uint64_t)(*p - '0') : m;
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		real = true;
		exact = false;
		p += p + 1 < end && (p[1] == '+' || p[1] == '-') ? 2 : 1;
		if (!text_digit(p, end))
			return NULL;
		while (text_digit(p, end))
			p++;
	}
	if (!real && !exact) /* an integer of 16 digits or more: strtoll's */
		return NULL;
	if (!real) {
		*v = (double)(neg ? -(int64_t)m : (int64_t)m);
	} else if (exact && scale < (int)ARRAY_SIZE(text_pow10)) {
		*v = (double)m / text_pow10[scale];
		*v = neg ? -*v : *v;
	} else {
		char buf[64];
		if ((size_t)(p - start) >= sizeof(buf))
			return NULL;
		memcpy(buf, start, (size_t)(p - start));
		buf[p - start] = '\0';
		errno = 0;
		*v = strtod(buf, NULL);
		if (errno == ERANGE && isinf(*v))
			return NULL;
	}
	return p;
}

/* Past c at p (after white space), or NULL. */
static const char *text_char(const char *p, const char *end, char c)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p < end && *p == c ? p + 1 : NULL;
}

/* Past the '[' of a list at p: *empty when it is "[]" (then past its ']'),
 * NULL for anything else. */
static const char *text_list_open(const char *p, const char *end, bool *empty)
{
	if (!(p = text_char(p, end, '[')))
		return NULL;
	const char *q = text_char(p, end, ']');
	*empty = q != NULL;
	return q ? q : p;
}

/* Past the rows of t at p, each an array of t->ncols numbers, added to t;
 * NULL for anything else. */
static const char *table_rows(const char *p, const char *end, struct table *t, double *row)
{
	bool empty = false;
	const char *q = NULL;
	if (!(p = text_list_open(p, end, &empty)) || empty)
		return p;
	for (;;) {
		if (!(p = text_char(p, end, '[')))
			return NULL;
		for (size_t c = 0; c < t->ncols; c++) {
			if (c && !(p = text_char(p, end, ',')))
				return NULL;
			while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
				p++;
			if (!(p = text_number(p, end, &row[c])))
				return NULL;
		}
		if (!(p = text_char(p, end, ']')))
			return NULL;
		table_add_row(t, row);
		if ((q = text_char(p, end, ']')))
			return q;
		if (!(p = text_char(p, end, ',')))
			return NULL;
	}
}

/* Past the string at p (its opening quote), or end. */
static const char *text_string_end(const char *p, const char *end)
{
	for (p++; p < end && *p != '"'; p++)
		p += *p == '\\';
	return p < end ? p + 1 : end;
}

/* The string or the flat array of strings at p (after white space),
 * parsed, *pp moved past it: a table's name and columns.  NULL for any
 * other value. */
static json_t *text_value(const char **pp, const char *end, bool array)
{
	const char *p = *pp, *q;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	if (p == end || *p != (array ? '[' : '"'))
		return NULL;
	if (!array) {
		q = text_string_end(p, end);
	} else {
		for (q = p + 1; q < end && *q != ']' && *q != '[' && *q != '{';)
			q = *q == '"' ? text_string_end(q, end) : q + 1;
		if (q >= end || *q != ']')
			return NULL;
		q++;
	}
	*pp = q;
	return json_loadb(p, (size_t)(q - p), JSON_DECODE_ANY, NULL);
}

/* A JSON array at text[0..len) of items each read by item into r: 0, or
 * -1 when it is not one (r then holds the items before). */
static int text_list(const char *text, size_t len, const char *(*item)(const char *, const char *, struct result *),
		     struct result *r)
{
	const char *p = text_char(text, text + len, '['), *end = text + len;
	if (p && !text_char(p, end, ']'))
		while ((p = item(p, end, r)) && !text_char(p, end, ']'))
			if (!(p = text_char(p, end, ',')))
				break;
	return p && text_char(p, end, ']') ? 0 : -1;
}

/* One table as result_to_json writes it, {"name":..,"cols":[..],"rows":[..]},
 * added to r: past it, or NULL when it is not in that shape. */
static const char *table_from_text(const char *p, const char *end, struct result *r)
{
	static const char *const keys[] = { "\"name\"", "\"cols\"" };
	json_t *v[2] = { NULL, NULL };
	if (!(p = text_char(p, end, '{')))
		return NULL;
	for (size_t k = 0; k < 2; k++) {
		if (k && !(p = text_char(p, end, ',')))
			goto free_values;
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
			p++;
		size_t kl = strlen(keys[k]);
		if ((size_t)(end - p) < kl || memcmp(p, keys[k], kl) || !(p = text_char(p + kl, end, ':')) ||
		    !(v[k] = text_value(&p, end, k == 1)))
			goto free_values;
	}
	size_t nc = json_array_size(v[1]);
	if (!json_is_string(v[0]) || !nc || nc > 1024 || !(p = text_char(p, end, ',')) ||
	    !(p = text_char(p, end, '"')) || (size_t)(end - p) < 5 || memcmp(p, "rows\"", 5) ||
	    !(p = text_char(p + 5, end, ':')))
		goto free_values;
	const char **names = xcalloc(nc, sizeof(char *));
	for (size_t c = 0; c < nc; c++)
		names[c] = json_is_string(json_array_get(v[1], c)) ? json_string_value(json_array_get(v[1], c)) : "";
	struct table *t = result_table(r, json_string_value(v[0]), nc, names);
	free(names);
	double *row = xcalloc(nc, sizeof(double));
	p = table_rows(p, end, t, row);
	free(row);
	p = p ? text_char(p, end, '}') : NULL;
	json_decref(v[0]);
	json_decref(v[1]);
	return p;
free_values:
	json_decref(v[0]);
	json_decref(v[1]);
	return NULL;
}

int result_tables_from_text(const char *text, size_t len, struct result *r)
{
	return text_list(text, len, table_from_text, r);
}

/* An array of numbers at p into *out (grown as needed), *n of them: past
 * it, or NULL. */
static const char *series_values(const char *p, const char *end, double **out, size_t *n)
{
	size_t cap = 0;
	*n = 0;
	bool empty = false;
	const char *q = NULL;
	if (!(p = text_list_open(p, end, &empty)) || empty)
		return p;
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
			p++;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*out = xrealloc(*out, cap * sizeof(double));
		}
		if (!(p = text_number(p, end, &(*out)[*n])))
			return NULL;
		++*n;
		if ((q = text_char(p, end, ']')))
			return q;
		if (!(p = text_char(p, end, ',')))
			return NULL;
	}
}

/* "key": at p (after white space): past the colon, or NULL. */
static const char *text_key(const char *p, const char *end, const char *key)
{
	size_t kl = strlen(key);
	if (!(p = text_char(p, end, '"')) || (size_t)(end - p) < kl + 1 || memcmp(p, key, kl) || p[kl] != '"')
		return NULL;
	return text_char(p + kl + 1, end, ':');
}

/* One series as result_to_json writes it, {"name","unit","t","v"}, added
 * to r: past it, or NULL when it is not in that shape. */
static const char *series_from_text(const char *p, const char *end, struct result *r)
{
	json_t *name = NULL, *unit = NULL;
	double *t = NULL, *v = NULL;
	size_t nt = 0, nv = 0;
	if (!(p = text_char(p, end, '{')) || !(p = text_key(p, end, "name")) || !(name = text_value(&p, end, false)) ||
	    !(p = text_char(p, end, ',')) || !(p = text_key(p, end, "unit")) || !(unit = text_value(&p, end, false)) ||
	    !(p = text_char(p, end, ',')) || !(p = text_key(p, end, "t")) || !(p = series_values(p, end, &t, &nt)) ||
	    !(p = text_char(p, end, ',')) || !(p = text_key(p, end, "v")) || !(p = series_values(p, end, &v, &nv)) ||
	    !(p = text_char(p, end, '}')) || nt != nv || !json_is_string(name) || !json_is_string(unit)) {
		p = NULL;
	} else {
		struct series *s = result_series(r, json_string_value(name), json_string_value(unit));
		for (size_t k = 0; k < nt; k++)
			series_add(s, t[k], v[k]);
	}
	json_decref(name);
	json_decref(unit);
	free(t);
	free(v);
	return p;
}

int result_series_from_text(const char *text, size_t len, struct result *r)
{
	return text_list(text, len, series_from_text, r);
}

/* A JSON integer at p (no fraction, no exponent, as json_integer's
 * text): past it, or NULL (also for one past 18 digits: JSON values
 * read those, and refuse them past 64 bits). */
static const char *text_integer(const char *p, const char *end, int64_t *v)
{
	bool neg = p < end && *p == '-';
	uint64_t m = 0;
	int digits = 0;
	p += neg;
	if (!text_digit(p, end) || (*p == '0' && text_digit(p + 1, end)))
		return NULL;
	for (; text_digit(p, end); p++, digits++)
		m = m * 10 + (uint64_t)(*p - '0');
	if (digits > 18 || (p < end && (*p == '.' || *p == 'e' || *p == 'E')))
		return NULL;
	*v = neg ? -(int64_t)m : (int64_t)m;
	return p;
}

/* "key":INTEGER at p, after a comma unless first: past it, or NULL. */
static const char *text_int_member(const char *p, const char *end, const char *key, bool first, int64_t *v)
{
	if (!first && !(p = text_char(p, end, ',')))
		return NULL;
	if (!(p = text_key(p, end, key)))
		return NULL;
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return text_integer(p, end, v);
}

/* A histogram as hist_to_json writes it into a new one, as hist_from_json
 * would read it (the same checks): past it, or NULL. */
static const char *hist_from_text(const char *p, const char *end, struct hist **out)
{
	int64_t count, sum, min, max;
	*out = NULL;
	if (!(p = text_char(p, end, '{')) || !(p = text_int_member(p, end, "count", true, &count)) ||
	    !(p = text_int_member(p, end, "sum", false, &sum)) || !(p = text_int_member(p, end, "min", false, &min)) ||
	    !(p = text_int_member(p, end, "max", false, &max)) || !(p = text_char(p, end, ',')) ||
	    !(p = text_key(p, end, "buckets")) || !(p = text_char(p, end, '[')) || count < 0)
		return NULL;
	struct hist *h = hist_with_header((uint64_t)count, (uint64_t)sum, (uint64_t)min, (uint64_t)max);
	uint64_t total = 0;
	const char *q = text_char(p, end, ']');
	for (p = q ? q : p; !q;) {
		int64_t idx, n;
		if (!(p = text_char(p, end, '[')))
			goto free_hist;
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
			p++;
		if (!(p = text_integer(p, end, &idx)) || !(p = text_char(p, end, ',')))
			goto free_hist;
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
			p++;
		if (!(p = text_integer(p, end, &n)) || !(p = text_char(p, end, ']')) || idx < 0 || idx >= HIST_BUCKETS ||
		    n < 0)
			goto free_hist;
		h->b[idx] += (uint64_t)n;
		total += (uint64_t)n;
		if ((q = text_char(p, end, ']')))
			p = q;
		else if (!(p = text_char(p, end, ',')))
			goto free_hist;
	}
	if (total != h->count || !(p = text_char(p, end, '}')))
		goto free_hist;
	*out = h;
	return p;
free_hist:
	free(h);
	return NULL;
}

/* One histogram as result_to_json writes it, {"name","unit","hist"}, added
 * to r: past it, or NULL when it is not in that shape. */
static const char *named_hist_from_text(const char *p, const char *end, struct result *r)
{
	json_t *name = NULL, *unit = NULL;
	struct hist *h = NULL;
	if (!(p = text_char(p, end, '{')) || !(p = text_key(p, end, "name")) || !(name = text_value(&p, end, false)) ||
	    !(p = text_char(p, end, ',')) || !(p = text_key(p, end, "unit")) || !(unit = text_value(&p, end, false)) ||
	    !(p = text_char(p, end, ',')) || !(p = text_key(p, end, "hist")) || !(p = hist_from_text(p, end, &h)) ||
	    !(p = text_char(p, end, '}')) || !json_is_string(name) || !json_is_string(unit)) {
		free(h);
		p = NULL;
	} else {
		result_hist(r, json_string_value(name), json_string_value(unit), h);
	}
	json_decref(name);
	json_decref(unit);
	return p;
}

int result_hists_from_text(const char *text, size_t len, struct result *r)
{
	return text_list(text, len, named_hist_from_text, r);
}

/* One metric as result_to_json writes it, {"name","unit","better",
 * "combine","value"}, added to r: past it, or NULL when it is not in that
 * shape. */
static const char *metric_from_text(const char *p, const char *end, struct result *r)
{
	static const char *const keys[] = { "name", "unit", "better", "combine" };
	json_t *v[4] = { NULL, NULL, NULL, NULL };
	double value = 0;
	bool ok = (p = text_char(p, end, '{')) != NULL;
	for (size_t k = 0; ok && k < 4; k++)
		ok = (!k || (p = text_char(p, end, ','))) && (p = text_key(p, end, keys[k])) &&
		     (v[k] = text_value(&p, end, false)) && json_is_string(v[k]);
	if (ok && (p = text_char(p, end, ',')) && (p = text_key(p, end, "value"))) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
			p++;
		ok = (p = text_number(p, end, &value)) && (p = text_char(p, end, '}')) &&
		     result_metric_spelled(r, json_string_value(v[0]), json_string_value(v[1]),
					   json_string_value(v[2]), json_string_value(v[3]), value) == 0;
	} else {
		ok = false;
	}
	for (size_t k = 0; k < 4; k++)
		json_decref(v[k]);
	return ok ? p : NULL;
}

int result_metrics_from_text(const char *text, size_t len, struct result *r)
{
	return text_list(text, len, metric_from_text, r);
}
