/* /proc/meminfo (and per-node /sys/devices/system/node/nodeN/meminfo, whose
 * lines start with "Node N "): named values in bytes.  "kB" values are
 * converted to bytes; values without a unit (HugePages_Total) are counts and
 * are kept as they are, with is_count set. */
#ifndef VMR_PROBE_MEMINFO_H
#define VMR_PROBE_MEMINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

#define MEMINFO_NAME_MAX 48

struct meminfo_item {
	char name[MEMINFO_NAME_MAX];
	uint64_t bytes;         /* or a count when is_count */
	bool is_count;
};

struct meminfo {
	struct meminfo_item *items;
	size_t n, cap;
};

/* Parse into m (replacing what it held; the array is reused).  0 or -1. */
int meminfo_parse(struct meminfo *m, const char *buf, size_t len, char *err);
/* Read and parse a file (NULL: /proc/meminfo).  0 or -1 with err. */
int meminfo_read(struct meminfo *m, const char *path, char *err);
/* 0 and *bytes, or -1 when m has no such name ("MemTotal", "SwapTotal"). */
int meminfo_get(const struct meminfo *m, const char *name, uint64_t *bytes);
void meminfo_free(struct meminfo *m);
/* One value of /proc/meminfo read now, in bytes ("SwapTotal"), or 0 when it
 * cannot be read or the kernel has no such line. */
uint64_t meminfo_now(const char *name);

#endif
