/* The HTML report's per-case graphs: metrics, tables (with the ideal
 * scaling line), histograms, series (the monitor's groups) and maps. */
#include "report/html_int.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "report/html.h"
#include "core/hist.h"
#include "core/path.h"
#include "core/units.h"
#include "core/util.h"
#include "report/compare_fmt.h"
#include "report/plot.h"
#include "stats/compare.h"
#include "stats/summary.h"
#include "workload/workload.h"

/* ---- graphs ---- */

static void html_figure(struct report_ctx *x, const char *script, const char *alt, bool map, const char *caption)
{
	fprintf(x->f, "<figure>%c%zu%c", HTML_SLOT_OPEN, x->scripts.n, HTML_SLOT_CLOSE);
	x->slots = xrealloc(x->slots, (x->scripts.n + 1) * sizeof(*x->slots));
	x->slots[x->scripts.n] = (struct html_slot){ .alt = xstrdup(alt), .map = map };
	strlist_add(&x->scripts, script);
	if (caption) {
		fputs("<figcaption>", x->f);
		html_esc(x->f, caption);
		fputs("</figcaption>", x->f);
	}
	fputs("</figure>\n", x->f);
}

void html_plot(struct report_ctx *x, struct plot *p, const char *caption)
{
	if (!x->o->graphs || !plot_has_data(p))
		return;
	/* Linear axes start at zero so that overlaid runs are not exaggerated. */
	if (!p->logy && !p->yfixed) {
		double lo, hi;
		plot_yrange(p, &lo, &hi);
		if (lo >= 0 && hi > 0) {
			p->yfixed = true;
			p->ymin = 0;
			p->ymax = hi * 1.08;
		}
	}
	char *script = plot_script(p);
	html_figure(x, script, p->title, false, caption);
	free(script);
}

const struct run_case *html_case(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].name, name))
			return &r->cases[i];
	return NULL;
}

/* Whether a metric of a case changed significantly in some run. */
bool html_metric_significant(const struct report_ctx *x, const char *case_name, const char *metric)
{
	for (size_t i = 0; i < x->cmp->nrows; i++) {
		const struct cmp_row *row = &x->cmp->rows[i];
		if (strcmp(row->case_name, case_name) || strcmp(row->metric, metric))
			continue;
		for (size_t r = 1; r < x->cmp->nruns; r++)
			if (row->cells[r].significant)
				return true;
	}
	return false;
}

/* Whether a metric of a case whose name starts with prefix changed
 * significantly in some run. */
static bool html_prefix_significant(const struct report_ctx *x, const char *case_name, const char *prefix)
{
	for (size_t i = 0; i < x->cmp->nrows; i++) {
		const struct cmp_row *row = &x->cmp->rows[i];
		if (!strcmp(row->case_name, case_name) && !strncmp(row->metric, prefix, strlen(prefix)) &&
		    html_metric_significant(x, case_name, row->metric))
			return true;
	}
	return false;
}

/* Metric values per iteration, runs overlaid: the workload's own first
 * metrics (it reports them before the runner adds rusage and counters)
 * and any that changed significantly, at most a dozen. */
void html_metric_plots(struct report_ctx *x, const char *case_name, const struct strlist *metrics)
{
	size_t drawn = 0;
	for (size_t m = 0; m < metrics->n && drawn < 12; m++) {
		if (m >= 4 && !html_metric_significant(x, case_name, metrics->v[m]))
			continue;
		drawn++;
		struct plot p = { 0 };
		const char *unit = "";
		for (size_t r = 0; r < x->n; r++) {
			const struct run_case *c = html_case(x->runs[r], case_name);
			for (size_t i = 0; c && i < c->niter; i++) {
				const struct metric *mt = result_find_metric(&c->iters[i], metrics->v[m]);
				if (mt)
					unit = mt->unit;
			}
		}
		char *title = xasprintf("%s: %s per iteration", case_name, metrics->v[m]);
		plot_init(&p, title, "iteration", metrics->v[m]);
		plot_units(&p, NULL, unit);
		p.width = 400;
		p.height = 260;
		for (size_t r = 0; r < x->n; r++) {
			const struct run_case *c = html_case(x->runs[r], case_name);
			struct plot_line *l = plot_add_line(&p, x->cmp->labels[r], PLOT_LINESPOINTS);
			for (size_t i = 0; c && i < c->niter; i++) {
				const struct metric *mt = result_find_metric(&c->iters[i], metrics->v[m]);
				if (mt && c->iters[i].outcome == OUTCOME_PASS)
					plot_point(l, (double)(i + 1), mt->value);
			}
		}
		double lo, hi;
		plot_yrange(&p, &lo, &hi);
		/* a flat line, or a line of one or two iterations, says nothing
		 * the tables do not */
		if (lo < hi && plot_max_points(&p) >= 3)
			html_plot(x, &p, NULL);
		plot_free(&p);
		free(title);
	}
}

/* Run r's line of a table's column, as the command computed it
 * (case_graphs): x from the first column, y the mean over the
 * iterations that have the table, row by row. */
static void html_table_line(struct report_ctx *x, struct plot_line *l, const char *case_name, const struct table *proto,
			    size_t r, size_t col)
{
	const struct row_line *rl = row_means_line(&x->graphs->means, case_name, proto->name, r, col);
	for (size_t k = 0; rl && k < rl->n; k++)
		plot_point(l, rl->x[k], rl->y[k]);
}

/* A column that counts workers: its plots get the linear ideal. */
static bool html_scaling_col(const char *name)
{
	return !fnmatch("*task*", name, FNM_CASEFOLD) || !fnmatch("*thread*", name, FNM_CASEFOLD) ||
	       !fnmatch("*cpus*", name, FNM_CASEFOLD);
}

/* A column that is a reference for the measurement (pft's "linear"). */
static bool html_ideal_col(const char *name)
{
	return !fnmatch("linear*", name, FNM_CASEFOLD) || !fnmatch("ideal*", name, FNM_CASEFOLD);
}

/* The ideal for the primary column: the table's own reference column when
 * it has one, else perfect scaling from the first row when x counts tasks. */
static void html_table_ideal(struct report_ctx *x, struct plot *p, const char *case_name, const struct table *proto,
			     long ideal, size_t r)
{
	const char *label = x->cmp->labels[r];
	const struct plot_line *l = p->lines[p->nlines - 1];
	bool scaling = html_scaling_col(proto->cols[0]);
	if (ideal < 0 && (!scaling || !l->n || l->x[0] <= 0))
		return;
	char *name = xasprintf("%s linear ideal", label);
	struct plot_line *line = plot_add_line(p, name, PLOT_DASHED);
	if (ideal >= 0)
		html_table_line(x, line, case_name, proto, r, (size_t)ideal);
	else
		for (size_t k = 0; k < l->n; k++)
			plot_point(line, l->x[k], l->y[0] * l->x[k] / l->x[0]);
	free(name);
}

void html_table_plots(struct report_ctx *x, const char *case_name, const struct table *proto)
{
	const char *xcol = proto->cols[0];
	long ideal = -1, primary = -1;
	for (size_t col = 1; col < proto->ncols; col++) {
		if (html_ideal_col(proto->cols[col]) && ideal < 0)
			ideal = (long)col;
		else if (primary < 0)
			primary = (long)col;
	}
	for (size_t col = 1; col < proto->ncols; col++) {
		/* start_ns is a clock reading for attributing trace events, not
		 * a measurement worth a graph. */
		if ((long)col == ideal || !strcmp(proto->cols[col], "start_ns"))
			continue;
		struct plot p = { 0 };
		char *title = xasprintf("%s: %s by %s", case_name, proto->cols[col], xcol);
		/* a table's columns carry their unit in the name when they have
		 * one (time_ns); the others are counts */
		const char *name = proto->cols[col];
		size_t nlen = strlen(name);
		bool ns = nlen > 3 && !strcmp(name + nlen - 3, "_ns");
		char *ylabel = ns ? xasprintf("%.*s", (int)(nlen - 3), name) : xstrdup(name);
		plot_init(&p, title, xcol, ylabel);
		plot_units(&p, NULL, ns ? "ns" : "");
		free(ylabel);
		p.width = 560;
		p.height = 320;
		for (size_t r = 0; r < x->n; r++) {
			struct plot_line *l = plot_add_line(&p, x->cmp->labels[r], PLOT_LINESPOINTS);
			html_table_line(x, l, case_name, proto, r, col);
			if ((long)col == primary)
				html_table_ideal(x, &p, case_name, proto, ideal, r);
		}
		char *caption = xasprintf("table '%s', mean of the passing iterations per row", proto->name);
		if (plot_max_points(&p) >= 2) /* one pass is a point on an empty axis */
			html_plot(x, &p, caption);
		free(caption);
		plot_free(&p);
		free(title);
	}
}

static void html_hist_table(struct report_ctx *x, const char *unit, struct hist *const *hs)
{
	static const double pct[] = { 50, 90, 99, 99.9 };
	fprintf(x->f, "<table><tr><th>run</th><th>count</th><th>mean</th>");
	for (size_t k = 0; k < ARRAY_SIZE(pct); k++)
		fprintf(x->f, "<th>p%g</th>", pct[k]);
	fputs("<th>max</th><th>unit</th></tr>\n", x->f);
	for (size_t r = 0; r < x->n; r++) {
		if (!hs[r] || !hs[r]->count)
			continue;
		fputs("<tr>", x->f);
		html_td(x->f, x->cmp->labels[r]);
		char v[48];
		fprintf(x->f, "<td class=\"num\">%s</td>", units_format_value(v, sizeof(v), (double)hs[r]->count, ""));
		fprintf(x->f, "<td class=\"num\">%s</td>", units_format_value(v, sizeof(v), hist_mean(hs[r]), unit));
		for (size_t k = 0; k < ARRAY_SIZE(pct); k++)
			fprintf(x->f, "<td class=\"num\">%s</td>",
				units_format_value(v, sizeof(v), hist_percentile(hs[r], pct[k]), unit));
		fprintf(x->f, "<td class=\"num\">%s</td>", units_format_value(v, sizeof(v), (double)hs[r]->max, unit));
		html_td(x->f, unit);
		fputs("</tr>\n", x->f);
	}
	fputs("</table>\n", x->f);
}

void html_hist_plot(struct report_ctx *x, const char *case_name, const char *name)
{
	/* every run's passing iterations merged (case_graphs) */
	const struct case_hist *ch = case_graphs_hist(x->graphs, name);
	if (!ch)
		return;
	struct hist *const *hs = ch->runs;
	const char *unit = ch->unit;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t r = 0; r < x->n; r++) {
		if (hs[r] && hs[r]->count) {
			lo = hs[r]->min < lo ? hs[r]->min : lo;
			hi = hs[r]->max > hi ? hs[r]->max : hi;
		}
	}
	struct plot p = { 0 };
	char *title = xasprintf("%s: %s distribution (CDF)", case_name, name);
	plot_init(&p, title, name, "fraction of samples at or below");
	plot_units(&p, unit, NULL);
	p.logx = hi > 100 * (lo ? lo : 1);
	p.yfixed = true;
	p.ymin = 0;
	p.ymax = 1.02;
	for (size_t r = 0; r < x->n; r++) {
		struct plot_line *l = plot_add_line(&p, x->cmp->labels[r], PLOT_STEPS);
		if (!hs[r] || !hs[r]->count)
			continue;
		uint64_t cum = 0;
		for (unsigned i = 0; i < HIST_BUCKETS; i++) {
			if (!hs[r]->b[i])
				continue;
			if (!cum)
				plot_point(l, (double)(hist_bucket_low(i) ? hist_bucket_low(i) : 1), 0);
			cum += hs[r]->b[i];
			plot_point(l, (double)(hist_bucket_low(i) + hist_bucket_width(i)), (double)cum / (double)hs[r]->count);
		}
	}
	/* The harness's own latency probe is drawn when its figures moved;
	 * otherwise its percentiles below say all there is. */
	if (strncmp(name, "probe-", 6) || html_prefix_significant(x, case_name, "probe-"))
		html_plot(x, &p, "all passing iterations merged per run");
	fputs("</div>\n", x->f);
	html_hist_table(x, unit, hs);
	fputs("<div class=\"graphs\">\n", x->f);
	plot_free(&p);
	free(title);
}

static void html_series_plot(struct report_ctx *x, const char *case_name, const char *name)
{
	struct plot p = { 0 };
	const char *unit = "";
	for (size_t r = 0; r < x->n; r++) {
		const struct series *s = case_graphs_series(x->graphs, r, name);
		if (s)
			unit = s->unit;
	}
	bool trace = !fnmatch("*access*", name, 0);
	char *title = xasprintf("%s: %s over %s", case_name, name, trace ? "the trace" : "time");
	plot_init(&p, title, trace ? "reference" : "seconds", name);
	plot_units(&p, NULL, unit);
	p.width = 560;
	p.height = 320;
	size_t drawn = 0;
	for (size_t r = 0; r < x->n; r++) {
		const struct series *s = case_graphs_series(x->graphs, r, name);
		if (!s || s->n < 3) /* two samples drawn as a line invent a trend */
			continue;
		struct plot_line *l = plot_add_line(&p, x->cmp->labels[r], s->n <= 25 ? PLOT_LINESPOINTS : PLOT_LINES);
		for (size_t k = 0; k < s->n; k++)
			plot_point(l, s->t[k], s->v[k]);
		drawn++;
	}
	double lo = 0, hi = 0;
	plot_yrange(&p, &lo, &hi);
	if (drawn && (lo != 0 || hi != 0)) /* no line, or flat at zero: nothing to see */
		html_plot(x, &p, "first iteration that recorded it, per run");
	plot_free(&p);
	free(title);
}

/* The monitor records dozens of series per case; these are the ones worth
 * a graph, each group on one plot with the runs overlaid. */
static const struct html_series_group {
	const char *title, *label, *unit;  /* unit: the series' stored unit, for the axis's step */
	const char *names[3];
} html_monitor_groups[] = {
	/* the sandbox's memory, not the host's: a 64M sandbox on a 24G host
	 * is a flat line at the top of a host-wide graph */
	{ "sandbox memory", "bytes", "bytes", { "memcg.usage_bytes", "memcg.limit_bytes", "memcg.swap_bytes" } },
	{ "swap in and out", "pages per interval", "", { "vmstat.pswpin", "vmstat.pswpout" } },
	{ "memory pressure (PSI)", "% of the interval stalled", NULL, { "pressure.some", "pressure.full" } },
	{ "reclaim scanning", "pages per interval", "", { "vmstat.pgscan_kswapd", "vmstat.pgscan_direct" } },
};

static bool html_monitor_series(const char *name)
{
	return !strncmp(name, "vmstat.", 7) || !strncmp(name, "meminfo.", 8) || !strncmp(name, "pressure.", 9) ||
	       !strncmp(name, "memcg.", 6);
}

static void html_series_group(struct report_ctx *x, const char *case_name, const struct html_series_group *g)
{
	struct plot p = { 0 };
	char *title = xasprintf("%s: %s", case_name, g->title);
	plot_init(&p, title, "seconds", g->label);
	plot_units(&p, NULL, g->unit);
	p.width = 560;
	p.height = 320;
	for (size_t r = 0; r < x->n; r++)
		for (size_t k = 0; k < ARRAY_SIZE(g->names) && g->names[k]; k++) {
			const struct series *s = case_graphs_series(x->graphs, r, g->names[k]);
			if (!s || s->n < 3)
				continue;
			if (strstr(g->names[k], "limit") && s->v[0] > 1e15) /* no limit: a line at 8 EiB */
				continue;
			char *label = xasprintf("%s %s", x->cmp->labels[r], strchr(g->names[k], '.') + 1);
			struct plot_line *l = plot_add_line(&p, label, s->n <= 25 ? PLOT_LINESPOINTS : PLOT_LINES);
			for (size_t i = 0; i < s->n; i++)
				plot_point(l, s->t[i], s->v[i]);
			free(label);
		}
	double lo, hi;
	plot_yrange(&p, &lo, &hi);
	if (lo != 0 || hi != 0) /* nothing swapped or scanned: the tables say so */
		html_plot(x, &p, "monitor, first iteration per run");
	plot_free(&p);
	free(title);
}

void html_series_plots(struct report_ctx *x, const char *case_name, const struct strlist *series)
{
	size_t monitor = 0;
	for (size_t i = 0; i < series->n; i++) {
		if (html_monitor_series(series->v[i]))
			monitor++;
		else
			html_series_plot(x, case_name, series->v[i]);
	}
	if (!monitor)
		return;
	for (size_t g = 0; g < ARRAY_SIZE(html_monitor_groups); g++)
		html_series_group(x, case_name, &html_monitor_groups[g]);
}

void html_map_plots(struct report_ctx *x, const char *case_name)
{
	if (!x->o->graphs)
		return;
	for (size_t r = 0; r < x->n; r++) {
		/* the run's first iteration with maps (case_graphs) */
		const struct case_maps *maps = &x->graphs->maps[r];
		for (size_t m = 0; m < maps->n; m++) {
			char *title = xasprintf("%s %s: %s", x->cmp->labels[r], case_name, maps->v[m].name);
			char *script = plot_map_script(maps->v[m].pages, strlen(maps->v[m].pages), title, 360, 300,
						       PLOT_PNG);
			html_figure(x, script, title, true, NULL);
			free(script);
			free(title);
		}
	}
}
