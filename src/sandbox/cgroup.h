/* Memory cgroups, version 2 (memory.max, memory.swap.max, memory.high) where
 * the memory controller is on the unified hierarchy, version 1
 * (memory.limit_in_bytes, memory.memsw.limit_in_bytes) where it is bound to
 * a v1 hierarchy.  Which one is decided at run time from /proc/self/mountinfo.
 * Sandboxes are made directly under the hierarchy's root, where the v2 rule
 * against processes in inner cgroups does not apply. */
#ifndef VMR_CGROUP_H
#define VMR_CGROUP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CGROUP_UNLIMITED UINT64_MAX

struct cg_root {
	int version;      /* 1 or 2 */
	char path[256];   /* mount point of the hierarchy holding memory */
};

/* Find the memory controller.  0, or -1 with why filled. */
int cgroup_detect(struct cg_root *root, char *why, size_t whylen);
/* Parse mountinfo text for the memory hierarchy (for tests and fuzzing):
 * the v2 mount when memory_on_v2 says its controller is usable, else the v1
 * mount with the memory option.  0 or -1. */
int cgroup_parse_mountinfo(const char *text, bool memory_on_v2, struct cg_root *root);

/* Limits of a new cgroup: mem hard limit; high (v2 memory.high, v1 soft
 * limit; 0 = none); swap the most swap it may use (CGROUP_UNLIMITED = the
 * host's rule); swappiness (-1 = inherit).  0 or -1 after reporting. */
int cgroup_configure(int version, const char *path, uint64_t mem, uint64_t high, uint64_t swap, int swappiness);

/* v2 only: memory.low, the memory protected from reclaim by outside
 * pressure.  0 or -1 after reporting. */
int cgroup_set_low(const char *path, uint64_t low);

/* Move a process in.  0 or -errno. */
int cgroup_attach(const char *path, pid_t pid);
/* SIGKILL every process in the cgroup until it is empty (async-signal-safe).
 * 0 or -errno. */
int cgroup_kill_all(const char *path);
/* Kill everything inside and remove the cgroup (async-signal-safe).  A
 * missing cgroup is success; a directory not on a cgroup file system is
 * refused.  0 or -errno. */
int cgroup_remove(const char *path);
/* True when path is a directory on a cgroup file system. */
bool cgroup_is_cgroup(const char *path);

/* Counters as a flat JSON object: usage_bytes, peak_bytes, swap_bytes,
 * limit_bytes, failcnt/events.*, oom, oom_kill, stat.*, and on v1
 * memsw_usage_bytes, memsw_peak_bytes, memsw_failcnt, oom_control.* .
 * Read after a workload was OOM-killed they show what its death freed, not
 * the moment of the kill: sandbox/oomlog.h has that. */
json_t *cgroup_stats(int version, const char *path);
/* Reclaim every page charged to the cgroup, which must have no tasks:
 * v1 memory.force_empty, v2 memory.reclaim of its memory.current (what
 * the kernel cannot reclaim stays, and is no error).  0 or -errno, nothing
 * printed (-ENOENT: a v2 kernel before 5.19 has no memory.reclaim). */
int cgroup_empty(int version, const char *path);
/* The number of OOM kills inside the cgroup so far. */
uint64_t cgroup_oom_kills(int version, const char *path);
/* The cgroup's swap usage in bytes, as cgroup_stats's swap_bytes, read
 * directly (one file; memory.stat on v1). */
uint64_t cgroup_swap_bytes(int version, const char *path);

#endif
