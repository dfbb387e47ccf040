/* --trace and --profile as runner hooks; trace statistics into results. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness/trace_hook.h"
#include "core/util.h"
#include "trace/metrics.h"
#include "trace/perf.h"

#define PROFILE_TOP_SYMBOLS 20

const struct opt trace_opts[] = {
	{ .name = "trace", .type = OPT_ENUM, .off = offsetof(struct trace_cfg, trace), .def = "none",
	  .choices = "none|reclaim|faults|compaction|all", .metavar = "WHAT",
	  .help = "trace the kernel while each case runs: reclaim stalls and kswapd, page-cache faults, "
		  "compaction, or all (tracefs tracepoints, filtered to the workload)" },
	{ .name = "profile", .type = OPT_FLAG, .off = offsetof(struct trace_cfg, profile),
	  .help = "count faults, context switches and TLB misses with perf events, and record the top "
		  "kernel symbols with perf record" },
	OPT_END
};

unsigned trace_what_kinds(int what)
{
	switch (what) {
	case TRACE_WHAT_RECLAIM: return TRACE_RECLAIM;
	case TRACE_WHAT_FAULTS: return TRACE_FAULTS;
	case TRACE_WHAT_COMPACTION: return TRACE_COMPACTION;
	case TRACE_WHAT_ALL: return TRACE_ALL;
	default: return 0;
	}
}

/* ---- the trace hook ---- */

struct trace_hook_ctx {
	unsigned kinds;
	struct trace_session *ts;
	struct trace_stats stats;
	uint64_t start_ns;
	char *why;            /* why tracing did not run for this case */
};

static int trace_hook_start(void *arg, pid_t child, struct sandbox *sb)
{
	struct trace_hook_ctx *c = arg;
	free(c->why);
	c->why = NULL;
	int rc = trace_session_open(&c->ts, c->kinds, &c->why);
	if (rc < 0) {
		if (!c->why)
			c->why = xstrdup("cannot set up tracing");
		return 0;
	}
	trace_stats_init(&c->stats);
	c->start_ns = trace_clock_now_ns();
	if (trace_session_start(c->ts, &child, 1, &c->stats) < 0) {
		c->why = xstrdup("cannot start tracing (see the error above)");
		trace_session_close(c->ts);
		c->ts = NULL;
		trace_stats_free(&c->stats);
	}
	return 0;
}

static void trace_hook_stop(void *arg, struct result *r)
{
	struct trace_hook_ctx *c = arg;
	if (!c->ts) {
		result_info_set(r, "trace_skipped", json_pack("{s:s}", "trace", c->why ? c->why : "not started"));
		return;
	}
	uint64_t dropped = 0, end_ns = trace_clock_now_ns();
	int rc = trace_session_stop(c->ts, &dropped);
	trace_stats_finish(&c->stats, end_ns);
	size_t nres;
	const struct trace_resolved *res = trace_session_resolved(c->ts, &nres);
	if (rc == 0)
		trace_stats_to_result(&c->stats, res, nres, c->start_ns, dropped, r);
	else
		result_info_set(r, "trace_skipped", json_pack("{s:s}", "trace", "tracing failed to stop cleanly"));
	trace_session_close(c->ts);
	c->ts = NULL;
	trace_stats_free(&c->stats);
}

/* ---- the profile hook ---- */

struct profile_hook_ctx {
	struct perf_counters *pc;
	struct perf_profile *pp;
	char *why_counters;
	const char *why_profile;
};

static int profile_hook_start(void *arg, pid_t child, struct sandbox *sb)
{
	struct profile_hook_ctx *c = arg;
	free(c->why_counters);
	c->why_counters = NULL;
	if (perf_counters_open(&c->pc, child, &c->why_counters) < 0)
		c->pc = NULL;
	c->why_profile = perf_profile_supported();
	if (!c->why_profile) {
		const char *tmp = getenv("TMPDIR");
		/* perf_cleanup_report looks for what a killed process left here */
		if (perf_profile_start(&c->pp, child, tmp && *tmp ? tmp : "/tmp") < 0) {
			c->pp = NULL;
			c->why_profile = "perf record did not start (see the error above)";
		}
	}
	return 0;
}

static void profile_hook_stop(void *arg, struct result *r)
{
	struct profile_hook_ctx *c = arg;
	json_t *skipped = json_object();
	if (c->pc) {
		perf_counters_result(c->pc, r);
		perf_counters_close(c->pc);
		c->pc = NULL;
	} else {
		json_object_set_new(skipped, "counters", json_string(c->why_counters ? c->why_counters : "not started"));
	}
	if (c->pp) {
		json_t *top = perf_profile_stop(c->pp, PROFILE_TOP_SYMBOLS);
		c->pp = NULL;
		if (top)
			result_info_set(r, "profile_top_kernel_symbols", top);
		else
			json_object_set_new(skipped, "profile", json_string("perf recorded no samples"));
	} else {
		json_object_set_new(skipped, "profile", json_string(c->why_profile ? c->why_profile : "not started"));
	}
	if (json_object_size(skipped))
		result_info_set(r, "profile_skipped", skipped);
	else
		json_decref(skipped);
}

/* ---- the factory ---- */

struct trace_hooks {
	struct runner_hook hooks[2];
	size_t n;
	struct trace_hook_ctx trace;
	struct profile_hook_ctx profile;
};

struct trace_hooks *trace_hooks_new(const struct trace_cfg *cfg)
{
	unsigned kinds = trace_what_kinds(cfg->trace);
	if (!kinds && !cfg->profile)
		return NULL;
	struct trace_hooks *th = xcalloc(1, sizeof(*th));
	if (kinds) {
		th->trace.kinds = kinds;
		th->hooks[th->n++] = (struct runner_hook){ "trace", trace_hook_start, trace_hook_stop, &th->trace };
	}
	if (cfg->profile)
		th->hooks[th->n++] = (struct runner_hook){ "profile", profile_hook_start, profile_hook_stop, &th->profile };
	return th;
}

struct runner_hook *trace_hooks_list(struct trace_hooks *th, size_t *n)
{
	*n = th ? th->n : 0;
	return th ? th->hooks : NULL;
}

void trace_hooks_free(struct trace_hooks *th)
{
	if (!th)
		return;
	if (th->trace.ts) {
		trace_session_stop(th->trace.ts, NULL);
		trace_session_close(th->trace.ts);
		trace_stats_free(&th->trace.stats);
	}
	free(th->trace.why);
	if (th->profile.pp)
		json_decref(perf_profile_stop(th->profile.pp, 0));
	perf_counters_close(th->profile.pc);
	free(th->profile.why_counters);
	free(th);
}
