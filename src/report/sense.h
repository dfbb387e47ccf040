/* The formatters of `vmregress sense`'s views: each takes what a probe
 * read and prints it as text to standard output, or builds its JSON.
 * cmd/sense.c reads, picks the view and the format, and decides the exit
 * code. */
#ifndef VMR_REPORT_SENSE_H
#define VMR_REPORT_SENSE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/util.h"
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

json_t *sense_u64_or_null(uint64_t v, bool have);
json_t *sense_zones_json(const struct zoneinfo *zi);
void sense_zones_node_text(const struct zoneinfo_node *n);
json_t *sense_vmallocinfo_json(const struct vmallocinfo *vi, long top);
void sense_kvirtual_text(const struct meminfo *mi, const struct vmallocinfo *vi, long top);
json_t *sense_vma_json(const struct sense_vma *sv, uint64_t ps);
void sense_vma_text(const struct sense_vma *sv, uint64_t ps);
void sense_flatten(const char *prefix, json_t *j);
void sense_vmstat_header(const struct sense_fields *f);
void sense_vmstat_row(double t, const struct vmstat *before, const struct vmstat *after,
			     struct sense_fields *f, json_t *samples);
void sense_dir_text(const char *title, const struct sysfs_dir *d);
void sense_thp_sizes_text(const struct thp *t, const char *root);
void sense_swap_devices_text(json_t *devices);
void sense_swap_bytes_text(const struct sysfs_dir *d);
void sense_swap_zswap_text(const struct swapinfo *s);
void sense_swap_zram_text(const struct swapinfo *s);

#endif
