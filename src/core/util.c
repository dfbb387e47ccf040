#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void vmr_vmsg(const char *prefix, const char *fmt, va_list ap, int errnum)
{
	fputs("vmregress: ", stderr);
	if (prefix)
		fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

void vmr_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmr_vmsg(NULL, fmt, ap, 0);
	va_end(ap);
}

void vmr_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	vmr_vmsg(NULL, fmt, ap, e);
	va_end(ap);
}

void vmr_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmr_vmsg("warning: ", fmt, ap, 0);
	va_end(ap);
}

static void *oom_check(void *p)
{
	if (!p) {
		fputs("vmregress: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n) { return oom_check(malloc(n ? n : 1)); }
void *xcalloc(size_t n, size_t size) { return oom_check(calloc(n ? n : 1, size ? size : 1)); }
void *xrealloc(void *p, size_t n) { return oom_check(realloc(p, n ? n : 1)); }
char *xstrdup(const char *s) { return oom_check(strdup(s ? s : "")); }

char *xasprintf(const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom_check(NULL);
	return s;
}

int vmr_read_file(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t cap = 8192, n = 0;
	char *b = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			b = xrealloc(b, cap);
		}
		ssize_t r = read(fd, b + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(b);
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

int vmr_read_line(const char *path, char **out)
{
	char *b;
	int r = vmr_read_file(path, &b, NULL);
	if (r < 0)
		return r;
	b[strcspn(b, "\n")] = '\0';
	*out = b;
	return 0;
}

int vmr_read_u64(const char *path, uint64_t *out)
{
	char *b, *end;
	int r = vmr_read_file(path, &b, NULL);
	if (r < 0)
		return r;
	errno = 0;
	unsigned long long v = strtoull(b, &end, 10);
	if (end == b || errno) {
		free(b);
		return -EINVAL;
	}
	free(b);
	*out = v;
	return 0;
}

int vmr_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = strlen(s);
	ssize_t w = write(fd, s, len);
	int e = w < 0 ? errno : (size_t)w != len ? EIO : 0;
	if (close(fd) < 0 && !e)
		e = errno;
	return -e;
}

int vmr_write_atomic(const char *path, const void *buf, size_t len, int mode)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
	int e = 0;
	if (fd < 0) {
		e = errno;
		goto free_tmp;
	}
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			break;
		}
		p += w;
		len -= (size_t)w;
	}
	if (!e && fsync(fd) < 0)
		e = errno;
	if (close(fd) < 0 && !e)
		e = errno;
	if (!e && rename(tmp, path) < 0)
		e = errno;
	if (e)
		unlink(tmp);
free_tmp:
	free(tmp);
	return -e;
}

void vmr_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

uint64_t vmr_page_size(void)
{
	static uint64_t ps;
	if (!ps)
		ps = (uint64_t)sysconf(_SC_PAGESIZE);
	return ps;
}

uint64_t vmr_now_ns(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double vmr_wall_s(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

bool vmr_is_root(void) { return geteuid() == 0; }

void strlist_add(struct strlist *l, const char *s)
{
	l->v = xrealloc(l->v, (l->n + 2) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(s);
	l->v[l->n] = NULL;
}

void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
