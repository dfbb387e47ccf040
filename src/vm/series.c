/* A bisection's series file: see series.h. */
#include "vm/series.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static char *series_trim(char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	size_t n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		p[--n] = '\0';
	return p;
}

/* One candidate's line (trimmed, not blank): KERNEL [-- ARGS]. */
static int series_line(const char *file, size_t lineno, char *line, struct bisect_candidate *c)
{
	char *sep = strstr(line, " --"), *kernel;

	if (!strncmp(line, "--", 2)) {
		vmr_err("%s:%zu: '%s': no kernel before '--'", file, lineno, line);
		return -1;
	}
	if (sep && (sep[3] == '\0' || isspace((unsigned char)sep[3]))) {
		*sep = '\0';
		char *args = series_trim(sep + 3);
		if (!*args) {
			vmr_err("%s:%zu: nothing after '--' (give the kernel's command line, or drop the '--')", file,
				lineno);
			return -1;
		}
		c->append = xstrdup(args);
	}
	kernel = series_trim(line);
	if (strpbrk(kernel, " \t")) {
		vmr_err("%s:%zu: '%s': one kernel a line (its command line goes after ' -- ')", file, lineno, kernel);
		free(c->append);
		c->append = NULL;
		return -1;
	}
	c->kernel = xstrdup(kernel);
	c->lineno = lineno;
	return 0;
}

int series_parse(const char *file, const char *text, size_t len, struct kernel_series *s)
{
	size_t lineno = 0, cap = 0;

	memset(s, 0, sizeof(*s));
	if (memchr(text, '\0', len)) {
		vmr_err("%s: a NUL byte: not a text file", file);
		return -1;
	}
	for (size_t off = 0; off < len; off++) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - text) : len;
		char *raw = xmalloc(end - off + 1), *line;
		memcpy(raw, text + off, end - off);
		raw[end - off] = '\0';
		line = series_trim(raw);
		lineno++;
		off = end;
		if (*line && *line != '#') {
			if (s->n == cap)
				s->c = xrealloc(s->c, (cap = cap ? cap * 2 : 16) * sizeof(*s->c));
			struct bisect_candidate *c = &s->c[s->n];
			memset(c, 0, sizeof(*c));
			c->line = xstrdup(line);
			if (series_line(file, lineno, line, c) < 0) {
				free(c->line);
				free(raw);
				series_free(s);
				return -1;
			}
			s->n++;
		}
		free(raw);
	}
	if (s->n < 2) {
		vmr_err("%s: %zu candidate%s: a bisection needs a good and a bad one (one kernel a line)", file, s->n,
			s->n == 1 ? "" : "s");
		series_free(s);
		return -1;
	}
	return 0;
}

int series_load(const char *file, struct kernel_series *s)
{
	char *buf = NULL;
	size_t len = 0;

	memset(s, 0, sizeof(*s));
	if (vmr_read_file(file, &buf, &len) < 0) {
		vmr_errno("cannot read series file %s", file);
		return -1;
	}
	int r = series_parse(file, buf, len, s);
	free(buf);
	return r;
}

void series_free(struct kernel_series *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->c[i].line);
		free(s->c[i].kernel);
		free(s->c[i].append);
	}
	free(s->c);
	memset(s, 0, sizeof(*s));
}
