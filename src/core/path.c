#include "core/path.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"

enum path_trust path_dir_trust(const struct stat *st, uid_t owner)
{
	if (S_ISLNK(st->st_mode))
		return PATH_IS_SYMLINK;
	if (!S_ISDIR(st->st_mode))
		return PATH_NOT_DIR;
	if (st->st_uid != owner && st->st_uid != 0)
		return PATH_WRONG_OWNER;
	if (st->st_mode & 022)
		return PATH_OTHERS_WRITE;
	return PATH_TRUSTED;
}

/* The directory holding path's last part, trusted or not. */
static bool path_parent_trusted(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	struct stat st = { 0 };
	if (!slash)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	bool ok = stat(dir, &st) == 0 && path_dir_trust(&st, geteuid()) == PATH_TRUSTED;
	free(dir);
	return ok;
}

/* The path a symbolic link names, relative to the link's directory.
 * Malloc'd, or NULL. */
static char *path_readlink(const char *link)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(link, buf, sizeof(buf) - 1);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	const char *slash = strrchr(link, '/');
	if (buf[0] == '/' || !slash)
		return xstrdup(buf);
	return xasprintf("%.*s/%s", (int)(slash - link), link, buf);
}

int path_resolve_last(const char *path, char **target, struct stat *st)
{
	*target = NULL;
	if (lstat(path, st) < 0) {
		if (errno != ENOENT)
			return -errno;
		*target = xstrdup(path);
		return 1;
	}
	if (!S_ISLNK(st->st_mode)) {
		*target = xstrdup(path);
		return 0;
	}
	/* Each link of a chain is judged by the directory holding it. */
	char *at = xstrdup(path);
	for (int hops = 0; hops < 16 && S_ISLNK(st->st_mode); hops++) {
		char *next = path_parent_trusted(at) ? path_readlink(at) : NULL;
		free(at);
		if (!next || lstat(next, st) < 0) {
			free(next);
			return -ELOOP;
		}
		at = next;
	}
	char *real = S_ISLNK(st->st_mode) ? NULL : realpath(at, NULL);
	free(at);
	if (!real || stat(real, st) < 0) {
		free(real);
		return -ELOOP;
	}
	*target = real;
	return 0;
}

const char *path_strerror(int err)
{
	switch (err) {
	case ELOOP:
		return "a symbolic link in a directory that others may write, or to nothing: not followed";
	case EINVAL:
		return "not a regular file: refused";
	default:
		return strerror(err);
	}
}
