/* Inside trace/: finding tracefs, its files, and the table of the events
 * vmregress traces (by role, each with the tracepoints that serve it on
 * different kernels).  Shared by the session and the cleanup. */
#ifndef VMR_TRACEFS_H
#define VMR_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>

#include "trace/trace.h"

/* Our private tracefs mount points are /tmp/vmregress-tracefs-PID-XXXXXX. */
#define TRACE_MNT_PREFIX "vmregress-tracefs-"

extern const struct trace_event_want trace_wants[];
extern const size_t trace_nwants;

/* A descriptor of tracefs's root (the host's mount, else a private one
 * detached at once), or -1 with errno set. */
int tracefs_open(void);
/* A tracefs file relative to dirfd, whole, into *out (malloc'd).
 * 0 or -errno. */
int tracefs_read(int dirfd, const char *path, char **out);
/* Write val to it (appending when append).  0 or -errno. */
int tracefs_write(int dirfd, const char *path, const char *val, bool append);

#endif
