/* The kernel's own account of an OOM kill inside a sandbox.
 *
 * When the memcg OOM killer runs, the kernel prints, under oom_lock (so one
 * kill's lines are not interleaved with another kill's), in this order:
 *
 *   TASK invoked oom-killer: gfp_mask=..., order=N, oom_score_adj=N
 *   CPU: ... PID: ... Comm: ...
 *   Call Trace: ... the allocation that could not be charged ...
 *   memory: usage 65536kB, limit 65536kB, failcnt 16677
 *   memory+swap: usage 65964kB, limit 196608kB, failcnt 0     (v1)
 *   swap: usage 412kB, limit 131072kB, failcnt 0              (v2)
 *   Memory cgroup stats for /vmregress-PID-START-N:
 *   anon ... swapcached ...   (memory.stat, one record a line, or one
 *                             record holding them all on older kernels)
 *   Tasks state (memory values in pages): ...
 *   oom-kill:constraint=CONSTRAINT_MEMCG,...,oom_memcg=/vmregress-...,...
 *   Memory cgroup out of memory: Killed process PID (NAME) ...
 *
 * These are the cgroup's counters at the moment of the kill, which no read
 * of the cgroup's files after the workload died can give (its pages are
 * freed by then).  The runner positions a reader at the end of /dev/kmsg
 * before the workload starts and, when the workload was OOM-killed, keeps
 * the first report whose oom-kill line names the sandbox's cgroup. */
#ifndef VMR_OOMLOG_H
#define VMR_OOMLOG_H

#include <jansson.h>
#include <stddef.h>

struct oomlog {
	int fd;          /* /dev/kmsg, at the end when opened; -1 */
	int err;         /* errno of the failed open, 0 */
};

/* Open /dev/kmsg and skip what it holds.  Never fails: a log that cannot be
 * read is said so by oomlog_collect. */
void oomlog_open(struct oomlog *ol);
void oomlog_close(struct oomlog *ol);

/* Read the records logged since oomlog_open and return the report of the
 * first OOM kill in the cgroup at cgroup_path (its name, the path below
 * the hierarchy's root, is what the kernel prints):
 *   {"invoked": "...", "trace": ["try_charge_memcg", ...],
 *    "memory": {"usage_kb", "limit_kb", "failcnt"}, "memory+swap" (v1) or
 *    "swap" (v2) alike, "kmem", "stat": {"swapcached": bytes, ...},
 *    "oom_kill": "oom-kill:...", "killed": "Memory cgroup out of memory:...",
 *    "kills": how many kills in the cgroup, "charged_in": "a < b < c",
 *    "lines": [the report as printed], "source": "/dev/kmsg"}
 * or {"error": why} when there is none or the log cannot be read. */
json_t *oomlog_collect(struct oomlog *ol, const char *cgroup_path);

/* The same from messages already split into lines (tests, fixtures);
 * memcg is the name the kernel prints, "/vmregress-...". */
json_t *oomlog_parse(const char *const *msgs, size_t n, const char *memcg);

/* One line for a result's reason: "memory 65536 of 65536 kB, memory+swap
 * 65964 of 196608 kB, swapcached 63.4M, active_anon 63.9M, inactive_anon 0,
 * charged in a < b < c"; "" when the report has none of that. */
void oomlog_summary(const json_t *report, char *buf, size_t len);

#endif
