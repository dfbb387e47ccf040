#include "core/util.h"

#include "core/path.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

char *vmr_escape_controls(const char *text)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = strlen(text);
	char *out = xmalloc(4 * n + 1), *o = out;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		const char *named = *p == '\n' ? "\\n" : *p == '\t' ? "\\t" : *p == '\r' ? "\\r" : NULL;
		if (named) {
			memcpy(o, named, 2);
			o += 2;
		} else if (*p < 0x20 || *p == 0x7f) {
			*o++ = '\\';
			*o++ = 'x';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		} else {
			*o++ = (char)*p;
		}
	}
	*o = '\0';
	return out;
}

/* A message is one line: whatever of the user's input it echoes (a value
 * with a newline in it, a file name with an escape sequence) is escaped
 * here, once for every message. */
static void vmr_vmsg(const char *prefix, const char *fmt, va_list ap, int errnum)
{
	char *text = NULL, *shown;
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	shown = vmr_escape_controls(text ? text : fmt);
	fputs("vmregress: ", stderr);
	if (prefix)
		fputs(prefix, stderr);
	fputs(shown, stderr);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	free(shown);
	free(text);
}

int vmr_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmr_vmsg(NULL, fmt, ap, 0);
	va_end(ap);
	return -1;
}

int vmr_errno(const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	vmr_vmsg(NULL, fmt, ap, e);
	va_end(ap);
	errno = e;
	return -1;
}

static const char *vmr_cmd_name = "vmregress";

void vmr_set_command(const char *name)
{
	vmr_cmd_name = name;
}

const char *vmr_command(void)
{
	return vmr_cmd_name;
}

static int vmr_wl_vmsg(const char *workload, const char *fmt, va_list ap, int errnum)
{
	char *prefix = xasprintf("%s %s: ", vmr_cmd_name, workload);
	vmr_vmsg(prefix, fmt, ap, errnum);
	free(prefix);
	if (errnum)
		errno = errnum;
	return -1;
}

int vmr_wl_err(const char *workload, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vmr_wl_vmsg(workload, fmt, ap, 0);
	va_end(ap);
	return r;
}

int vmr_wl_errno(const char *workload, const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	int r = vmr_wl_vmsg(workload, fmt, ap, e);
	va_end(ap);
	return r;
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
	return vmr_read_file_max(path, SIZE_MAX - 1, buf, len);
}

int vmr_read_file_max(const char *path, size_t max, char **buf, size_t *len)
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
		if (n > max) {
			free(b);
			close(fd);
			return -EFBIG;
		}
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

/* Create "<base>.tmp.<random>" in dirfd: O_EXCL and O_NOFOLLOW, so a file
 * or link that someone else made under that name (in a directory they may
 * write) is never used; an unpredictable name, so they cannot keep us from
 * writing either.  The fd, or -errno; the name into tmp. */
static int vmr_tmp_create(int dirfd, const char *base, int mode, char *tmp, size_t len)
{
	for (int tries = 0; tries < 16; tries++) {
		uint64_t r;
		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
			r = vmr_now_ns() * 6364136223846793005ull ^ (uint64_t)getpid() << 40;
		snprintf(tmp, len, "%.200s.tmp.%016llx", base, (unsigned long long)r);
		int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 07777);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

static int vmr_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Whatever sits at base now may be replaced: absent, a regular file, or a
 * link (rename replaces the link itself, never what it names). */
static int vmr_replaceable(int dirfd, const char *base)
{
	struct stat st = { 0 };
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	return S_ISDIR(st.st_mode) ? -EISDIR : S_ISREG(st.st_mode) || S_ISLNK(st.st_mode) ? 0 : -EINVAL;
}

int vmr_write_atomic(const char *path, const void *buf, size_t len, int mode)
{
	char *target, tmp[256];
	struct stat st = { 0 };
	int e = path_resolve_last(path, &target, &st);
	if (e < 0)
		return e;
	if (e == 0 && !S_ISREG(st.st_mode)) {
		e = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		goto free_target;
	}
	char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target, *dir = !slash ? "." : slash == target ? "/" : target;
	if (slash)
		*slash = '\0';
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		e = -errno;
		goto free_target;
	}
	int fd = *base ? vmr_tmp_create(dirfd, base, mode, tmp, sizeof(tmp)) : -EISDIR;
	if (fd < 0) {
		e = fd;
		goto close_dir;
	}
	e = vmr_write_all(fd, buf, len);
	if (!e && fsync(fd) < 0)
		e = -errno;
	if (close(fd) < 0 && !e)
		e = -errno;
	if (!e)
		e = vmr_replaceable(dirfd, base);
	if (!e && renameat(dirfd, tmp, dirfd, base) < 0)
		e = -errno;
	if (e)
		unlinkat(dirfd, tmp, 0);
	/* The rename itself survives a crash once the directory is synced;
	 * some file systems cannot sync a directory, which loses nothing. */
	else if (fsync(dirfd) < 0 && errno != EINVAL)
		e = -errno;
close_dir:
	close(dirfd);
free_target:
	free(target);
	return e;
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

int vmr_mkdir_p(const char *dir, char **failed)
{
	if (!*dir) {
		errno = ENOENT;
		return -1;
	}
	char *p = xstrdup(dir);
	int r = 0;

	for (char *s = p + 1; r == 0; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			int e = errno;
			if (failed)
				*failed = xstrdup(p);
			errno = e;
			r = -1;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return r;
}

int vmr_mkdir_parent(const char *path, char **failed)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int r = 0;

	if (slash && slash != dir) {
		*slash = '\0';
		r = vmr_mkdir_p(dir, failed);
	}
	int e = errno;
	free(dir);
	errno = e;
	return r;
}

static int vmr_rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(type == FTW_DP ? rmdir : unlink)(path);
	return 0;
}

void vmr_rm_rf(const char *path)
{
	/* depth first, never through a symbolic link, never into another
	 * file system (rm -rf --one-file-system) */
	nftw(path, vmr_rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

bool strlist_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}
