/* /proc/meminfo: "Name:   value kB" per line. */
#include "probe/meminfo.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* Skip the "Node N " prefix of per-node meminfo files. */
static void meminfo_skip_node(const char **p, const char *end)
{
	const char *s = *p;
	uint64_t node;
	if (probe_lit(&s, end, "Node ") && probe_u64(&s, end, &node) == 0 && s < end && *s == ' ') {
		probe_skip_space(&s, end);
		*p = s;
	}
}

static bool meminfo_name_ok(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] <= 0x20 || p[i] == 0x7f)
			return false;
	return n > 0;
}

static int meminfo_parse_line(struct meminfo_item *it, const char *line, size_t len,
			      unsigned lineno, char *err)
{
	const char *p = line, *end = line + len;
	meminfo_skip_node(&p, end);
	const char *colon = memchr(p, ':', (size_t)(end - p));
	size_t n = colon ? (size_t)(colon - p) : 0;
	if (!colon || n >= sizeof(it->name) || !meminfo_name_ok(p, n)) {
		probe_err(err, lineno, "expected 'Name: value [kB]'");
		return -1;
	}
	memcpy(it->name, p, n);
	it->name[n] = '\0';
	p = colon + 1;
	if (probe_u64(&p, end, &it->bytes) < 0) {
		probe_err(err, lineno, "'%s' has no number (or it overflows)", it->name);
		return -1;
	}
	probe_skip_space(&p, end);
	it->is_count = true;
	if (probe_lit(&p, end, "kB")) {
		if (it->bytes > UINT64_MAX / 1024) {
			probe_err(err, lineno, "'%s' overflows in bytes", it->name);
			return -1;
		}
		it->bytes *= 1024;
		it->is_count = false;
	}
	probe_skip_space(&p, end);
	if (p != end) {
		probe_err(err, lineno, "'%s' has an unknown unit or trailing text", it->name);
		return -1;
	}
	return 0;
}

int meminfo_parse(struct meminfo *m, const char *buf, size_t len, char *err)
{
	struct probe_lines l = { 0 };
	const char *line;
	size_t ll;
	m->n = 0;
	if (len == 0) {
		probe_err(err, 0, "empty");
		return -1;
	}
	probe_lines_init(&l, buf, len);
	while (probe_lines_next(&l, &line, &ll)) {
		if (l.p == l.end && buf[len - 1] != '\n') {
			probe_err(err, l.lineno, "truncated (no newline at the end)");
			return -1;
		}
		if (m->n == m->cap) {
			m->cap = m->cap ? m->cap * 2 : 64;
			m->items = xrealloc(m->items, m->cap * sizeof(*m->items));
		}
		if (meminfo_parse_line(&m->items[m->n], line, ll, l.lineno, err) < 0)
			return -1;
		m->n++;
	}
	return 0;
}

int meminfo_read(struct meminfo *m, const char *path, char *err)
{
	char *buf;
	size_t len;
	if (probe_read_file(path ? path : "/proc/meminfo", &buf, &len, err) < 0)
		return -1;
	int r = meminfo_parse(m, buf, len, err);
	free(buf);
	return r;
}

int meminfo_get(const struct meminfo *m, const char *name, uint64_t *bytes)
{
	for (size_t i = 0; i < m->n; i++) {
		if (!strcmp(m->items[i].name, name)) {
			*bytes = m->items[i].bytes;
			return 0;
		}
	}
	return -1;
}

void meminfo_free(struct meminfo *m)
{
	free(m->items);
	memset(m, 0, sizeof(*m));
}

uint64_t meminfo_now(const char *name)
{
	struct meminfo m = { 0 };
	char err[PROBE_ERR_MAX] = "";
	uint64_t v = 0;
	if (meminfo_read(&m, NULL, err) == 0 && meminfo_get(&m, name, &v) < 0)
		v = 0;
	meminfo_free(&m);
	return v;
}
