/* Keeping a sandbox's memory cgroup statistics fresh.
 *
 * Why: kernels with "memcg: use ratelimited stats flush in the reclaim"
 * (posted August 2024, in 6.x) read a memory cgroup's per-LRU statistics in
 * reclaim without flushing them first; a worker brings them up to date
 * every 2 s, and so does any read of memory.stat.  Reclaim decides from them whether
 * to move pages from the active to the inactive anon list
 * (inactive_is_low() and the refault check in prepare_scan_control()), but
 * scans the lists by their exact sizes.  In a sandbox holding only
 * anonymous memory that is being swapped back in, refaulting pages go
 * straight to the active list, so the inactive anon list can be empty while
 * the stale statistics still show it long enough.  Then a charge's reclaim
 * finds nothing to scan, does not deactivate, and never reaches the
 * fallback that forces deactivation (that one needs a file LRU to scan):
 * 16 retries take well under a millisecond and the memory cgroup OOM killer
 * fires with most of the swap free.  dmesg shows it as a CONSTRAINT_MEMCG
 * kill, typically from the swap-in path (mem_cgroup_swapin_charge_folio), with
 * inactive_anon 0 in the cgroup's stats; the kernel flushes those stats
 * just before printing them, which is why they look consistent.
 *
 * Reading the cgroup's memory.stat makes the kernel flush its statistics
 * (v1 and v2 alike).  A process that reads it every interval keeps them at
 * most that old, and reclaim deactivates as it was designed to.  It costs a
 * read of memory.stat per interval; 0 leaves the kernel's own behaviour, to
 * study it.  MGLRU kernels do not read these statistics in reclaim and do
 * not need it.
 */
#ifndef VMR_STATFLUSH_H
#define VMR_STATFLUSH_H

#include <stdint.h>

struct statflush;

/* Start reading cgroup_dir/memory.stat every interval_ns in a child process
 * named vmr-statflush.  A process, not a thread: the runner forks workload
 * children, and a fork beside a thread that holds a lock (the sanitizers'
 * allocators take no fork precautions) leaves the child stuck on it.  The
 * reader holds none of this process's descriptors, ignores SIGINT, SIGTERM
 * and SIGHUP, and dies with this process (PR_SET_PDEATHSIG).  Returns NULL
 * when interval_ns is 0, or after reporting why it cannot start. */
struct statflush *statflush_start(const char *cgroup_dir, uint64_t interval_ns);
/* Stop the reader, reap it and free f.  In a forked child it only frees the
 * child's copy.  NULL is fine. */
void statflush_stop(struct statflush *f);
/* How many times memory.stat has been read so far. */
uint64_t statflush_reads(const struct statflush *f);

#endif
