/* The SQLite store's writer lock: a byte-range lock at offset RUN ID in
 * "<results file>-lock", held by the process writing the run and dropped by
 * the system however it exits (docs/DESIGN.md, "The writer's lock"). */
#include "store/sqlite_int.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "store/backend.h"
#include "core/path.h"
#include "core/util.h"

static char *sqlite_lockname(const struct store *st)
{
	return xasprintf("%s-lock", st->path);
}

static int sqlite_lock_range(int fd, int cmd, short type, off_t start, off_t len, struct flock *fl)
{
	*fl = (struct flock){ .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
	return fcntl(fd, cmd, fl);
}

/* A store removes the lock file when it closes and no one holds a lock in
 * it (a writer killed with -9 leaves the file, not its locks), so that a
 * results file leaves only itself behind, as SQLite does with its WAL.  Its
 * whole-file lock keeps others from locking the file it unlinks;
 * sqlite_hold checks that the file it locked is still the one named. */
void sqlite_lockfile_tidy(struct store *st)
{
	char *name = sqlite_lockname(st);
	int fd = st->lockfd >= 0 ? st->lockfd : open(name, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	struct flock fl = { 0 };
	if (fd >= 0 && sqlite_lock_range(fd, F_OFD_SETLK, F_WRLCK, 0, 0, &fl) == 0)
		unlink(name);
	if (fd >= 0)
		close(fd); /* drops every lock, of runs not ended too */
	st->lockfd = -1;
	free(name);
}

/* Writers' locks live in a file of their own beside the results file:
 * closing any descriptor of the results file itself would drop SQLite's
 * own (per-process) locks on it.  Open file description locks belong to
 * the descriptor, so the kernel drops them when the writer exits, even by
 * kill -9, and two store handles in one process do not share them.
 * Without the lock file (a directory we may not write) the run is written
 * all the same; only no one can tell it is still running. */
int sqlite_hold(struct store *st, int64_t run_id, bool hold)
{
	struct flock fl = { 0 };
	if (!hold) {
		if (st->lockfd >= 0)
			sqlite_lock_range(st->lockfd, F_OFD_SETLK, F_UNLCK, (off_t)run_id, 1, &fl);
		return 0;
	}
	char *name = sqlite_lockname(st);
	for (int tries = 0; tries < 8; tries++) {
		if (st->lockfd < 0 && (st->lockfd = open(name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644)) < 0)
			break;
		struct stat held, named;
		if (sqlite_lock_range(st->lockfd, F_OFD_SETLKW, F_WRLCK, (off_t)run_id, 1, &fl) < 0)
			break;
		if (fstat(st->lockfd, &held) == 0 && stat(name, &named) == 0 && held.st_ino == named.st_ino &&
		    held.st_dev == named.st_dev)
			break;
		close(st->lockfd); /* removed meanwhile by a store closing: lock the new one */
		st->lockfd = -1;
	}
	free(name);
	return 0;
}

bool sqlite_running(struct store *st, int64_t run_id)
{
	char *name = sqlite_lockname(st);
	int fd = open(name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	free(name);
	if (fd < 0)
		return false;
	struct flock fl = { 0 };
	bool held = sqlite_lock_range(fd, F_OFD_GETLK, F_RDLCK, (off_t)run_id, 1, &fl) == 0 && fl.l_type != F_UNLCK;
	close(fd);
	return held;
}
