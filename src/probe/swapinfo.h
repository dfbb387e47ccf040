/* Swap as the kernel has it now: devices with their use, swap readahead,
 * the swap cache, zero-filled pages swapped without I/O (swpin_zero and
 * swpout_zero, 6.12 on), zswap's parameters and counters, and zram devices
 * with their mm_stat.  Read-only.
 *
 * zswap's pool size and stored pages are in debugfs
 * (/sys/kernel/debug/zswap) where it is mounted; without it /proc/vmstat's
 * zswpin, zswpout and zswpwb and /proc/meminfo's Zswap and Zswapped are
 * what there is. */
#ifndef VMR_PROBE_SWAPINFO_H
#define VMR_PROBE_SWAPINFO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/sysfsdir.h"

#define SWAPINFO_ZSWAP_PARAMS "/sys/module/zswap/parameters"
#define SWAPINFO_ZSWAP_DEBUGFS "/sys/kernel/debug/zswap"

/* zram's mm_stat columns in the kernel's order (Documentation/admin-guide/
 * blockdev/zram.rst); 4.7-4.13 print the first 7, 4.14 adds huge_pages,
 * 5.14 huge_pages_since. */
#define ZRAM_MM_STAT_MIN 7
#define ZRAM_MM_STAT_MAX 9
extern const char *const zram_mm_stat_names[ZRAM_MM_STAT_MAX];

struct zram_mm_stat {
	uint64_t v[ZRAM_MM_STAT_MAX];
	size_t n;               /* columns this kernel prints (7..9) */
};

struct swapinfo_zram {
	int id;
	uint64_t disksize_bytes;
	char algorithm[SYSFS_VALUE_MAX];
	struct zram_mm_stat mm;
	bool have_mm;
};

struct swapinfo {
	json_t *devices;                /* system_parse_swaps(), or NULL */
	struct sysfs_dir meminfo;       /* SwapTotal, SwapFree, SwapCached, Zswap, Zswapped (bytes) */
	struct sysfs_dir vmstat;        /* pswpin/out, swpin/out_zero, zswp*, swap_ra*, thp_swpout* */
	struct sysfs_dir zswap;         /* parameters */
	struct sysfs_dir zswap_debugfs;
	bool have_zswap, have_zswap_debugfs;
	int64_t vma_ra_enabled;         /* 1, 0, or -1 when the kernel lacks it */
	int64_t page_cluster;           /* -1 when unreadable */
	struct swapinfo_zram *zram;
	size_t nzram;
};

/* Parse one mm_stat line.  0, or -1 with err (fewer than 7 numbers, a
 * word, more columns than known are kept out of v but accepted). */
int zram_mm_stat_parse(struct zram_mm_stat *m, const char *buf, size_t len, char *err);

/* The /proc/vmstat counters that belong to swap: the name is one of these
 * (fnmatch patterns). */
bool swapinfo_vmstat_name(const char *name);

/* Read everything; what the kernel lacks is left empty (never an error). */
void swapinfo_read(struct swapinfo *s);
void swapinfo_free(struct swapinfo *s);

json_t *swapinfo_json(const struct swapinfo *s);

#endif
