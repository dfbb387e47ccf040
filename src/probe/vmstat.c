/* /proc/vmstat: "name value" per line. */
#include "probe/vmstat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"

void vmstat_init(struct vmstat *s)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

void vmstat_free(struct vmstat *s)
{
	free(s->items);
	free(s->buf);
	free(s->path);
	if (s->fd >= 0)
		close(s->fd);
	vmstat_init(s);
}

static int vmstat_parse_line(struct vmstat_item *it, const char *line, size_t len,
			     unsigned lineno, char *err)
{
	const char *p = line, *end = line + len;
	if (probe_word(&p, end, it->name, sizeof(it->name)) < 0) {
		probe_err(err, lineno, len ? "name missing, not text or longer than %d characters" : "empty line",
			  VMSTAT_NAME_MAX - 1);
		return -1;
	}
	if (probe_u64(&p, end, &it->value) < 0) {
		probe_err(err, lineno, "'%s' has no number (or it overflows)", it->name);
		return -1;
	}
	probe_skip_space(&p, end);
	if (p != end) {
		probe_err(err, lineno, "'%s' has trailing text after its number", it->name);
		return -1;
	}
	return 0;
}

static void vmstat_reserve(struct vmstat *s, size_t n)
{
	if (n <= s->cap)
		return;
	s->cap = n < 256 ? 256 : n * 2;
	s->items = xrealloc(s->items, s->cap * sizeof(*s->items));
}

int vmstat_parse(struct vmstat *s, const char *buf, size_t len, char *err)
{
	struct probe_lines l = { 0 };
	const char *line;
	size_t ll;
	s->n = 0;
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
		vmstat_reserve(s, s->n + 1);
		if (vmstat_parse_line(&s->items[s->n], line, ll, l.lineno, err) < 0)
			return -1;
		s->n++;
	}
	return 0;
}

static int vmstat_open(struct vmstat *s, const char *path, char *err)
{
	if (s->fd >= 0 && s->path && !strcmp(s->path, path))
		return 0;
	if (s->fd >= 0)
		close(s->fd);
	free(s->path);
	s->path = NULL;
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		probe_err(err, 0, "cannot read: %s", strerror(errno));
		return -1;
	}
	s->path = xstrdup(path);
	return 0;
}

/* pread from 0 into the reused buffer until EOF. */
static ssize_t vmstat_slurp(struct vmstat *s, char *err)
{
	size_t n = 0;
	if (!s->buf) {
		s->bufcap = 16384;
		s->buf = xmalloc(s->bufcap);
	}
	for (;;) {
		if (n == s->bufcap) {
			s->bufcap *= 2;
			s->buf = xrealloc(s->buf, s->bufcap);
		}
		ssize_t r = pread(s->fd, s->buf + n, s->bufcap - n, (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			probe_err(err, 0, "cannot read: %s", strerror(errno));
			return -1;
		}
		if (r == 0)
			return (ssize_t)n;
		n += (size_t)r;
	}
}

int vmstat_read(struct vmstat *s, const char *path, char *err)
{
	if (!path)
		path = "/proc/vmstat";
	if (vmstat_open(s, path, err) < 0)
		return -1;
	ssize_t n = vmstat_slurp(s, err);
	if (n < 0)
		return -1;
	return vmstat_parse(s, s->buf, (size_t)n, err);
}

long vmstat_index(const struct vmstat *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->items[i].name, name))
			return (long)i;
	return -1;
}

int vmstat_get(const struct vmstat *s, const char *name, uint64_t *value)
{
	long i = vmstat_index(s, name);
	if (i < 0)
		return -1;
	*value = s->items[i].value;
	return 0;
}

int vmstat_at(const struct vmstat *s, long *idx, const char *name, uint64_t *value)
{
	if (*idx < 0 || (size_t)*idx >= s->n || strcmp(s->items[*idx].name, name))
		*idx = vmstat_index(s, name);
	if (*idx < 0)
		return -1;
	*value = s->items[*idx].value;
	return 0;
}

void vmstat_delta(const struct vmstat *before, const struct vmstat *after, int64_t *out)
{
	for (size_t i = 0; i < after->n; i++) {
		const struct vmstat_item *a = &after->items[i];
		long j = (i < before->n && !strcmp(before->items[i].name, a->name))
			? (long)i : vmstat_index(before, a->name);
		out[i] = j < 0 ? 0 : (int64_t)(a->value - before->items[j].value);
	}
}
