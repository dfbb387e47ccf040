/* A result as text, for `vmregress test`: the workload's own layout (the
 * seed's) when it has one, else the generic one (metrics, tables,
 * histograms); what tracing and perf found; and the present/swapped maps. */
#include "report/result_text.h"

#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/units.h"
#include "core/util.h"
#include "probe/pagemap.h"
#include "report/workload_text.h"

static void result_text_metric(FILE *f, const struct metric *m)
{
	char buf[64];
	fprintf(f, "  %-32s %s\n", m->name, units_format_value(buf, sizeof(buf), m->value, m->unit));
}

static void result_text_table(FILE *f, const struct table *t)
{
	fprintf(f, "\nTable %s\n ", t->name);
	for (size_t c = 0; c < t->ncols; c++)
		fprintf(f, " %14s", t->cols[c]);
	fputc('\n', f);
	for (size_t r = 0; r < t->nrows; r++) {
		fputc(' ', f);
		for (size_t c = 0; c < t->ncols; c++)
			fprintf(f, " %14.10g", t->cells[r * t->ncols + c]);
		fputc('\n', f);
	}
}

static void result_text_hist(FILE *f, const struct named_hist *nh)
{
	static const double pcts[] = { 50, 90, 99, 99.9 };
	const struct hist *h = nh->h;
	fprintf(f, "\nHistogram %s (%s): count %llu", nh->name, nh->unit, (unsigned long long)h->count);
	if (h->count) {
		char v[48];
		fprintf(f, " min %s", units_format_value(v, sizeof(v), (double)h->min, nh->unit));
		fprintf(f, " mean %s", units_format_value(v, sizeof(v), hist_mean(h), nh->unit));
		for (size_t i = 0; i < ARRAY_SIZE(pcts); i++)
			fprintf(f, " p%g %s", pcts[i], units_format_value(v, sizeof(v), hist_percentile(h, pcts[i]), nh->unit));
		fprintf(f, " max %s", units_format_value(v, sizeof(v), (double)h->max, nh->unit));
	}
	fputc('\n', f);
}

/* The report for workloads without a layout of their own. */
static void result_text_generic(FILE *f, const struct result *r)
{
	fprintf(f, "%s: %s%s%s\n\nMetrics\n", r->workload, outcome_name(r->outcome),
		r->reason ? ": " : "", r->reason ? r->reason : "");
	for (size_t i = 0; i < r->nmetrics; i++)
		result_text_metric(f, &r->metrics[i]);
	for (size_t i = 0; i < r->ntables; i++)
		result_text_table(f, &r->tables[i]);
	for (size_t i = 0; i < r->nhists; i++)
		result_text_hist(f, &r->hists[i]);
}

static void result_text_lines(FILE *f, const char *p, size_t n, size_t per_char)
{
	for (size_t off = 0; off < n; off += 64)
		fprintf(f, "%8zu %.*s\n", off * per_char, (int)(n - off < 64 ? n - off : 64), p + off);
}

/* With --map: one character per page ('#' present, 's' swapped, '.'
 * neither), 64 to a line, each line headed by its first page's index. */
static void result_text_maps(FILE *f, const struct result *r)
{
	for (size_t i = 0; i < r->nmaps; i++) {
		const char *p = r->maps[i].pages;
		size_t n = strlen(p);
		fprintf(f, "\nMap %s (%zu pages: # present, s swapped, . neither)\n", r->maps[i].name, n);
		result_text_lines(f, p, n, 1);
	}
}

/* Unless --no-map: the last map in the seed's encoding, which the seed
 * printed at the bottom of every fault test and plot_map.pl-style tools
 * read. */
static void result_text_seed_map(FILE *f, const struct result *r)
{
	if (!r->nmaps)
		return;
	const struct map *last = &r->maps[r->nmaps - 1];
	size_t n = strlen(last->pages);
	char *enc = xmalloc(n / 4 + 2);
	size_t len = pagemap_encode_map(last->pages, n, enc);
	fprintf(f, "\nMap %s in the seed's encoding (4 pages a character, low bits present)\n", last->name);
	result_text_lines(f, enc, len, 4);
	free(enc);
}

/* "Inside the kernel": what the trace and profile hooks added. */
static void kernel_text_metric(FILE *f, const struct result *r, const char *name)
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

static void kernel_text_hist(FILE *f, const struct result *r, const char *name)
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

static void kernel_text_per_pass(FILE *f, const struct result *r)
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

static void kernel_text_skipped(FILE *f, const struct result *r, const char *key)
{
	const char *name;
	json_t *why;
	json_object_foreach(json_object_get(r->info, key), name, why)
		fprintf(f, "  %-28s skipped: %s\n", name, json_string_value(why));
}

static void result_text_kernel(FILE *f, const struct result *r)
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
	bool traced = json_is_object(json_object_get(r->info, "trace")) || json_object_get(r->info, "trace_skipped");
	bool profiled = json_object_get(r->info, "profile_skipped") || json_object_get(r->info, "perf_unsupported") ||
			result_find_metric(r, "perf-page-faults");
	if (!traced && !profiled)
		return;
	fputs("\nInside the kernel\n", f);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		kernel_text_metric(f, r, names[i]);
	kernel_text_hist(f, r, "direct-reclaim-stall");
	kernel_text_hist(f, r, "memcg-reclaim-stall");
	kernel_text_hist(f, r, "compaction");
	kernel_text_per_pass(f, r);
	kernel_text_skipped(f, r, "trace_skipped");
	kernel_text_skipped(f, r, "perf_unsupported");
	kernel_text_skipped(f, r, "profile_skipped");
	json_t *top = json_object_get(r->info, "profile_top_kernel_symbols"), *e;
	size_t i;
	if (json_array_size(top))
		fputs("\n  top kernel symbols (perf record, cpu-clock)\n", f);
	json_array_foreach(top, i, e)
		fprintf(f, "  %6.2f%%  %s\n", json_real_value(json_object_get(e, "percent")),
			json_string_value(json_object_get(e, "symbol")));
}

void result_text(FILE *f, const struct result *r, bool maps, bool seed_map)
{
	json_t *got = r->info ? json_object_get(r->info, "workload_result") : NULL;
	if (json_is_false(got) || !workload_text(f, r))
		result_text_generic(f, r);
	result_text_kernel(f, r);
	if (maps)
		result_text_maps(f, r);
	if (seed_map)
		result_text_seed_map(f, r);
}
