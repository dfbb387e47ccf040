/* Shared line and number scanning for the /proc and /sys parsers. */
#include "probe/probe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

void probe_lines_init(struct probe_lines *l, const char *buf, size_t len)
{
	l->p = buf;
	l->end = buf + len;
	l->lineno = 0;
}

bool probe_lines_next(struct probe_lines *l, const char **line, size_t *len)
{
	if (l->p >= l->end)
		return false;
	const char *nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
	const char *stop = nl ? nl : l->end;
	*line = l->p;
	*len = (size_t)(stop - l->p);
	l->p = nl ? nl + 1 : l->end;
	l->lineno++;
	return true;
}

static bool probe_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

void probe_skip_space(const char **p, const char *end)
{
	while (*p < end && probe_is_space(**p))
		(*p)++;
}

int probe_u64(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	probe_skip_space(&s, end);
	if (s >= end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	*p = s;
	return 0;
}

int probe_double(const char **p, const char *end, double *out)
{
	uint64_t whole, frac = 0;
	double scale = 1;
	if (probe_u64(p, end, &whole) < 0)
		return -1;
	const char *s = *p;
	if (s < end && *s == '.') {
		s++;
		if (s >= end || *s < '0' || *s > '9')
			return -1;
		for (; s < end && *s >= '0' && *s <= '9'; s++) {
			if (scale < 1e15) {
				frac = frac * 10 + (uint64_t)(*s - '0');
				scale *= 10;
			}
		}
	}
	*out = (double)whole + (double)frac / scale;
	*p = s;
	return 0;
}

static int probe_hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int probe_hex(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int d;
	if (s >= end || probe_hexdigit(*s) < 0)
		return -1;
	for (; s < end && (d = probe_hexdigit(*s)) >= 0; s++) {
		if (v >> 60)
			return -1;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	*p = s;
	return 0;
}

int probe_word(const char **p, const char *end, char *out, size_t outlen)
{
	const char *s = *p;
	probe_skip_space(&s, end);
	const char *w = s;
	while (s < end && !probe_is_space(*s) && *s != '\n') {
		unsigned char c = (unsigned char)*s++;
		if (c < 0x20 || c == 0x7f)
			return -1;      /* NUL and control bytes: not text */
	}
	size_t n = (size_t)(s - w);
	if (n == 0 || n >= outlen)
		return -1;
	memcpy(out, w, n);
	out[n] = '\0';
	*p = s;
	return 0;
}

bool probe_lit(const char **p, const char *end, const char *s)
{
	size_t n = strlen(s);
	if ((size_t)(end - *p) < n || memcmp(*p, s, n) != 0)
		return false;
	*p += n;
	return true;
}

void probe_err(char *err, unsigned lineno, const char *fmt, ...)
{
	va_list ap;
	int off = 0;
	if (!err)
		return;
	if (lineno)
		off = snprintf(err, PROBE_ERR_MAX, "line %u: ", lineno);
	va_start(ap, fmt);
	vsnprintf(err + off, PROBE_ERR_MAX - (size_t)off, fmt, ap);
	va_end(ap);
}

int probe_read_file(const char *path, char **buf, size_t *len, char *err)
{
	int r = vmr_read_file(path, buf, len);
	if (r < 0) {
		probe_err(err, 0, "cannot read: %s", strerror(-r));
		errno = -r;
		return -1;
	}
	return 0;
}
