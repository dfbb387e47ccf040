/* The pressure sandbox: a memory cgroup with a hard limit, its own swap, and
 * kernel knobs set for its lifetime, all journaled before each change so that
 * normal exit, a signal, or `vmregress cleanup` after kill -9 puts the host
 * back exactly as it was.
 *
 * Usage:
 *   struct sandbox_cfg cfg = { 0 };  OPT_DEFAULTS(sandbox_opts, &cfg);  // zeroes, then defaults
 *   ...parse...
 *   struct sandbox *sb;
 *   if (sandbox_open(&sb, &cfg) < 0) exit(...)     // reports its own errors
 *   sandbox_attach(sb, child_pid);                  // before the child allocates
 *   ...
 *   sandbox_close(sb);                              // undoes everything, reverse order
 */
#ifndef VMR_SANDBOX_H
#define VMR_SANDBOX_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/options.h"

struct sandbox_cfg {
	uint64_t mem_bytes;      /* --mem: hard limit (default 256M) */
	uint64_t high_bytes;     /* --mem-high: v2 memory.high, 0 = not set */
	uint64_t low_bytes;      /* --mem-low: v2 memory.low, 0 = not set (v1: refused) */
	char *swap;              /* --swap file[:SIZE]|zram[:SIZE[:ALGO]]|host|none */
	struct strlist set;      /* --set NAME=VALUE, allow-listed knobs */
	struct strlist hold;     /* --hold NAME: knobs journaled and put back at close, not set */
	uint64_t timeout_ns;     /* --timeout: watchdog for a workload */
	uint64_t stats_flush_ns; /* --stats-flush: read memory.stat this often (statflush.h), 0 = never */
	bool no_sandbox;         /* --no-sandbox: run directly on the host */
	bool force;              /* --force: with --no-sandbox, allow sizes beyond free memory */
	bool zram_reuse;         /* hidden --zram-reuse: reuse a free zram device, no hot_add */
};

/* The option table for the above; shared by test, run, sandbox exec. */
extern const struct opt sandbox_opts[];

struct sandbox;

/* Validate cfg (sizes, swap spec, knob names) without touching the host.
 * Returns 0, or -1 after a one-line error (exit code 2). */
int sandbox_cfg_check(const struct sandbox_cfg *cfg);

/* Why a valid configuration cannot run on this machine now, or NULL: a
 * --set knob this kernel lacks (an mTHP size, zswap, MGLRU), or a change
 * that would last until the next boot which --force has not allowed
 * (knob_check_one_way).  The reason, naming the knob (and --force where it
 * would allow it), goes in buf.  A suite's case with a reason is a skip
 * and the other cases run; a single `test` exits 3.  Bad input (a knob
 * not on the allow-list, a value beyond its bounds) is sandbox_cfg_check's:
 * it stops a run before anything starts (exit 2). */
const char *sandbox_cfg_cannot(const struct sandbox_cfg *cfg, char *buf, size_t len);

/* Where a workload may run here: the one rule for test, run and sandbox
 * exec, decided from the configuration before anything is done.
 *   root: SANDBOX_BUILD, the sandbox cfg describes (with --no-sandbox, only
 *     its knobs);
 *   not root, --no-sandbox and no --set: SANDBOX_HOST, on the host with
 *     nothing built; the workload then sizes itself from the zone
 *     watermarks and refuses sizes beyond free memory unless --force;
 *   not root otherwise: SANDBOX_REFUSED, and *why says why in words that
 *     follow "vmregress: " (exit 3).  A workload never runs unsandboxed
 *     unless --no-sandbox asked for it, and --set is never ignored. */
enum sandbox_plan { SANDBOX_REFUSED, SANDBOX_BUILD, SANDBOX_HOST };
enum sandbox_plan sandbox_plan(const struct sandbox_cfg *cfg, const char **why);

/* Build the sandbox.  Returns 0; -1 after a one-line error for bad input
 * (exit 2); -2 when it cannot run here (no root, no memory cgroup, not
 * enough memory or disk, a dead vmregress's journal that cannot be
 * replayed: exit 3).  On failure nothing is left changed.  It first cleans
 * up after killed vmregress processes (sandbox_recover), and with --set
 * waits up to cfg->timeout_ns for another sandbox holding the knobs.
 * With cfg->no_sandbox it only applies the knobs.  Follows sandbox_plan:
 * when that says SANDBOX_HOST it returns 0 with *sb NULL (nothing to build,
 * and every function here takes a NULL sandbox as "on the host"); when it
 * refuses, -2 with the reason.  Several may be open at once; a forked child
 * that calls sandbox_close only frees its copy. */
int sandbox_open(struct sandbox **sb, const struct sandbox_cfg *cfg);
/* Undo everything in reverse order; safe to call from an atexit path. */
void sandbox_close(struct sandbox *sb);

/* For a workload measured under the host's knobs (sb sets none, or sb is
 * NULL): hold the knob lock shared while it runs (knobs.h), waiting up to
 * wait_ns for a sandbox that is setting knobs.  Returns the descriptor to
 * close after the workload, -1 when sb holds the knobs itself (or there
 * is no /proc/sys/vm to lock), or -2 with
 * *why (nothing printed but the note that it waits). */
int sandbox_knobs_hold(const struct sandbox *sb, uint64_t wait_ns, const char **why);
/* True when sb set knobs (and holds them exclusively). */
bool sandbox_sets_knobs(const struct sandbox *sb);

/* Journal a change to the host that another module makes (DAMON,
 * sandbox/damonctl.h), before it makes it; closing the sandbox, a signal or
 * `cleanup` undoes it with the rest (undo_rec).  0, or -2 after a message. */
struct jrec;
int sandbox_journal(struct sandbox *sb, const struct jrec *r);

/* Move a process into the sandbox's cgroup. */
int sandbox_attach(struct sandbox *sb, pid_t pid);
/* Kill every process in the cgroup (watchdog). */
void sandbox_kill_all(struct sandbox *sb);

uint64_t sandbox_limit_bytes(const struct sandbox *sb);
uint64_t sandbox_swap_bytes(const struct sandbox *sb);
/* The swap the cgroup uses now (sandbox_stats's swap_bytes, read alone,
 * cheap enough to sample every few milliseconds); 0 unsandboxed. */
uint64_t sandbox_swap_used_bytes(const struct sandbox *sb);
const char *sandbox_cgroup_path(const struct sandbox *sb); /* NULL unsandboxed */
bool sandbox_active(const struct sandbox *sb);

/* The memcg's counters now: usage, peak, swap usage, events (oom, oom_kill,
 * max/failcnt) and memory.stat, as a flat JSON object of numbers. */
json_t *sandbox_stats(const struct sandbox *sb);
/* Between two workloads (nothing left in the cgroup): start the next from
 * the state the sandbox was built in, as far as the kernel allows.  Every
 * page charged to the cgroup is reclaimed (cgroup_empty), then the
 * sandbox's own swap is turned off and on again, so that it starts empty,
 * its slots allocated from the start and no swap cache left.  Swap is
 * host-wide: the swapoff also brings back pages other cgroups put there.
 * Returns 0 with what was done in done ("memory emptied, swap off and
 * on"); 0 also when a step could not be done (a swapoff refused, a v2
 * kernel without memory.reclaim), saying so in done; -2 when the swap is
 * left off (it could not be turned on again), with the reason in done.
 * On the host (sb NULL or --no-sandbox) it does nothing. */
int sandbox_reset(struct sandbox *sb, char *done, size_t len);
/* The OOM-kill count so far (memory.events oom_kill / v1 oom_control). */
uint64_t sandbox_oom_kills(const struct sandbox *sb);
/* The kernel's report of an OOM kill in the sandbox (sandbox/oomlog.h):
 * sandbox_oom_watch before the workload starts skips what the kernel log
 * holds; sandbox_oom_report after it was killed returns the report of the
 * first kill in the sandbox's cgroup since, or {"error": why}, puts its
 * gist in one line into gist ("" when it has none), and stops watching. */
void sandbox_oom_watch(struct sandbox *sb);
json_t *sandbox_oom_report(struct sandbox *sb, char *gist, size_t len);
/* Stop watching without a report. */
void sandbox_oom_unwatch(struct sandbox *sb);
/* What the sandbox is: cgroup version and path, limit, how often its
 * statistics are refreshed (stats_flush_ns), swap device and size, every
 * allow-listed knob's value in force.  Stored with every result. */
json_t *sandbox_describe(const struct sandbox *sb);

/* Install handlers for every signal that would end the process
 * (core/signals.h): they kill the children named below, undo every open
 * sandbox, remove this process's scratch directories (core/scratch.h) and
 * re-raise.  SIGPIPE is ignored, so a closed output is EPIPE.  Called once
 * by commands that open sandboxes or make scratch directories; forked
 * children call signals_default(). */
void sandbox_install_signal_handlers(void);
/* Name (add) or forget a child process that the signal handler must kill
 * and reap before it removes what the child may be writing to. */
void sandbox_signal_child(pid_t pid, bool add);
/* A note the signal handler writes to stderr once the sandboxes are undone,
 * before the process dies of the signal: what was stored, say.  note stays
 * valid until replaced (NULL: none); replacing it is atomic, so keep two
 * buffers and write the one not published. */
void sandbox_signal_note(const char *note);

/* Undo what dead vmregress processes left: their journals (only when every
 * line checks out) and orphaned cgroups, swap files and zram devices that
 * are provably vmregress's (named or tagged with their owner's PID and start
 * time) and whose owner is gone.  Never touches what a live process owns.
 * Fills actions (a JSON array) with one object per thing done or refused:
 * {"action", "what", "path", "owner_pid", "from", "error"}.  Returns the
 * number of things undone, or -1 when something was refused (a corrupt or
 * foreign journal, a step that failed) after saying why; the rest is still
 * done. */
int sandbox_cleanup_report(json_t *actions);
/* Called before building a sandbox (sandbox_open does it; `test` and `run`
 * may call it first to say so early): undo what killed vmregress processes
 * left, saying so on stderr.  0 when the host is clean now; -2 when it is
 * not and cannot be made so automatically (exit 3, message printed). */
int sandbox_recover(void);

/* What vmregress has changed on the host right now (live and dead owners):
 * {"state_dir", "changed", "journals": [...], "cgroups": [...],
 *  "swaps": [...], "zram": [...]}.  Returns 0, or -1 after reporting. */
int sandbox_status(json_t **out);

#endif
