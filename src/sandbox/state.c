#include "sandbox/state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/path.h"
#include "core/util.h"

const char *state_dir(void)
{
	const char *d = getenv("VMREGRESS_STATE_DIR");
	return d && *d ? d : STATE_DIR_DEFAULT;
}

char *state_swap_dir(char *buf, size_t len)
{
	snprintf(buf, len, "%s/swap", state_dir());
	return buf;
}

/* One directory: 1 missing (not created), 0 fine, -1 unsafe, -2 failed. */
static int state_dir_check(const char *path, bool create)
{
	struct stat st = { 0 };
	if (lstat(path, &st) < 0) {
		if (errno != ENOENT) {
			vmr_errno("cannot examine state directory %s", path);
			return -2;
		}
		if (!create)
			return 1;
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			vmr_errno("cannot create state directory %s", path);
			return -2;
		}
		if (lstat(path, &st) < 0) {
			vmr_errno("cannot examine state directory %s", path);
			return -2;
		}
	}
	static const char *const why[] = {
		[PATH_IS_SYMLINK] = "is a symbolic link, refused (use a real directory)",
		[PATH_NOT_DIR] = "is not a directory",
		[PATH_WRONG_OWNER] = "is not owned by root, refused",
		[PATH_OTHERS_WRITE] = "is writable by others, refused (chmod 0700 it)",
	};
	enum path_trust t = path_dir_trust(&st, 0);
	if (t != PATH_TRUSTED) {
		vmr_err("state directory %s: %s", path, why[t]);
		return -1;
	}
	return 0;
}

int state_prepare(bool create)
{
	char swap[512];
	const char *dir = state_dir();
	if (strlen(dir) > 128 || dir[0] != '/') {
		vmr_err("state directory '%s': must be an absolute path of at most 128 characters", dir);
		return -1;
	}
	int r = state_dir_check(dir, create);
	if (r)
		return r;
	r = state_dir_check(state_swap_dir(swap, sizeof(swap)), create);
	return r == 1 ? 0 : r;
}
