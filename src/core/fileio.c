#include "core/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/path.h"
#include "core/timer.h"

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
