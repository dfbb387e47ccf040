/* The formatters of `vmregress sense`'s views: each takes what a probe
 * read and prints it as text to standard output, or builds its JSON.
 * cmd/sense.c reads, picks the view and the format, and decides the exit
 * code. */
#ifndef VMR_REPORT_SENSE_H
#define VMR_REPORT_SENSE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/util.h"
#include "probe/lru_gen.h"
#include "probe/meminfo.h"
#include "probe/pagemap.h"
#include "probe/swapinfo.h"
#include "probe/sysfsdir.h"
#include "probe/thp.h"
#include "probe/vmalloc.h"
#include "probe/vmstat.h"
#include "probe/zoneinfo.h"

#define SENSE_ZONE_ROWS 10

/* --- pagemap --- */

/* One VMA's counts; ok false when its range is outside what pagemap
 * covers ([vsyscall]). */
struct sense_vma {
	const struct maps_vma *v;
	struct pagemap_counts c;
	char *state;            /* with --map */
	bool ok;
};

struct sense_fields {
	struct strlist names;
	long *idx;
};

/* zones: the page size, then each node's zones side by side. */
json_t *sense_zones_json(const struct zoneinfo *zi);
void sense_zones_text(const struct zoneinfo *zi);
/* structsizes: {name: bytes or null} as a two-column table. */
void sense_structsizes_text(json_t *structs);
/* kvirtual: vi NULL when /proc/vmallocinfo could not be read (the totals
 * alone); top callers at most. */
json_t *sense_kvirtual_json(const struct meminfo *mi, const struct vmallocinfo *vi, long top);
void sense_kvirtual_text(const struct meminfo *mi, const struct vmallocinfo *vi, long top);
json_t *sense_pagemap_json(pid_t pid, const struct sense_vma *svs, size_t n,
			   const struct pagemap_counts *total, uint64_t ps);
void sense_pagemap_text(pid_t pid, const struct sense_vma *svs, size_t n,
			const struct pagemap_counts *total, uint64_t ps);
/* system: "thp.enabled: madvise" lines from the nested fingerprint. */
void sense_flatten(const char *prefix, json_t *j);
void sense_vmstat_header(const struct sense_fields *f);
void sense_vmstat_row(double t, const struct vmstat *before, const struct vmstat *after,
			     struct sense_fields *f, json_t *samples);
void sense_thp_text(const struct thp *t, const char *root);
void sense_swap_text(const struct swapinfo *s);
void sense_lru_gen_text(const struct lru_gen *g, const char *root);

#endif
