/* --trace and --profile as runner hooks; trace statistics into results. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "harness/trace_hook.h"
#include "core/util.h"
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

/* ---- statistics into a result ---- */

enum tm_id {
	TM_DIRECT_STALLS, TM_DIRECT_TIME, TM_DIRECT_MAX, TM_MEMCG_STALLS, TM_MEMCG_TIME, TM_MEMCG_MAX,
	TM_KSWAPD_WAKES, TM_KSWAPD_ACTIVE, TM_SCANNED, TM_RECLAIMED, TM_SCANNED_PER_STALL,
	TM_RECLAIMED_PER_STALL, TM_EFFICIENCY, TM_WRITEBACK, TM_FILEMAP_ADDS,
	TM_FILEMAP_DELETES, TM_FILEMAP_FAULTS, TM_COMPACTION_RUNS, TM_COMPACTION_TIME,
	TM_COMPACTION_SUCCESS, TM_DIRECT_COMPACTION, TM_KCOMPACTD_WAKES,
};

struct trace_metric {
	enum tm_id id;
	const char *name, *unit;
	enum better better;
	const char *roles[2];    /* tracepoint roles it needs (trace.c's table) */
};

static const struct trace_metric trace_metrics[] = {
	{ TM_DIRECT_STALLS, "direct-reclaim-stalls", "stalls", BETTER_LOWER, { "direct-reclaim-begin", "direct-reclaim-end" } },
	{ TM_DIRECT_TIME, "direct-reclaim-stall-time", "ns", BETTER_LOWER, { "direct-reclaim-begin", "direct-reclaim-end" } },
	{ TM_DIRECT_MAX, "direct-reclaim-stall-max", "ns", BETTER_LOWER, { "direct-reclaim-begin", "direct-reclaim-end" } },
	{ TM_MEMCG_STALLS, "memcg-reclaim-stalls", "stalls", BETTER_LOWER, { "memcg-reclaim-begin", "memcg-reclaim-end" } },
	{ TM_MEMCG_TIME, "memcg-reclaim-stall-time", "ns", BETTER_LOWER, { "memcg-reclaim-begin", "memcg-reclaim-end" } },
	{ TM_MEMCG_MAX, "memcg-reclaim-stall-max", "ns", BETTER_LOWER, { "memcg-reclaim-begin", "memcg-reclaim-end" } },
	{ TM_KSWAPD_WAKES, "kswapd-wakes", "wakes", BETTER_LOWER, { "kswapd-wake" } },
	{ TM_KSWAPD_ACTIVE, "kswapd-active-time", "ns", BETTER_LOWER, { "kswapd-wake", "kswapd-sleep" } },
	{ TM_SCANNED, "reclaim-scanned-pages", "pages", BETTER_NONE, { "lru-shrink-inactive" } },
	{ TM_RECLAIMED, "reclaim-reclaimed-pages", "pages", BETTER_NONE, { "lru-shrink-inactive" } },
	{ TM_SCANNED_PER_STALL, "reclaim-scanned-per-stall", "pages", BETTER_NONE, { "lru-shrink-inactive", "memcg-reclaim-end" } },
	{ TM_RECLAIMED_PER_STALL, "reclaim-reclaimed-per-stall", "pages", BETTER_HIGHER, { "memcg-reclaim-end", "direct-reclaim-end" } },
	{ TM_EFFICIENCY, "reclaim-efficiency", "%", BETTER_HIGHER, { "lru-shrink-inactive" } },
	{ TM_WRITEBACK, "reclaim-writeback-pages", "pages", BETTER_LOWER, { "writeback" } },
	{ TM_FILEMAP_ADDS, "filemap-added-pages", "pages", BETTER_LOWER, { "filemap-add" } },
	{ TM_FILEMAP_DELETES, "filemap-deleted-pages", "pages", BETTER_LOWER, { "filemap-delete" } },
	{ TM_FILEMAP_FAULTS, "filemap-faults", "faults", BETTER_LOWER, { "filemap-fault" } },
	{ TM_COMPACTION_RUNS, "compaction-runs", "runs", BETTER_LOWER, { "compaction-begin", "compaction-end" } },
	{ TM_COMPACTION_TIME, "compaction-time", "ns", BETTER_LOWER, { "compaction-begin", "compaction-end" } },
	{ TM_COMPACTION_SUCCESS, "compaction-successes", "runs", BETTER_NONE, { "compaction-end" } },
	{ TM_DIRECT_COMPACTION, "direct-compaction-stalls", "stalls", BETTER_LOWER, { "direct-compaction" } },
	{ TM_KCOMPACTD_WAKES, "kcompactd-wakes", "wakes", BETTER_LOWER, { "kcompactd-wake" } },
};

static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

static double trace_metric_value(enum tm_id id, const struct trace_stats *s)
{
	const struct trace_pair_stats *d = &s->pair[TRACE_PAIR_DIRECT], *m = &s->pair[TRACE_PAIR_MEMCG],
				      *c = &s->pair[TRACE_PAIR_COMPACTION];
	switch (id) {
	case TM_DIRECT_STALLS: return (double)d->count;
	case TM_DIRECT_TIME: return (double)d->time_ns;
	case TM_DIRECT_MAX: return d->count ? (double)d->hist->max : 0;
	case TM_MEMCG_STALLS: return (double)m->count;
	case TM_MEMCG_TIME: return (double)m->time_ns;
	case TM_MEMCG_MAX: return m->count ? (double)m->hist->max : 0;
	case TM_KSWAPD_WAKES: return (double)s->kswapd_wakes;
	case TM_KSWAPD_ACTIVE: return (double)s->kswapd_active_ns;
	case TM_SCANNED: return (double)s->scanned_pages;
	case TM_RECLAIMED: return (double)s->reclaimed_pages;
	case TM_SCANNED_PER_STALL: return ratio((double)(d->scanned_pages + m->scanned_pages), (double)(d->count + m->count));
	case TM_RECLAIMED_PER_STALL: return ratio((double)(d->reclaimed_pages + m->reclaimed_pages), (double)(d->count + m->count));
	case TM_EFFICIENCY: return 100 * ratio((double)s->reclaimed_pages, (double)s->scanned_pages);
	case TM_WRITEBACK: return (double)s->writeback_pages;
	case TM_FILEMAP_ADDS: return (double)s->filemap_adds;
	case TM_FILEMAP_DELETES: return (double)s->filemap_deletes;
	case TM_FILEMAP_FAULTS: return (double)s->filemap_faults;
	case TM_COMPACTION_RUNS: return (double)c->count;
	case TM_COMPACTION_TIME: return (double)c->time_ns;
	case TM_COMPACTION_SUCCESS: return (double)s->compaction_success;
	case TM_DIRECT_COMPACTION: return (double)s->compaction_tries;
	case TM_KCOMPACTD_WAKES: return (double)s->kcompactd_wakes;
	}
	return 0;
}

/* The resolution of a role: NULL when the role was not asked for. */
static const struct trace_resolved *find_role(const struct trace_resolved *res, size_t nres, const char *role)
{
	for (size_t i = 0; i < nres; i++)
		if (!strcmp(res[i].role, role))
			return &res[i];
	return NULL;
}

/* NULL when every role the metric needs was asked for and found; "" when
 * one was not asked for; else the reason one is missing. */
static const char *metric_missing(const struct trace_metric *tm, const struct trace_resolved *res, size_t nres)
{
	for (size_t i = 0; i < ARRAY_SIZE(tm->roles) && tm->roles[i]; i++) {
		const struct trace_resolved *r = find_role(res, nres, tm->roles[i]);
		if (!r)
			return "";
		if (!r->event)
			return r->reason;
	}
	return NULL;
}

static void add_hist(struct result *r, const char *name, const struct hist *h)
{
	if (!h->count)
		return;
	struct hist *copy = hist_new();
	hist_merge(copy, h);
	result_hist(r, name, "ns", copy);
}

static void add_timeline(struct result *r, const char *name, const struct trace_stalls *t, uint64_t start_ns)
{
	if (!t->n)
		return;
	struct series *se = result_series(r, name, "ns");
	for (size_t i = 0; i < t->n; i++) {
		double at = t->v[i].start_ns > start_ns ? (double)(t->v[i].start_ns - start_ns) / 1e9 : 0;
		series_add(se, at, (double)t->v[i].dur_ns);
	}
}

static int table_col(const struct table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return (int)i;
	return -1;
}

static void stalls_in(const struct trace_stalls *t, uint64_t from, uint64_t to, double *n, double *ns)
{
	*n = *ns = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].start_ns >= from && t->v[i].start_ns < to) {
			*n += 1;
			*ns += (double)t->v[i].dur_ns;
		}
}

/* Split stalls by the workload's passes when its "passes" table says when
 * each pass started (start_ns, CLOCK_MONOTONIC: the trace clock) and how
 * long it took (time_ns). */
static void add_per_pass(const struct trace_stats *s, struct result *r)
{
	const struct table *passes = NULL;
	for (size_t i = 0; i < r->ntables; i++)
		if (!strcmp(r->tables[i].name, "passes"))
			passes = &r->tables[i];
	int cstart = passes ? table_col(passes, "start_ns") : -1, ctime = passes ? table_col(passes, "time_ns") : -1;
	int cpass = passes ? table_col(passes, "pass") : -1;
	if (cstart < 0 || ctime < 0)
		return;
	static const char *const cols[] = { "pass", "direct_stalls", "direct_stall_ns", "memcg_stalls", "memcg_stall_ns" };
	struct table *t = result_table(r, "reclaim-stalls-per-pass", ARRAY_SIZE(cols), cols);
	passes = NULL; /* result_table may have moved the tables */
	for (size_t i = 0; i < r->ntables; i++)
		if (!strcmp(r->tables[i].name, "passes"))
			passes = &r->tables[i];
	for (size_t row = 0; passes && row < passes->nrows; row++) {
		const double *c = passes->cells + row * passes->ncols;
		uint64_t from = (uint64_t)c[cstart], to = from + (uint64_t)c[ctime];
		double out[5] = { cpass >= 0 ? c[cpass] : (double)row };
		stalls_in(&s->pair[TRACE_PAIR_DIRECT].timeline, from, to, &out[1], &out[2]);
		stalls_in(&s->pair[TRACE_PAIR_MEMCG].timeline, from, to, &out[3], &out[4]);
		table_add_row(t, out);
	}
}

static void add_info(const struct trace_stats *s, const struct trace_resolved *res, size_t nres,
		     uint64_t dropped, json_t *skipped, struct result *r)
{
	json_t *used = json_array();
	for (size_t i = 0; i < nres; i++)
		if (res[i].event)
			json_array_append_new(used, json_string(res[i].event));
	uint64_t unmatched = 0;
	for (int i = 0; i < TRACE_NPAIRS; i++)
		unmatched += s->pair[i].unmatched;
	result_info_set(r, "trace", json_pack("{s:I,s:I,s:I,s:I,s:o}", "events", (json_int_t)s->events,
					      "dropped", (json_int_t)dropped, "unparsed-lines",
					      (json_int_t)s->bad_lines, "unmatched", (json_int_t)unmatched,
					      "tracepoints", used));
	if (json_object_size(skipped))
		result_info_set(r, "trace-skipped", skipped);
	else
		json_decref(skipped);
}

void trace_stats_to_result(const struct trace_stats *s, const struct trace_resolved *res, size_t nres,
			   uint64_t case_start_ns, uint64_t dropped, struct result *r)
{
	json_t *skipped = json_object();
	for (size_t i = 0; i < ARRAY_SIZE(trace_metrics); i++) {
		const struct trace_metric *tm = &trace_metrics[i];
		const char *why = metric_missing(tm, res, nres);
		if (why && *why)
			json_object_set_new(skipped, tm->name, json_string(why));
		if (!why)
			result_metric(r, tm->name, tm->unit, tm->better, COMBINE_AMEAN, trace_metric_value(tm->id, s));
	}
	result_metric(r, "trace-dropped-events", "events", BETTER_LOWER, COMBINE_AMEAN, (double)dropped);
	static const char *const hist_names[TRACE_NPAIRS] = { "direct-reclaim-stall", "memcg-reclaim-stall", "compaction" };
	for (int i = 0; i < TRACE_NPAIRS; i++)
		add_hist(r, hist_names[i], s->pair[i].hist);
	add_timeline(r, "direct-reclaim-stalls", &s->pair[TRACE_PAIR_DIRECT].timeline, case_start_ns);
	add_timeline(r, "memcg-reclaim-stalls", &s->pair[TRACE_PAIR_MEMCG].timeline, case_start_ns);
	add_per_pass(s, r);
	add_info(s, res, nres, dropped, skipped, r);
}

/* ---- the text report ---- */

static void report_metric(FILE *f, const struct result *r, const char *name)
{
	const struct metric *m = result_find_metric(r, name);
	char buf[64];
	if (!m)
		return;
	if (!strcmp(m->unit, "ns"))
		units_format_time(buf, sizeof(buf), (uint64_t)m->value);
	else
		snprintf(buf, sizeof(buf), "%.6g %s", m->value, m->unit);
	fprintf(f, "  %-28s %s\n", name, buf);
}

static void report_hist(FILE *f, const struct result *r, const char *name)
{
	const struct named_hist *nh = result_find_hist(r, name);
	char p50[32], p99[32], max[32];
	if (!nh || !nh->h->count)
		return;
	units_format_time(p50, sizeof(p50), (uint64_t)hist_percentile(nh->h, 50));
	units_format_time(p99, sizeof(p99), (uint64_t)hist_percentile(nh->h, 99));
	units_format_time(max, sizeof(max), nh->h->max);
	fprintf(f, "  %-28s p50 %s  p99 %s  max %s\n", name, p50, p99, max);
}

static void report_per_pass(FILE *f, const struct result *r)
{
	for (size_t i = 0; i < r->ntables; i++) {
		const struct table *t = &r->tables[i];
		if (strcmp(t->name, "reclaim-stalls-per-pass"))
			continue;
		fprintf(f, "\n  %6s %14s %14s %14s %14s\n", "pass", "direct stalls", "direct time", "memcg stalls",
			"memcg time");
		for (size_t row = 0; row < t->nrows; row++) {
			const double *c = t->cells + row * t->ncols;
			char d[32], m[32];
			units_format_time(d, sizeof(d), (uint64_t)c[2]);
			units_format_time(m, sizeof(m), (uint64_t)c[4]);
			fprintf(f, "  %6.0f %14.0f %14s %14.0f %14s\n", c[0], c[1], d, c[3], m);
		}
	}
}

static void report_skipped(FILE *f, const struct result *r, const char *key)
{
	const char *name;
	json_t *why;
	json_object_foreach(json_object_get(r->info, key), name, why)
		fprintf(f, "  %-28s skipped: %s\n", name, json_string_value(why));
}

void trace_hooks_report(FILE *f, const struct result *r)
{
	static const char *const names[] = {
		"direct-reclaim-stalls", "direct-reclaim-stall-time", "memcg-reclaim-stalls",
		"memcg-reclaim-stall-time", "kswapd-wakes", "kswapd-active-time", "reclaim-scanned-pages",
		"reclaim-reclaimed-pages", "reclaim-scanned-per-stall", "reclaim-reclaimed-per-stall",
		"reclaim-efficiency", "reclaim-writeback-pages", "filemap-added-pages",
		"filemap-deleted-pages", "filemap-faults", "compaction-runs", "compaction-time",
		"compaction-successes", "direct-compaction-stalls", "kcompactd-wakes", "trace-dropped-events",
		"perf-page-faults", "perf-minor-faults", "perf-major-faults", "perf-context-switches",
		"perf-cpu-migrations", "perf-task-clock", "perf-dtlb-read-misses",
	};
	bool traced = json_is_object(json_object_get(r->info, "trace")) || json_object_get(r->info, "trace-skipped");
	bool profiled = json_object_get(r->info, "profile-skipped") || json_object_get(r->info, "perf-unsupported") ||
			result_find_metric(r, "perf-page-faults");
	if (!traced && !profiled)
		return;
	fputs("\nInside the kernel\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		report_metric(f, r, names[i]);
	report_hist(f, r, "direct-reclaim-stall");
	report_hist(f, r, "memcg-reclaim-stall");
	report_hist(f, r, "compaction");
	report_per_pass(f, r);
	report_skipped(f, r, "trace-skipped");
	report_skipped(f, r, "perf-unsupported");
	report_skipped(f, r, "profile-skipped");
	json_t *top = json_object_get(r->info, "profile-top-kernel-symbols"), *e;
	size_t i;
	if (json_array_size(top))
		fputs("\n  top kernel symbols (perf record, cpu-clock)\n", f);
	json_array_foreach(top, i, e)
		fprintf(f, "  %6.2f%%  %s\n", json_real_value(json_object_get(e, "percent")),
			json_string_value(json_object_get(e, "symbol")));
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
		result_info_set(r, "trace-skipped", json_pack("{s:s}", "trace", c->why ? c->why : "not started"));
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
		result_info_set(r, "trace-skipped", json_pack("{s:s}", "trace", "tracing failed to stop cleanly"));
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
			result_info_set(r, "profile-top-kernel-symbols", top);
		else
			json_object_set_new(skipped, "profile", json_string("perf recorded no samples"));
	} else {
		json_object_set_new(skipped, "profile", json_string(c->why_profile ? c->why_profile : "not started"));
	}
	if (json_object_size(skipped))
		result_info_set(r, "profile-skipped", skipped);
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
