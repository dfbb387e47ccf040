/* Directories of one-value sysfs files (/sys/kernel/mm/transparent_hugepage,
 * its hugepages-*kB/stats, /sys/module/zswap/parameters, lru_gen): every
 * regular file read generically, so that a counter or setting a kernel adds
 * shows without a change here.
 *
 * A value is the file's text without its trailing newline; a selector
 * ("always inherit [madvise] never") becomes the bracketed word.  Files that
 * cannot be read (write-only, EPERM, EINVAL on read) are left out, which is
 * what the kernel means by them. */
#ifndef VMR_PROBE_SYSFSDIR_H
#define VMR_PROBE_SYSFSDIR_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

#define SYSFS_NAME_MAX 64
#define SYSFS_VALUE_MAX 128

struct sysfs_value {
	char name[SYSFS_NAME_MAX];
	char value[SYSFS_VALUE_MAX];
	bool is_number;         /* value is a decimal that fits 64 bits */
	uint64_t number;
};

struct sysfs_dir {
	struct sysfs_value *v;
	size_t n, cap;
};

/* Parse one file's text into v->value (name untouched).  One line only,
 * printable, no longer than SYSFS_VALUE_MAX - 1; a selector must have
 * exactly one bracketed word.  0, or -1 with err. */
int sysfs_value_parse(struct sysfs_value *v, const char *buf, size_t len, char *err);

/* Every regular file of dir, sorted by name.  0, or -1 with err when the
 * directory cannot be opened (errno kept: ENOENT means "not this kernel"). */
int sysfs_dir_read(struct sysfs_dir *d, const char *dir, char *err);
void sysfs_dir_free(struct sysfs_dir *d);

/* The entry of that name, or NULL. */
const struct sysfs_value *sysfs_dir_get(const struct sysfs_dir *d, const char *name);

/* {"name": number-or-string, ...}; names matching skip (a NULL-ended list
 * of fnmatch patterns, may be NULL) are left out. */
json_t *sysfs_dir_json(const struct sysfs_dir *d, const char *const *skip);
json_t *sysfs_value_json(const struct sysfs_value *v);

#endif
