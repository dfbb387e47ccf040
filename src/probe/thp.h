/* Transparent huge pages: the global settings under
 * /sys/kernel/mm/transparent_hugepage, khugepaged's, and per multi-size THP
 * size (hugepages-<N>kB, Linux 6.8 on) its enabled/shmem_enabled and every
 * counter under stats/ (6.9 on), all read generically: what one kernel adds
 * (split_deferred, swpin_fallback_charge, zswpout) shows without a change.
 *
 * The root is a parameter so that tests can read captured trees of other
 * kernels (tests/fixtures/thp/). */
#ifndef VMR_PROBE_THP_H
#define VMR_PROBE_THP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/sysfsdir.h"

#define THP_ROOT "/sys/kernel/mm/transparent_hugepage"

struct thp_size {
	uint64_t size_kb;       /* 64 for hugepages-64kB */
	struct sysfs_dir settings;      /* enabled, shmem_enabled */
	struct sysfs_dir stats;         /* empty before 6.9 */
	bool have_stats;
};

struct thp {
	struct sysfs_dir settings;      /* enabled, defrag, use_zero_page, ... */
	struct sysfs_dir khugepaged;
	struct thp_size *sizes;         /* by size, smallest first */
	size_t nsizes;
};

/* "hugepages-64kB" -> 64.  0, or -1 when the name is not of that form. */
int thp_parse_size_name(const char *name, uint64_t *size_kb);

/* Read the tree at root (NULL: THP_ROOT).  0, or -1 with err; errno ENOENT
 * when the kernel has no THP at all. */
int thp_read(struct thp *t, const char *root, char *err);
void thp_free(struct thp *t);

/* The size of size_kb, or NULL. */
const struct thp_size *thp_find_size(const struct thp *t, uint64_t size_kb);
/* One counter of one size: 0 and *v, or -1 when the kernel lacks it. */
int thp_size_stat(const struct thp_size *s, const char *name, uint64_t *v);

/* The anonymous-memory policy in force for one size under root (NULL:
 * THP_ROOT): "always", "madvise" or "never", an "inherit" resolved through
 * the global enabled.  0, or -1 with err and errno (ENOENT: no such size,
 * or one for shmem only). */
int thp_anon_policy(const char *root, uint64_t size_kb, char *out, size_t outlen, char *err);
/* Only one size's stats/ (cheap enough to read around each phase of a
 * workload).  0, or -1 with err and errno. */
int thp_size_stats_read(const char *root, uint64_t size_kb, struct sysfs_dir *d, char *err);
/* "64K", "2M", "1M" -> kB.  0, or -1 when it is no such label. */
int thp_parse_label(const char *s, uint64_t *size_kb);

/* Per-size counters over time, for the monitor: the sizes whose
 * anonymous policy is not never when it starts (a size left at never has
 * nothing to count), each sample the change of THP_SAMPLER_NAMES since the
 * last one.  Reads one stats/ directory per such size per sample. */
#define THP_SAMPLER_MAX 16
struct thp_sampler {
	size_t n;
	uint64_t kb[THP_SAMPLER_MAX];
	struct sysfs_dir prev[THP_SAMPLER_MAX], cur[THP_SAMPLER_MAX];
};
extern const char *const thp_sampler_names[];   /* NULL-ended */
void thp_sampler_start(struct thp_sampler *s, const char *root);
/* emit(arg, "64K.swpout", change) for each size and name the kernel has. */
void thp_sampler_sample(struct thp_sampler *s, const char *root,
			void (*emit)(void *arg, const char *name, double change), void *arg);
void thp_sampler_free(struct thp_sampler *s);

/* "64K", "2M": the name a size has in knobs and reports. */
void thp_size_label(uint64_t size_kb, char *out, size_t outlen);

/* {settings, khugepaged, sizes: {"64K": {size_kb, enabled, shmem_enabled,
 * stats: {...} or null}}}.  with_counters false leaves out what changes
 * while the settings stay (stats, khugepaged's full_scans and
 * pages_collapsed): the form the environment fingerprint stores. */
json_t *thp_json(const struct thp *t, bool with_counters);

#endif
