/* Which paths vmregress may follow and write: the one rule for symbolic
 * links and special files, shared by output files (vmr_write_atomic), the
 * results store and the state directory.
 *
 * A directory is trusted when its owner is the user running vmregress (or
 * root) and no one else may write it.  A symbolic link named as the last
 * part of a path is followed only when the directory holding it is trusted
 * and it names an existing file: in a directory others may write (a sticky
 * /tmp, a user's $XDG_DATA_HOME seen by root) anyone could have planted
 * it.  Directories named on the way to the last part are followed as given:
 * the user chose them. */
#ifndef VMR_PATH_H
#define VMR_PATH_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

enum path_trust {
	PATH_TRUSTED,
	PATH_IS_SYMLINK,     /* lstat said so: not a directory of its own */
	PATH_NOT_DIR,
	PATH_WRONG_OWNER,    /* owned by neither owner nor root */
	PATH_OTHERS_WRITE,   /* group or others may write it */
};

/* Judge a directory from its lstat (or stat) against an owner uid. */
enum path_trust path_dir_trust(const struct stat *st, uid_t owner);

/* What path's last part names, through a symbolic link the rule above
 * allows: 0 with *st that file's stat and *target the path to open (the
 * link resolved, else path itself; malloc'd); 1 when nothing is there
 * (*target is path); -ELOOP when it is a symbolic link that is not
 * followed (untrusted directory, or naming nothing); else -errno. */
int path_resolve_last(const char *path, char **target, struct stat *st);

/* A message for path_resolve_last's and vmr_write_atomic's errors:
 * ELOOP and EINVAL in their sense above and below, else strerror. */
const char *path_strerror(int err);

#endif
