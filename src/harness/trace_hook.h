/* --trace and --profile: runner hooks that look inside the kernel while a
 * case runs.
 *
 *   struct trace_cfg tc = { 0 };  OPT_DEFAULTS(trace_opts, &tc);  // zeroes, then defaults
 *   ...parse with trace_opts among the command's optsets...
 *   struct trace_hooks *th = trace_hooks_new(&tc);
 *   size_t n;  struct runner_hook *h = trace_hooks_list(th, &n);
 *   ...append h[0..n) to the runner_cfg's hooks, run cases...
 *   trace_hooks_free(th);
 *
 * The trace hook creates a private tracing instance when a case starts,
 * filters it to the case's child (and its children) plus kswapd, and
 * removes it when the case stops, adding to the result:
 *   metrics  direct-reclaim-stalls, direct-reclaim-stall-time, memcg-reclaim-*,
 *            kswapd-wakes, kswapd-active-time, reclaim-scanned-pages,
 *            reclaim-reclaimed-pages, reclaim-scanned-per-stall,
 *            reclaim-reclaimed-per-stall, reclaim-efficiency,
 *            reclaim-writeback-pages, filemap-*,
 *            compaction-*, trace-dropped-events
 *   hists    direct-reclaim-stall, memcg-reclaim-stall, compaction (ns)
 *   series   direct-reclaim-stalls, memcg-reclaim-stalls: at each stall's
 *            start (s since the case started), its duration (ns)
 *   table    reclaim-stalls-per-pass (pass, direct_stalls, direct_stall_ns,
 *            memcg_stalls, memcg_stall_ns), when the workload's "passes"
 *            table has start_ns (CLOCK_MONOTONIC) and time_ns columns
 *   info     "trace": events read, dropped, tracepoints used;
 *            "trace_skipped": {metric: why} for tracepoints the kernel lacks,
 *            or {"trace": why} when tracing cannot run here at all or could
 *            not be set up, started or stopped (why: the kernel's refusal).
 * The profile hook adds perf-* counter metrics, "perf_unsupported"
 * {counter: why}, and "profile_top_kernel_symbols" [{symbol, percent}]. */
#ifndef VMR_TRACE_HOOK_H
#define VMR_TRACE_HOOK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/options.h"
#include "core/result.h"
#include "harness/runner.h"
#include "trace/trace.h"

enum trace_what { TRACE_WHAT_NONE, TRACE_WHAT_RECLAIM, TRACE_WHAT_FAULTS, TRACE_WHAT_COMPACTION, TRACE_WHAT_ALL };

struct trace_cfg {
	int trace;         /* enum trace_what: --trace none|reclaim|faults|compaction|all */
	bool profile;      /* --profile */
};

/* The option table for the above; shared by test and run (and suite files). */
extern const struct opt trace_opts[];

/* The TRACE_* mask for a --trace choice. */
unsigned trace_what_kinds(int what);

struct trace_hooks;

/* Hooks for cfg; never fails: what cannot run here is recorded in each
 * result with its reason.  NULL when cfg asks for nothing. */
struct trace_hooks *trace_hooks_new(const struct trace_cfg *cfg);
/* The hooks to add to a runner_cfg (owned by th). */
struct runner_hook *trace_hooks_list(struct trace_hooks *th, size_t *n);
/* The hooks never print.  A trace or profile that could not start or stop
 * stores its reason in the result ("trace_skipped", "profile_skipped")
 * and keeps the same reason to be said; what a session could not put back
 * (a setting, an instance left for `vmregress cleanup`) is kept to be said
 * as a warning.  The command calls this after each case: it prints what
 * was kept, one "vmregress: ..." line each on stderr, and forgets it.
 * What cannot run here (no tracefs, not root, no perf) is not said: the
 * result says it.  th may be NULL. */
void trace_hooks_say(struct trace_hooks *th);
void trace_hooks_free(struct trace_hooks *th);

#endif
