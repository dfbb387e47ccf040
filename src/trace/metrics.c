/* Folded trace statistics into a result: the table of trace metrics (each
 * with the tracepoint it needs), histograms, per-pass stalls and info. */
#include "trace/metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/util.h"

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
	const struct table *passes = result_find_table(r, "passes");
	long cstart = table_col(passes, "start_ns"), ctime = table_col(passes, "time_ns");
	long cpass = table_col(passes, "pass");
	if (cstart < 0 || ctime < 0)
		return;
	static const char *const cols[] = { "pass", "direct_stalls", "direct_stall_ns", "memcg_stalls", "memcg_stall_ns" };
	struct table *t = result_table(r, "reclaim-stalls-per-pass", ARRAY_SIZE(cols), cols);
	passes = result_find_table(r, "passes");  /* result_table may have moved the tables */
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
		result_info_set(r, "trace_skipped", skipped);
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
