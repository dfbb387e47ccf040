/* /proc/vmstat (and any "name value" per line file in the same format, such
 * as a memory cgroup's memory.stat): a snapshot of named counters.
 *
 * Monitors parse this every interval, so a snapshot is reusable: the first
 * parse sizes one array, later parses into the same struct allocate nothing
 * (and the file read reuses one buffer and one open fd). */
#ifndef VMR_PROBE_VMSTAT_H
#define VMR_PROBE_VMSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

#define VMSTAT_NAME_MAX 64

struct vmstat_item {
	char name[VMSTAT_NAME_MAX];
	uint64_t value;
};

struct vmstat {
	struct vmstat_item *items;
	size_t n, cap;
	/* reading state, reused between vmstat_read calls */
	char *buf;
	size_t bufcap;
	int fd;                 /* -1 until vmstat_read opens it */
	char *path;
};

/* An empty snapshot (fd -1).  Zero-filled memory is not enough: use this. */
void vmstat_init(struct vmstat *s);
void vmstat_free(struct vmstat *s);

/* Parse "name value" lines into s (replacing what it held).  Names longer
 * than VMSTAT_NAME_MAX - 1, missing or non-numeric values, extra words and a
 * truncated last line are errors naming the line.  An empty buffer is an
 * error ("empty").  0 or -1 with err. */
int vmstat_parse(struct vmstat *s, const char *buf, size_t len, char *err);

/* Read and parse a file (NULL: /proc/vmstat), keeping it open for the next
 * call with the same path.  0 or -1 with err. */
int vmstat_read(struct vmstat *s, const char *path, char *err);

/* Look up a counter.  0 and *value, or -1 when s has no such name. */
int vmstat_get(const struct vmstat *s, const char *name, uint64_t *value);
/* Index of a name, or -1.  The kernel's order does not change between
 * reads, so a caller sampling the same names every interval can look them
 * up once and then use vmstat_at(). */
long vmstat_index(const struct vmstat *s, const char *name);
/* The value at idx when the name there is still `name` (0), else looks the
 * name up again and updates *idx; -1 when it is gone. */
int vmstat_at(const struct vmstat *s, long *idx, const char *name, uint64_t *value);

/* Per-counter change from `before` to `after`: out[i] belongs to
 * after->items[i] (out must have room for after->n).  Counters missing from
 * `before` get 0.  Gauges (nr_*) may go down, hence signed.  No allocation. */
void vmstat_delta(const struct vmstat *before, const struct vmstat *after, int64_t *out);

#endif
