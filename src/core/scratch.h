/* Scratch directories: a workload's files, the reference traces made for a
 * run.  They go to a disk-backed file system ($TMPDIR, else /var/tmp: /tmp
 * may be tmpfs, which is memory), named vmregress-PID-START-XXXXXX or
 * vmregress-KIND-PID-START-XXXXXX (START: field 22 of /proc/PID/stat, as in
 * the journal's names), so that the ones of a dead vmregress can be
 * told from those of a live one.  Each is removed when it is done with,
 * by the signal handler of a vmregress that is killed (scratch_remove_all),
 * and after kill -9 by the next run or `vmregress cleanup`
 * (scratch_cleanup).  They hold plain files only. */
#ifndef VMR_SCRATCH_H
#define VMR_SCRATCH_H

#include <stdbool.h>

/* $TMPDIR, else /var/tmp. */
const char *scratch_base(void);
/* Make a fresh directory (kind NULL: vmregress-PID-START-XXXXXX) and register it
 * for the signal handler.  The path (free it), or NULL with errno set. */
char *scratch_make(const char *kind);
/* Remove the files in dir, then dir, and forget it.  0 or -errno. */
int scratch_remove(const char *dir);
/* Remove every directory this process registered and has not removed, with
 * async-signal-safe calls only: for the signal handler. */
void scratch_remove_all(void);
/* Remove the scratch directories of vmregress processes that are gone:
 * real directories (not symbolic links) owned by the user running this.
 * said, when not NULL, is told of each (err 0 or -errno).  Returns the
 * number removed. */
int scratch_cleanup(void (*said)(void *ctx, const char *path, long pid, int err), void *ctx);

#endif
