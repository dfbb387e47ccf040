/* sysctls under /proc/sys: every vm.* knob as name/value text, and single
 * knobs by dotted name ("vm.swappiness" is /proc/sys/vm/swappiness). */
#ifndef VMR_PROBE_SYSCTL_H
#define VMR_PROBE_SYSCTL_H

#include <jansson.h>
#include <stddef.h>

#include "probe/probe.h"

struct sysctl_item {
	char *name;             /* "vm.swappiness" */
	char *value;            /* trimmed text; tabs between fields become spaces */
};

struct sysctl_list {
	struct sysctl_item *items;
	size_t n, cap;
};

/* Read every readable file under /proc/sys/<prefix with dots as slashes>
 * (prefix "vm"), recursively, sorted by name.  Write-only knobs
 * (vm.drop_caches and vm.compact_memory on some kernels) and files that
 * refuse reading are skipped.  0, or -1 with err when the directory itself
 * cannot be read. */
int sysctl_read_all(struct sysctl_list *l, const char *prefix, char *err);
void sysctl_list_free(struct sysctl_list *l);
/* The value of a name in l, or NULL. */
const char *sysctl_list_get(const struct sysctl_list *l, const char *name);
/* {"vm.swappiness":"60", ...} */
json_t *sysctl_list_json(const struct sysctl_list *l);

/* The path of a dotted name, into buf: "vm.swappiness" -> /proc/sys/vm/swappiness. */
char *sysctl_path(const char *name, char *buf, size_t len);
/* Read one knob (trimmed, malloc'd).  0, or -1 with err and errno. */
int sysctl_get(const char *name, char **value, char *err);

#endif
