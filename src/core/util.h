/* Small helpers every module uses: error reporting, exit codes, file reads. */
#ifndef VMR_UTIL_H
#define VMR_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes of the vmregress binary. */
enum vmr_exit {
	VMR_EXIT_OK = 0,      /* everything ran and passed */
	VMR_EXIT_FAIL = 1,    /* a test ran and failed */
	VMR_EXIT_USAGE = 2,   /* bad command line or bad input file */
	VMR_EXIT_CANNOT = 3,  /* cannot run here: privilege or kernel feature */
	/* the output was closed (EPIPE where SIGPIPE is ignored): the status
	 * of a writer killed by SIGPIPE, 128 + 13, what a shell expects */
	VMR_EXIT_CLOSED = 141,
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* "vmregress: <message>\n" on stderr.  Messages are lowercase, no full stop,
 * what failed first and then why.  Returns -1, so that an error path reads
 * `return vmr_err(...);`. */
int vmr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* text with each control character (below 0x20, and DEL) written as \n,
 * \t, \r or \xHH, so that what echoes input stays on one line: vmr_err,
 * vmr_errno, vmr_warn and the workload's messages pass every message
 * through it.  Malloc'd. */
char *vmr_escape_controls(const char *text);
/* Like vmr_err, with ": strerror(errno)" appended.  Returns -1. */
int vmr_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The command the user ran ("test", "run"), set by main.c before the
 * command starts; "vmregress" until then.  Messages that code below cmd/
 * prints about the user's input begin with it. */
void vmr_set_command(const char *name);
const char *vmr_command(void);
/* vmr_err and vmr_errno about a workload's options: "vmregress: COMMAND
 * WORKLOAD: <message>", the same under test and run.  Return -1. */
int vmr_wl_err(const char *workload, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vmr_wl_errno(const char *workload, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "vmregress: warning: <message>" */
void vmr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocation that cannot fail (aborts with a message on OOM). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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
/* Write a string to an existing file (sysfs/procfs knob).  0 or -errno. */
int vmr_write_file(const char *path, const char *s);
/* Write a file atomically: a new file of an unpredictable name beside it
 * (O_EXCL, O_NOFOLLOW, created with mode), fsync, rename over path, fsync
 * the directory.  path must be absent or a regular file, or a symbolic
 * link that core/path.h allows (then the file it names is replaced);
 * anything else is refused: -EISDIR, -EINVAL (not a regular file: a device,
 * a FIFO), -ELOOP (a link not followed).  0 or -errno, reporting nothing
 * (path_strerror words the refusals). */
int vmr_write_atomic(const char *path, const void *buf, size_t len, int mode);

/* Write one CSV field, quoted as RFC 4180 asks when it holds a comma, a
 * quote or a line break. */
void vmr_csv_field(FILE *f, const char *s);

/* The base page size, cached. */
uint64_t vmr_page_size(void);
/* Monotonic clock in nanoseconds. */
uint64_t vmr_now_ns(void);
/* Wall clock in seconds since the epoch, as a double. */
double vmr_wall_s(void);
/* True when running with effective uid 0. */
bool vmr_is_root(void);

/* mkdir -p DIR (mode 0755): 0, or -1 with errno set and, when failed is
 * not NULL, the directory that could not be made in *failed (malloc'd). */
int vmr_mkdir_p(const char *dir, char **failed);
/* vmr_mkdir_p of the directory holding path (nothing for "/x" or "x"). */
int vmr_mkdir_parent(const char *path, char **failed);
/* rm -rf --one-file-system: path and everything under it, never following
 * a symbolic link nor crossing into another file system; quietly does what
 * it can. */
void vmr_rm_rf(const char *path);

/* A growable array of strings. */
struct strlist {
	char **v;
	size_t n;
};
void strlist_add(struct strlist *l, const char *s);
void strlist_free(struct strlist *l);
/* Whether l holds s. */
bool strlist_has(const struct strlist *l, const char *s);

#endif
