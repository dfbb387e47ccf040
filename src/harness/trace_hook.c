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

/* ---- what the hooks have to tell ----
 *
 * The hooks never print (harness/runner.h); what the user must hear of at
 * once although the case ran, they keep here for the command. */

struct trace_note {
	bool warning;
	char *text;
};

struct trace_notes {
	struct trace_note *v;
	size_t n;
};

/* Keep text (malloc'd, taken) to be said as an error or a warning. */
static void trace_note(struct trace_notes *notes, bool warning, char *text)
{
	notes->v = xrealloc(notes->v, (notes->n + 1) * sizeof(*notes->v));
	notes->v[notes->n++] = (struct trace_note){ .warning = warning, .text = text };
}

/* ---- the trace hook ---- */

struct trace_hook_ctx {
	unsigned kinds;
	struct trace_session *ts;
	struct trace_stats stats;
	uint64_t start_ns;
	char *why;            /* why tracing did not run for this case */
	struct trace_notes *notes;
};

/* Close the session; what it could not put back is the user's to hear of
 * (an instance left for `vmregress cleanup`), not a fault of the trace. */
static void trace_hook_close(struct trace_hook_ctx *c)
{
	char *left = NULL;
	if (trace_session_close(c->ts, &left) < 0)
		trace_note(c->notes, true, left);
	c->ts = NULL;
}

static int trace_hook_start(void *arg, pid_t child, struct sandbox *sb)
{
	struct trace_hook_ctx *c = arg;
	free(c->why);
	c->why = NULL;
	int rc = trace_session_open(&c->ts, c->kinds, &c->why);
	if (rc < 0) {
		if (!c->why)
			c->why = xstrdup("cannot set up tracing");
		if (rc == -1) {  /* not "cannot run here": something failed */
			trace_note(c->notes, false, xstrdup(c->why));
			trace_hook_close(c);
		}
		return 0;
	}
	trace_stats_init(&c->stats);
	c->start_ns = trace_clock_now_ns();
	if (trace_session_start(c->ts, &child, 1, &c->stats, &c->why) < 0) {
		if (!c->why)
			c->why = xstrdup("cannot start tracing");
		trace_note(c->notes, false, xstrdup(c->why));
		trace_hook_close(c);
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
	int rc = trace_session_stop(c->ts, &dropped, &c->why);
	trace_stats_finish(&c->stats, end_ns);
	size_t nres;
	const struct trace_resolved *res = trace_session_resolved(c->ts, &nres);
	if (rc == 0) {
		trace_stats_to_result(&c->stats, res, nres, c->start_ns, dropped, r);
	} else {
		if (!c->why)
			c->why = xstrdup("tracing failed to stop cleanly");
		result_info_set(r, "trace_skipped", json_pack("{s:s}", "trace", c->why));
		trace_note(c->notes, false, xstrdup(c->why));
	}
	trace_hook_close(c);
	trace_stats_free(&c->stats);
}

/* ---- the profile hook ---- */

struct profile_hook_ctx {
	struct perf_counters *pc;
	struct perf_profile *pp;
	char *why_counters;
	char *why_profile;
	struct trace_notes *notes;
};

static int profile_hook_start(void *arg, pid_t child, struct sandbox *sb)
{
	struct profile_hook_ctx *c = arg;
	free(c->why_counters);
	free(c->why_profile);
	c->why_counters = c->why_profile = NULL;
	if (perf_counters_open(&c->pc, child, &c->why_counters) < 0)
		c->pc = NULL;
	const char *unsupported = perf_profile_supported();
	if (unsupported) {
		c->why_profile = xstrdup(unsupported);
	} else {
		const char *tmp = getenv("TMPDIR");
		/* perf_cleanup_report looks for what a killed process left here */
		if (perf_profile_start(&c->pp, child, tmp && *tmp ? tmp : "/tmp", &c->why_profile) < 0) {
			c->pp = NULL;
			if (!c->why_profile)
				c->why_profile = xstrdup("perf record did not start");
			trace_note(c->notes, false, xasprintf("profile: %s", c->why_profile));
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
		/* no samples is the result's to say, not a failure to shout about:
		 * a short case may give perf nothing to see */
		json_t *top = perf_profile_stop(c->pp, PROFILE_TOP_SYMBOLS, &c->why_profile);
		c->pp = NULL;
		if (top)
			result_info_set(r, "profile_top_kernel_symbols", top);
		else
			json_object_set_new(skipped, "profile",
					    json_string(c->why_profile ? c->why_profile : "perf recorded no samples"));
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
	struct trace_notes notes;
};

struct trace_hooks *trace_hooks_new(const struct trace_cfg *cfg)
{
	unsigned kinds = trace_what_kinds(cfg->trace);
	if (!kinds && !cfg->profile)
		return NULL;
	struct trace_hooks *th = xcalloc(1, sizeof(*th));
	th->trace.notes = th->profile.notes = &th->notes;
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

void trace_hooks_say(struct trace_hooks *th)
{
	for (size_t i = 0; th && i < th->notes.n; i++) {
		if (th->notes.v[i].warning)
			vmr_warn("%s", th->notes.v[i].text);
		else
			vmr_err("%s", th->notes.v[i].text);
		free(th->notes.v[i].text);
	}
	if (th)
		th->notes.n = 0;
}

void trace_hooks_free(struct trace_hooks *th)
{
	if (!th)
		return;
	if (th->trace.ts) {
		trace_session_stop(th->trace.ts, NULL, NULL);
		trace_hook_close(&th->trace);
		trace_stats_free(&th->trace.stats);
	}
	free(th->trace.why);
	if (th->profile.pp)
		json_decref(perf_profile_stop(th->profile.pp, 0, NULL));
	perf_counters_close(th->profile.pc);
	free(th->profile.why_counters);
	free(th->profile.why_profile);
	for (size_t i = 0; i < th->notes.n; i++)  /* the commands say them after each case: none */
		free(th->notes.v[i].text);
	free(th->notes.v);
	free(th);
}
