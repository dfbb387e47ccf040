#include "report/svg_slim.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Presentation attributes a group may carry as a class; the ones whose
 * number is a length get "px" in CSS, where a bare number is no length. */
static const struct {
	const char *name;
	bool length;
} svg_slim_props[] = {
	{ "fill", false }, { "stroke", false }, { "color", false }, { "stroke-width", true },
	{ "font-family", false }, { "font-size", true }, { "font-weight", false }, { "font-style", false },
	{ "text-anchor", false }, { "opacity", false }, { "fill-opacity", false }, { "stroke-opacity", false },
};

static int svg_slim_prop(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(svg_slim_props); i++)
		if (strlen(svg_slim_props[i].name) == len && !memcmp(svg_slim_props[i].name, name, len))
			return (int)i;
	return -1;
}

static bool svg_slim_starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

/* The end of the element that opens at p (after its closing tag "close"),
 * or NULL. */
static const char *svg_slim_past(const char *p, const char *end, const char *close)
{
	const char *c = memmem(p, (size_t)(end - p), close, strlen(close));
	return c ? c + strlen(close) : NULL;
}

/* Copy a tag's text, numbers with two decimals keeping one. */
static void svg_slim_tag_copy(FILE *f, const char *p, const char *end)
{
	for (const char *q = p; q < end; q++) {
		if (*q == '.' && q > p && isdigit((unsigned char)q[-1]) && end - q >= 3 &&
		    isdigit((unsigned char)q[1]) && isdigit((unsigned char)q[2]) &&
		    (end - q == 3 || !isalnum((unsigned char)q[3]))) {
			fwrite(q, 1, 2, f);
			q += 2;
			continue;
		}
		fputc(*q, f);
	}
}

static size_t svg_slim_class(struct svg_slim *s, const char *key)
{
	for (size_t i = 0; i < s->classes.n; i++)
		if (!strcmp(s->classes.v[i], key))
			return i;
	strlist_add(&s->classes, key);
	return s->classes.n - 1;
}

/* A group's opening tag p[0..end) ("<g ...>") rewritten, or false to copy
 * it as it is. */
static bool svg_slim_group(struct svg_slim *s, FILE *f, const char *p, const char *end)
{
	char *key = NULL, *transform = NULL;
	size_t klen = 0;
	FILE *k = open_memstream(&key, &klen);
	bool ok = true, first = true;
	const char *q = p + 2;
	for (;;) {
		while (q < end && isspace((unsigned char)*q))
			q++;
		if (q >= end || *q == '>' || *q == '/')
			break;
		const char *name = q;
		while (q < end && *q != '=' && !isspace((unsigned char)*q) && *q != '>')
			q++;
		size_t nlen = (size_t)(q - name);
		if (q + 1 >= end || *q != '=' || (q[1] != '"' && q[1] != '\'')) {
			ok = false;
			break;
		}
		char quote = q[1];
		const char *val = q + 2, *vend = memchr(val, quote, (size_t)(end - val));
		if (!vend) {
			ok = false;
			break;
		}
		q = vend + 1;
		size_t vlen = (size_t)(vend - val);
		if (nlen == 9 && !memcmp(name, "transform", 9)) {
			free(transform);
			transform = strndup(val, vlen);
		} else if (nlen == 2 && !memcmp(name, "id", 2) && vlen > 8 && !memcmp(val, "gnuplot_", 8)) {
			continue;
		} else if ((nlen == 14 && !memcmp(name, "stroke-linecap", 14) && vlen == 4 && !memcmp(val, "butt", 4)) ||
			   (nlen == 15 && !memcmp(name, "stroke-linejoin", 15) && vlen == 5 && !memcmp(val, "miter", 5))) {
			continue;
		} else if (svg_slim_prop(name, nlen) >= 0 && !memchr(val, ';', vlen) && !memchr(val, '{', vlen) &&
			   !memchr(val, '}', vlen)) {
			fprintf(k, "%s%.*s=\"%.*s\"", first ? "" : " ", (int)nlen, name, (int)vlen, val);
			first = false;
		} else {
			ok = false;
			break;
		}
	}
	fclose(k);
	if (ok && q < end && *q == '>') {
		fputs("<g", f);
		if (transform) {
			fputs(" transform=\"", f);
			svg_slim_tag_copy(f, transform, transform + strlen(transform));
			fputc('"', f);
		}
		if (*key)
			fprintf(f, " class=\"g%zu\"", svg_slim_class(s, key));
		fputc('>', f);
	} else {
		ok = false;
	}
	free(key);
	free(transform);
	return ok;
}

/* Whether p[0..end) is only white space with a line break in it. */
static bool svg_slim_breaks(const char *p, const char *end)
{
	bool nl = false;
	for (; p < end; p++) {
		if (!isspace((unsigned char)*p))
			return false;
		nl |= *p == '\n';
	}
	return nl;
}

char *svg_slim(struct svg_slim *s, const char *svg, size_t len, size_t *outlen)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, outlen);
	const char *p = svg, *end = svg + len, *lt;
	int in_text = 0;
	while ((lt = memchr(p, '<', (size_t)(end - p)))) {
		if (in_text || !svg_slim_breaks(p, lt))
			fwrite(p, 1, (size_t)(lt - p), f);
		const char *gt = memchr(lt, '>', (size_t)(end - lt)), *skip = NULL;
		if (!gt)
			break;
		if (svg_slim_starts(lt, end, "<title>"))
			skip = svg_slim_past(lt, end, "</title>");
		else if (svg_slim_starts(lt, end, "<desc>"))
			skip = svg_slim_past(lt, end, "</desc>");
		else if (svg_slim_starts(lt, end, "<defs>") && (skip = svg_slim_past(lt, end, "</defs>"))) {
			size_t n = (size_t)(skip - lt);
			if (!s->defs)
				s->defs = strndup(lt, n);
			else if (strlen(s->defs) != n || memcmp(s->defs, lt, n))
				skip = NULL;
		}
		if (skip) {
			p = skip;
			continue;
		}
		if (svg_slim_starts(lt, end, "<text"))
			in_text++;
		else if (svg_slim_starts(lt, end, "</text>") && in_text)
			in_text--;
		if (!(svg_slim_starts(lt, end, "<g ") && svg_slim_group(s, f, lt, gt + 1)))
			svg_slim_tag_copy(f, lt, gt + 1);
		p = gt + 1;
	}
	fwrite(p, 1, (size_t)(end - p), f);
	fclose(f);
	return buf;
}

void svg_slim_css(FILE *f, const struct svg_slim *s)
{
	for (size_t i = 0; i < s->classes.n; i++) {
		fprintf(f, ".g%zu{", i);
		for (const char *p = s->classes.v[i]; *p;) {
			const char *eq = strchr(p, '='), *val = eq + 2, *vend = strchr(val, '"');
			int prop = svg_slim_prop(p, (size_t)(eq - p));
			char *num_end = NULL;
			strtod(val, &num_end);
			bool px = prop >= 0 && svg_slim_props[prop].length && num_end == vend;
			fprintf(f, "%.*s:%.*s%s;", (int)(eq - p), p, (int)(vend - val), val, px ? "px" : "");
			p = vend + 1;
			while (*p == ' ')
				p++;
		}
		fputc('}', f);
	}
}

void svg_slim_defs(FILE *f, const struct svg_slim *s)
{
	if (s->defs)
		fprintf(f, "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\" "
			   "xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">%s</svg>\n",
			s->defs);
}

void svg_slim_free(struct svg_slim *s)
{
	strlist_free(&s->classes);
	free(s->defs);
	*s = (struct svg_slim){ 0 };
}
