/* Kernel knobs a sandbox may set for its lifetime: an allow-list mapping a
 * short name to its file under /proc/sys/vm, /sys/kernel/mm or
 * /sys/module/zswap/parameters.  Nothing else can be named: a name holding
 * '/' or ".." never reaches a path. */
#ifndef VMR_KNOBS_H
#define VMR_KNOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct knob {
	const char *name;   /* "vm.swappiness" */
	const char *path;   /* "/proc/sys/vm/swappiness" */
	const char *help;
};

/* What the safety bounds of knob values depend on (kB, from /proc/meminfo). */
struct knob_host {
	uint64_t mem_total_kb, swap_total_kb, committed_kb;
	uint64_t overcommit_kbytes;  /* vm.overcommit_kbytes: when not 0, it replaces the ratio */
	/* zswap is on, or has stored pages, this boot: turning it on changes
	 * nothing that lasts any more (see knob_check_bounds) */
	bool zswap_seen;
};
/* This host's, read now; 0 or -1 when /proc/meminfo cannot be read. */
int knob_host_read(struct knob_host *h);

/* Check the values of --set arguments (NAME=VALUE, allow-listed) against
 * the bounds beyond which a value endangers the host: vm.min_free_kbytes
 * near the host's memory, vm.watermark_scale_factor and
 * vm.vfs_cache_pressure at their extremes, vm.overcommit_memory=2 with a
 * ratio (set or in force) whose commit limit is below what is committed
 * now, and a zswap pool that may take most of memory.  0, or -1 with why
 * naming the knob, the value and the bound.  A value that is not a number
 * is left for the kernel to judge.  Such a value is bad input: the run
 * stops before anything starts (exit 2). */
int knob_check_bounds(char *const *set, size_t n, const struct knob_host *h, char *why, size_t len);

/* Check the --set arguments for a change that lasts until the next boot
 * whatever is restored: zswap.enabled=Y on a boot where zswap was never
 * on, after which the kernel swaps no large folio in whole (a one-way
 * switch in mm/memory.c that no knob undoes).  0, or -1 with why naming
 * the knob and what would last.  Such a value is valid: the machine may
 * not take it unless the user allows it (--force), so a case asking for it
 * cannot run here (a skip, exit 3), not bad input. */
int knob_check_one_way(char *const *set, size_t n, const struct knob_host *h, char *why, size_t len);

/* The allow-list, ending with a NULL name. */
extern const struct knob knobs[];

/* The knobs' names for help, in the table's order, separated by ", ",
 * the multi-size THP ones folded into "thp.SIZE.enabled and
 * thp.SIZE.shmem_enabled (multi-size THP; SIZE one of 8K ... 2M)", into
 * buf.  Returns buf. */
char *knob_names_help(char *buf, size_t len);

/* The knob of that name, or NULL. */
const struct knob *knob_find(const char *name);

/* Check "NAME=VALUE" from --set.  Returns the knob and sets *value to the
 * text after '=', or NULL with *why set to a static reason. */
const struct knob *knob_parse_set(const char *arg, const char **value, const char **why);

/* A small sysfs or procfs file's text, NUL-terminated, in one read;
 * async-signal-safe.  0 or -errno. */
int knobs_read_file(const char *path, char *buf, size_t len);
/* The value in force, normalized: for files listing choices ("always
 * [madvise] never") the bracketed one.  0 or -errno. */
int knob_read(const struct knob *k, char *buf, size_t len);
/* Normalize a knob file's text in place (trailing newline, [choice]). */
void knob_normalize(char *text);

/* Knobs are host-wide.  A sandbox that sets them holds the knob lock
 * exclusively for its lifetime; a workload measured under the host's own
 * values holds it shared while it runs.  So a run without --set never
 * measures under another run's temporary values: whichever comes second
 * waits (up to wait_ns, 0: as long as it takes), saying so once on stderr.
 * The lock is an flock on /proc/sys/vm itself, so no lock file is left
 * anywhere, and anyone may take it shared.  Returns the descriptor holding
 * it (close it to let go), -1 when shared and /proc/sys/vm cannot be
 * opened (no one can lock it exclusively then), or -2 with *why set to a
 * static reason. */
int knobs_lock(bool exclusive, uint64_t wait_ns, const char **why);

#endif
