/* The kernel's vmalloc address space: totals from /proc/meminfo
 * (VmallocTotal, VmallocUsed since 4.x is real again, VmallocChunk is 0 since
 * 4.4) and the areas listed in /proc/vmallocinfo (root: addresses are hashed
 * for others, and the file is 0400 on most kernels). */
#ifndef VMR_PROBE_VMALLOC_H
#define VMR_PROBE_VMALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

#define VMALLOC_CALLER_MAX 96

struct vmalloc_caller {
	char name[VMALLOC_CALLER_MAX];  /* "irq_init_percpu_irqstack+0xca/0x100" */
	uint64_t bytes;                 /* sum of area sizes (guard page included, as listed) */
	uint64_t areas;
};

struct vmallocinfo {
	uint64_t areas;
	uint64_t bytes;                 /* sum of every area's size */
	uint64_t pages;                 /* sum of pages=N (areas backed by pages) */
	uint64_t unpurged_areas;        /* freed lazily, not yet unmapped ("unpurged vm_area"); */
	uint64_t unpurged_bytes;        /* not counted in areas/bytes or callers */
	struct vmalloc_caller *callers; /* sorted by bytes, largest first */
	size_t ncallers;
};

/* Parse /proc/vmallocinfo text: "START-END SIZE CALLER [pages=N] [...]".
 * A line without a range or size is an error naming the line; an area
 * without a caller counts under "(unknown)".  Addresses may be hashed
 * (kptr_restrict), so they are not checked for order. */
int vmallocinfo_parse(struct vmallocinfo *vi, const char *buf, size_t len, char *err);
/* Read and parse (NULL: /proc/vmallocinfo).  0 or -1 with err and errno. */
int vmallocinfo_read(struct vmallocinfo *vi, const char *path, char *err);
void vmallocinfo_free(struct vmallocinfo *vi);

#endif
