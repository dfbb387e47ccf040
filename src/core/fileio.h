/* Whole-file reads and writes, the kernel's files among them; atomic
 * writes of outputs; directories made and removed. */
#ifndef VMR_FILEIO_H
#define VMR_FILEIO_H

#include <stddef.h>
#include <stdint.h>

/* Read a whole file into a NUL-terminated buffer.  Returns 0, or -errno
 * after reporting nothing (callers say what the file was for).  *len may be
 * NULL.  Files in /proc report size 0, so this reads until EOF. */
int vmr_read_file(const char *path, char **buf, size_t *len);
/* The same, giving up with -EFBIG once more than max bytes were read (so
 * that /dev/zero ends). */
int vmr_read_file_max(const char *path, size_t max, char **buf, size_t *len);
/* Read a file holding one unsigned number (sysfs style).  0 or -errno. */
int vmr_read_u64(const char *path, uint64_t *out);
/* Read the first line of a file, newline stripped, into a malloc'd string. */
int vmr_read_line(const char *path, char **out);
/* Write a string to an existing file (a sysfs, procfs or cgroup file), the
 * one way vmregress writes the kernel's files: open, one write, close, and
 * an error of any of the three is the result (a kernel file may take the
 * value and refuse it only at close).  0 or -errno; async-signal-safe, so
 * the undo of a signal handler uses it too. */
int vmr_write_file(const char *path, const char *s);
/* Write a file atomically: a new file of an unpredictable name beside it
 * (O_EXCL, O_NOFOLLOW, created with mode), fsync, rename over path, fsync
 * the directory.  path must be absent or a regular file, or a symbolic
 * link that core/path.h allows (then the file it names is replaced);
 * anything else is refused: -EISDIR, -EINVAL (not a regular file: a device,
 * a FIFO), -ELOOP (a link not followed).  0 or -errno, reporting nothing
 * (path_strerror words the refusals). */
int vmr_write_atomic(const char *path, const void *buf, size_t len, int mode);


/* mkdir -p DIR (mode 0755): 0, or -1 with errno set and, when failed is
 * not NULL, the directory that could not be made in *failed (malloc'd). */
int vmr_mkdir_p(const char *dir, char **failed);
/* vmr_mkdir_p of the directory holding path (nothing for "/x" or "x"). */
int vmr_mkdir_parent(const char *path, char **failed);
/* rm -rf --one-file-system: path and everything under it, never following
 * a symbolic link nor crossing into another file system; quietly does what
 * it can. */
void vmr_rm_rf(const char *path);

#endif
