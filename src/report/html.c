#include "report/html.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/base64.h"
#include "core/hist.h"
#include "core/path.h"
#include "core/units.h"
#include "core/util.h"
#include "report/compare_fmt.h"
#include "report/plot.h"
#include "report/svg_slim.h"
#include "stats/compare.h"
#include "stats/envdiff.h"
#include "stats/summary.h"
#include "report/html_int.h"

static const char report_css[] =
	"body{font-family:sans-serif;margin:1.5em auto;max-width:1250px;color:#222;background:#fff}"
	"h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"
	"td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}"
	"th{background:#f3f3f3}td.num{text-align:right;font-family:monospace;white-space:nowrap}"
	"tr.first td{border-top:2px solid #999}"
	".improved{background:#dff5df}.regressed{background:#fbdede}.changed{background:#fff3c4}"
	".too-few{color:#888}.diff td{background:#fff8e0}"
	".graphs{display:flex;flex-wrap:wrap;gap:12px}"
	"figure{margin:0;border:1px solid #eee;padding:4px}figcaption{font-size:.8em;color:#555}"
	"figure svg,figure img{display:block;max-width:100%;height:auto}"
	"svg image,img.map{image-rendering:pixelated}"
	".note{color:#555;font-size:.9em}.error{color:#b00}"
	"code{background:#f5f5f5;padding:0 .2em}"
	".verdict{border:1px solid #ccc;background:#fafafa;padding:.2em 1em;margin:.5em 0}"
	".verdict ul{margin:.2em 0;font-size:.9em}"
	".fn-pass{background:#eef8ee}.fn-fail{background:#fbdede}.fn-flaky{background:#fff3c4}"
	".fn-skip,.fn-absent{color:#888}tr.fn-regression td:first-child{border-left:4px solid #b00}"
	"#headline .graphs{gap:6px}#headline figure{padding:2px}";

/* Names of the metrics that any run's iterations of a case hold, in order
 * of first appearance. */
static void html_metric_names(struct report_ctx *x, const char *case_name, struct strlist *out)
{
	for (size_t r = 0; r < x->n; r++) {
		const struct run_case *c = html_case(x->runs[r], case_name);
		for (size_t i = 0; c && i < c->niter; i++) {
			const struct result *res = &c->iters[i];
			for (size_t k = 0; k < res->nmetrics; k++) {
				size_t j = 0;
				while (j < out->n && strcmp(out->v[j], res->metrics[k].name))
					j++;
				if (j == out->n)
					strlist_add(out, res->metrics[k].name);
			}
		}
	}
}

static void html_outcomes(struct report_ctx *x, const char *case_name)
{
	fputs("<table><tr><th>run</th><th>workload</th><th>iterations</th><th>outcomes</th><th>options</th></tr>\n",
	      x->f);
	for (size_t r = 0; r < x->n; r++) {
		const struct run_case *c = html_case(x->runs[r], case_name);
		if (!c)
			continue;
		size_t counts[5] = { 0 };
		const char *reason = NULL;
		for (size_t i = 0; i < c->niter; i++) {
			counts[c->iters[i].outcome < 5 ? c->iters[i].outcome : OUTCOME_ERROR]++;
			if (!reason && c->iters[i].reason)
				reason = c->iters[i].reason;
		}
		fputs("<tr>", x->f);
		html_td(x->f, x->cmp->labels[r]);
		html_td(x->f, c->workload);
		fprintf(x->f, "<td class=\"num\">%zu</td><td>", c->niter);
		for (int o = 0; o < 5; o++)
			if (counts[o])
				fprintf(x->f, "%s %zu ", outcome_name((enum outcome)o), counts[o]);
		if (reason) {
			fputs("(", x->f);
			html_esc(x->f, reason);
			fputs(")", x->f);
		}
		fputs("</td>", x->f);
		char *opts = c->options ? json_dumps(c->options, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
		fputs("<td><code>", x->f);
		html_esc(x->f, opts ? opts : "");
		fputs("</code></td></tr>\n", x->f);
		free(opts);
	}
	fputs("</table>\n", x->f);
}

static void html_case_section(struct report_ctx *x, const char *case_name, size_t idx)
{
	fprintf(x->f, "<h2 id=\"case-%zu\">Case ", idx);
	html_esc(x->f, case_name);
	fputs("</h2>\n", x->f);
	html_outcomes(x, case_name);
	/* the tables, histograms and series in order of first appearance,
	 * as the command found them (case_graphs) */
	const struct case_graphs *g = x->graphs;
	struct strlist metrics = { 0 }, series = { 0 };
	html_metric_names(x, case_name, &metrics);
	for (size_t i = 0; i < g->nseries; i++)
		strlist_add(&series, g->series[i].name);
	fputs("<div class=\"graphs\">\n", x->f);
	for (size_t i = 0; i < g->means.n; i++)
		html_table_plots(x, case_name, &g->means.v[i].proto);
	for (size_t i = 0; i < g->nhists; i++)
		html_hist_plot(x, case_name, g->hists[i].name);
	html_series_plots(x, case_name, &series);
	html_map_plots(x, case_name);
	html_metric_plots(x, case_name, &metrics);
	fputs("</div>\n", x->f);
	strlist_free(&metrics);
	strlist_free(&series);
}

/* ---- tables ---- */

static void html_runs(struct report_ctx *x)
{
	fputs("<h2 id=\"runs\">Runs</h2>\n<table><tr><th>label</th><th>id</th><th>suite</th><th>status</th>"
	      "<th>kernel</th><th>host</th><th>started (UTC)</th><th>cases</th><th>iterations</th></tr>\n",
	      x->f);
	for (size_t r = 0; r < x->n; r++) {
		const struct run_info *i = &x->runs[r]->info;
		char when[64] = "";
		time_t t = (time_t)i->started;
		struct tm tm = { 0 };
		if (i->started > 0 && gmtime_r(&t, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
		size_t iters = 0;
		for (size_t c = 0; c < x->runs[r]->ncases; c++)
			iters += x->runs[r]->cases[c].niter;
		fputs("<tr>", x->f);
		html_td(x->f, x->cmp->labels[r]);
		fprintf(x->f, "<td class=\"num\">%lld</td>", (long long)i->id);
		html_td(x->f, i->suite);
		html_td(x->f, i->status);
		html_td(x->f, i->kernel);
		html_td(x->f, i->host);
		html_td(x->f, when);
		fprintf(x->f, "<td class=\"num\">%zu</td><td class=\"num\">%zu</td></tr>\n", x->runs[r]->ncases, iters);
	}
	fputs("</table>\n", x->f);
}

static bool html_env_differs(const struct comparison *cmp, const char *key)
{
	for (size_t i = 0; i < cmp->nenv; i++)
		if (!strcmp(cmp->env[i].key, key))
			return true;
	return false;
}

static void html_env(struct report_ctx *x)
{
	const struct comparison *cmp = x->cmp;
	fputs("<h2 id=\"env\">Environment</h2>\n", x->f);
	if (x->n > 1 && !cmp->nenv)
		fputs("<p>No setting differs between the runs.</p>\n", x->f);
	if (cmp->nenv) {
		fputs("<p>Settings that differ between the runs:</p>\n<table class=\"diff\"><tr><th>setting</th>", x->f);
		for (size_t r = 0; r < x->n; r++) {
			fputs("<th>", x->f);
			html_esc(x->f, cmp->labels[r]);
			fputs("</th>", x->f);
		}
		fputs("</tr>\n", x->f);
		for (size_t k = 0; k < cmp->nenv; k++) {
			fputs("<tr>", x->f);
			html_td(x->f, cmp->env[k].key);
			for (size_t r = 0; r < x->n; r++)
				html_td(x->f, cmp->env[k].values[r]);
			fputs("</tr>\n", x->f);
		}
		fputs("</table>\n", x->f);
	}
	/* The base run's whole environment, folded away. */
	struct strlist keys = { 0 }, vals = { 0 };
	cmp_json_flatten(x->runs[0]->env, "", &keys, &vals);
	fprintf(x->f, "<details><summary>Full environment of %s (%zu settings)</summary>\n<table>", cmp->labels[0],
		keys.n);
	for (size_t k = 0; k < keys.n; k++) {
		fprintf(x->f, "<tr%s>", html_env_differs(cmp, keys.v[k]) ? " class=\"diff\"" : "");
		html_td(x->f, keys.v[k]);
		html_td(x->f, vals.v[k]);
		fputs("</tr>\n", x->f);
	}
	fputs("</table></details>\n", x->f);
	strlist_free(&keys);
	strlist_free(&vals);
}

static void html_cmp_cell(FILE *f, const struct cmp_row *row, size_t i, enum cmp_stat s)
{
	const struct cmp_cell *c = &row->cells[i];
	char num[64], open, close;
	if (!c->present) {
		fputs("<td class=\"num\">-</td>", f);
		return;
	}
	const char *cls = s == CMP_STAT_MEAN && i ? cmp_verdict_name(c->verdict) : "";
	cmp_markers(c, s, &open, &close);
	double pct = cmp_stat_change(row, i, s);
	fprintf(f, "<td class=\"num %s\">%s", cls, cmp_fmt_stat(num, sizeof(num), row, c, s));
	if (isfinite(pct))
		fprintf(f, " %c%+.2f%%%c", open, pct, close);
	if (s == CMP_STAT_MEAN && i && !c->w.too_few && isfinite(c->w.p))
		fprintf(f, "<br><small>p=%.2g</small>", c->w.p);
	fputs("</td>", f);
}

static void html_compare_head(struct report_ctx *x, bool stat)
{
	fprintf(x->f, "<table><tr>%s<th>case</th><th>metric</th><th>unit</th>", stat ? "<th>stat</th>" : "");
	for (size_t r = 0; r < x->n; r++) {
		fputs("<th>", x->f);
		html_esc(x->f, x->cmp->labels[r]);
		fputs("</th>", x->f);
	}
	fputs("</tr>\n", x->f);
}

/* One row per metric, the headline ones or the others: the mean and its
 * spread, the change and p. */
static void html_compare_short(struct report_ctx *x, bool headline)
{
	const struct comparison *cmp = x->cmp;
	char mean[64], sd[64];
	html_compare_head(x, false);
	for (size_t k = 0; k < cmp->nrows; k++) {
		const struct cmp_row *row = &cmp->rows[k];
		if (row->headline != headline)
			continue;
		fputs("<tr>", x->f);
		html_td(x->f, row->case_name);
		html_td(x->f, row->metric);
		html_td(x->f, row->unit);
		for (size_t r = 0; r < x->n; r++) {
			const struct cmp_cell *c = &row->cells[r];
			if (!c->present) {
				fputs("<td class=\"num\">-</td>", x->f);
				continue;
			}
			char open, close;
			cmp_markers(c, CMP_STAT_MEAN, &open, &close);
			fprintf(x->f, "<td class=\"num %s\">%s <small>&plusmn;%s</small>", r ? cmp_verdict_name(c->verdict) : "",
				units_format_value(mean, sizeof(mean), c->s.mean, row->unit),
				units_format_value(sd, sizeof(sd), c->s.stddev, row->unit));
			if (r && isfinite(c->change_pct))
				fprintf(x->f, "<br>%c%+.2f%%%c", open, c->change_pct, close);
			if (r && !c->w.too_few && isfinite(c->w.p))
				fprintf(x->f, " <small>p=%.2g</small>", c->w.p);
			fputs("</td>", x->f);
		}
		fputs("</tr>\n", x->f);
	}
	fputs("</table>\n", x->f);
}

/* Every statistic, as the text format has them. */
static void html_compare_full(struct report_ctx *x)
{
	const struct comparison *cmp = x->cmp;
	fputs("<details><summary>All statistics (Min, mean, Stddev, CoeffVar, Max) of the headline metrics and the "
	      "findings</summary>\n", x->f);
	html_compare_head(x, true);
	for (size_t k = 0; k < cmp->nrows; k++) {
		const struct cmp_row *row = &cmp->rows[k];
		if (!row->headline && !html_metric_significant(x, row->case_name, row->metric))
			continue;
		for (int s = 0; s < CMP_NSTATS; s++) {
			fprintf(x->f, "<tr%s>", s ? "" : " class=\"first\"");
			html_td(x->f, cmp_stat_name(s, row->combine));
			html_td(x->f, row->case_name);
			html_td(x->f, row->metric);
			html_td(x->f, s == CMP_STAT_CV ? "%" : row->unit);
			for (size_t r = 0; r < x->n; r++)
				html_cmp_cell(x->f, row, r, s);
			fputs("</tr>\n", x->f);
		}
	}
	fputs("</table></details>\n", x->f);
}

/* The headline metrics, small multiples: per case and headline metric the
 * runs side by side on one axis from zero, each mean with its interval. */
/* Whether the runs' labels fit side by side under a small plot; if not
 * the runs are numbered and the numbers explained above the plots. */
static bool html_short_labels(const struct report_ctx *x)
{
	size_t len = 0;
	for (size_t r = 0; r < x->n; r++)
		len += strlen(x->cmp->labels[r]) + 2;
	return len <= 26;
}

static void html_headline_plot(struct report_ctx *x, const struct cmp_row *row)
{
	struct plot p = { 0 };
	char *title = xasprintf("%s: %s", row->case_name, row->metric);
	plot_init(&p, title, "", "");
	plot_units(&p, NULL, row->unit);
	p.width = 236;
	p.height = 180;
	struct plot_line *l = plot_add_line(&p, "", PLOT_ERRORBARS);
	double top = 0;
	for (size_t r = 0; r < x->n; r++) {
		const struct cmp_cell *c = &row->cells[r];
		char num[24];
		snprintf(num, sizeof(num), "%zu", r + 1);
		plot_xname(&p, html_short_labels(x) ? x->cmp->labels[r] : num);
		if (!c->present || !isfinite(c->s.mean))
			continue;
		double e = summary_spread(c->s.stddev, c->s.n);
		plot_point_err(l, (double)(r + 1), c->s.mean, e);
		top = fmax(top, c->s.mean + e);
	}
	if (top > 0) {
		p.yfixed = true;
		p.ymin = 0;
		p.ymax = top * 1.1;
	}
	html_plot(x, &p, NULL);
	plot_free(&p);
	free(title);
}

static void html_headline(struct report_ctx *x)
{
	const struct comparison *cmp = x->cmp;
	size_t nhead = 0;
	for (size_t k = 0; k < cmp->nrows; k++)
		nhead += cmp->rows[k].headline;
	fputs("<section id=\"headline\"><h2>Headline metrics</h2>\n", x->f);
	if (!nhead) {
		fputs("<p>No workload of these cases declares a headline metric.</p></section>\n", x->f);
		return;
	}
	fputs("<p class=\"note\">Per case, each run's mean with its 95% confidence interval (3 iterations or more) "
	      "or &plusmn; its standard deviation (2); every axis starts at zero.", x->f);
	for (size_t r = 0; !html_short_labels(x) && r < x->n; r++) {
		fprintf(x->f, "%s%zu: ", r ? ", " : " Runs: ", r + 1);
		html_esc(x->f, cmp->labels[r]);
	}
	fputs("</p>\n<div class=\"graphs\">\n", x->f);
	for (size_t k = 0; k < cmp->nrows; k++)
		if (cmp->rows[k].headline)
			html_headline_plot(x, &cmp->rows[k]);
	fputs("</div></section>\n", x->f);
}

/* The verdict on the headline metrics, as compare's text leads with it. */
static void html_verdict(struct report_ctx *x)
{
	if (x->n < 2)
		return;
	struct strlist lines = { 0 };
	compare_verdict_lines(x->cmp, &lines);
	fputs("<section id=\"verdict\"><div class=\"verdict\"><p><b>", x->f);
	html_esc(x->f, lines.v[0]);
	fputs("</b></p>\n<ul>\n", x->f);
	for (size_t i = 1; i < lines.n; i++) {
		fputs("<li>", x->f);
		html_esc(x->f, lines.v[i][0] == ' ' ? lines.v[i] + 2 : lines.v[i]);
		fputs("</li>\n", x->f);
	}
	fputs("</ul></div></section>\n", x->f);
	strlist_free(&lines);
}

static void html_compare(struct report_ctx *x)
{
	const struct comparison *cmp = x->cmp;
	fprintf(x->f, "<h2 id=\"compare\">%s</h2>\n", x->n > 1 ? "Comparison" : "Summary");
	if (x->n > 1)
		fprintf(x->f, "<p class=\"note\">Mean &plusmn; standard deviation per run, and the change against the base "
			      "run %s, run / base - 1 (a time that fell is negative). *change* is a finding at false-discovery rate "
			      "%g by the rule of docs/statistics.md (shaded green when better, red when worse); "
			      "?change? has too few iterations on a side.</p>\n",
			cmp->labels[0], cmp->alpha);
	if (cmp->emulated)
		fputs("<p class=\"note\"><b>Emulated:</b> some runs ran in an emulated guest (TCG), where times say "
		      "more about the emulator than the kernel. Counters (faults, swap-ins, Refd) are faithful and "
		      "come first in each case.</p>\n", x->f);
	size_t nhead = 0;
	for (size_t k = 0; k < cmp->nrows; k++)
		nhead += cmp->rows[k].headline;
	if (nhead)
		html_compare_short(x, true);
	fprintf(x->f, "<details><summary>%s metrics and counters (%zu)</summary>\n", nhead ? "The other" : "All",
		cmp->nrows - nhead);
	html_compare_short(x, false);
	fputs("</details>\n", x->f);
	html_compare_full(x);
	if (cmp->nleft) {
		fputs("<p>Left out of the comparison:</p><ul>\n", x->f);
		for (size_t i = 0; i < cmp->nleft; i++) {
			char *t = compare_left_text(&cmp->left_out[i]);
			fputs("<li>", x->f);
			html_esc(x->f, t);
			fputs("</li>\n", x->f);
			free(t);
		}
		fputs("</ul>\n", x->f);
	}
}

/* ---- the page ---- */

static void html_case_names(const struct run *const *runs, size_t n, const char *glob, struct strlist *out)
{
	for (size_t r = 0; r < n; r++)
		for (size_t c = 0; c < runs[r]->ncases; c++) {
			if (glob && fnmatch(glob, runs[r]->cases[c].name, 0))
				continue;
			size_t j = 0;
			while (j < out->n && strcmp(out->v[j], runs[r]->cases[c].name))
				j++;
			if (j == out->n)
				strlist_add(out, runs[r]->cases[c].name);
		}
}

static void html_page(struct report_ctx *x)
{
	const char *title = x->o->title ? x->o->title : "vmregress report";
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", x->f);
	html_esc(x->f, title);
	fprintf(x->f, "</title>\n<style>%s</style></head>\n<body>\n<h1>", report_css);
	html_esc(x->f, title);
	fputs("</h1>\n", x->f);
	if (x->o->lead_html)
		fputs(x->o->lead_html, x->f);
	if (x->o->lead_plot)
		html_plot(x, x->o->lead_plot, "the references' 95% bands dashed; each step's figure with its interval");
	html_forest(x);
	html_verdict(x);
	html_functional(x, x->fn);
	html_headline(x);
	struct strlist cases = { 0 };
	html_case_names(x->runs, x->n, x->o->cases, &cases);
	fputs("<p>Contents: ", x->f);
	if (x->fn->any)
		fputs("<a href=\"#functional\">kernel selftests</a> · ", x->f);
	fputs("<a href=\"#headline\">headline metrics</a> · <a href=\"#runs\">runs</a> · <a href=\"#env\">environment</a> · "
	      "<a href=\"#compare\">comparison</a>", x->f);
	for (size_t i = 0; i < cases.n; i++) {
		fprintf(x->f, " · <a href=\"#case-%zu\">", i);
		html_esc(x->f, cases.v[i]);
		fputs("</a>", x->f);
	}
	fputs("</p>\n", x->f);
	html_runs(x);
	html_env(x);
	html_compare(x);
	if (!x->o->graphs)
		fputs("<p class=\"note\">Graphs were not drawn (--no-graphs).</p>\n", x->f);
	for (size_t i = 0; i < cases.n && !x->detail_failed; i++) {
		/* one case's detail in memory at a time */
		struct case_graphs g = { 0 };
		if (x->o->case_graphs(x->o->case_ctx, cases.v[i], true, &g) < 0) {
			x->detail_failed = true;
			break;
		}
		x->graphs = &g;
		html_case_section(x, cases.v[i], i);
		x->graphs = NULL;
		x->o->case_graphs(x->o->case_ctx, cases.v[i], false, &g);
	}
	fputs("<p class=\"note\">Made by vmregress " VMR_VERSION ".</p>\n</body></html>\n", x->f);
	strlist_free(&cases);
}

/* A PNG inline, as a data: URI: the page stays one file. */
static void html_png(FILE *f, const struct plot_image *img, const struct html_slot *slot)
{
	char *b64 = xmalloc((img->len + 2) / 3 * 4 + 1);
	base64_encode((const unsigned char *)img->data, img->len, b64);
	fprintf(f, "<img%s width=\"%u\" height=\"%u\" alt=\"", slot->map ? " class=\"map\"" : "", img->width,
		img->height);
	html_esc(f, slot->alt);
	fprintf(f, "\" src=\"data:image/png;base64,%s\">", b64);
	free(b64);
}

/* Draw every graph in one gnuplot batch and put each in its slot. */
static char *html_fill(const char *page, size_t len, const struct report_ctx *x, struct report_stats *stats,
		       size_t *outlen)
{
	const struct strlist *scripts = &x->scripts;
	struct plot_image *imgs = xcalloc(scripts->n + 1, sizeof(*imgs));
	char *why = NULL;
	stats->graphs = plot_render_batch((const char *const *)scripts->v, scripts->n, imgs, &why);
	stats->failed = scripts->n - stats->graphs;
	struct svg_slim slim = { 0 };
	for (size_t i = 0; i < scripts->n; i++)
		if (imgs[i].data && imgs[i].format == PLOT_SVG) {
			size_t n = 0;
			char *small = svg_slim(&slim, imgs[i].data, imgs[i].len, &n);
			free(imgs[i].data);
			imgs[i].data = small;
			imgs[i].len = n;
		}
	char *buf = NULL;
	FILE *f = open_memstream(&buf, outlen);
	/* The graphs' classes go at the end of the page's style, their shared
	 * shapes at the top of its body: both strings are the page's own, and
	 * data cannot hold them (html_esc escapes '<'). */
	const char *style = memmem(page, len, "</style>", 8), *body = memmem(page, len, "<body>\n", 7);
	for (const char *p = page, *end = page + len; p < end;) {
		const char *open = memchr(p, HTML_SLOT_OPEN, (size_t)(end - p));
		if (style && style >= p && (!open || style < open)) {
			fwrite(p, 1, (size_t)(style - p), f);
			svg_slim_css(f, &slim);
			p = style;
			style = NULL;
			continue;
		}
		if (body && body >= p && (!open || body < open)) {
			fwrite(p, 1, (size_t)(body + 7 - p), f);
			svg_slim_defs(f, &slim);
			p = body + 7;
			body = NULL;
			continue;
		}
		if (!open) {
			fwrite(p, 1, (size_t)(end - p), f);
			break;
		}
		fwrite(p, 1, (size_t)(open - p), f);
		char *close;
		size_t i = strtoul(open + 1, &close, 10);
		p = close + 1;
		if (i < scripts->n && imgs[i].data && imgs[i].format == PLOT_PNG) {
			html_png(f, &imgs[i], &x->slots[i]);
			stats->png++;
		} else if (i < scripts->n && imgs[i].data) {
			fwrite(imgs[i].data, 1, imgs[i].len, f);
		} else {
			fputs("<p class=\"error\">graph not drawn: ", f);
			html_esc(f, why ? why : "gnuplot drew nothing");
			fputs("</p>", f);
		}
	}
	fclose(f);
	svg_slim_free(&slim);
	for (size_t i = 0; i < scripts->n; i++)
		plot_image_free(&imgs[i]);
	free(imgs);
	free(why);
	return buf;
}

static int report_mkdir(const char *dir)
{
	char *p = xstrdup(dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			break;
		*s = '/';
	}
	int rc = mkdir(p, 0755) < 0 && errno != EEXIST ? -1 : 0;
	free(p);
	if (rc < 0) {
		vmr_errno("cannot create report directory %s", dir);
		return rc;
	}
	/* What was there already is written into only if it is a directory,
	 * reached through a link only where core/path.h allows. */
	char *target;
	struct stat st = { 0 };
	int e = path_resolve_last(dir, &target, &st);
	free(target);
	if (e == 0 && !S_ISDIR(st.st_mode))
		e = -ENOTDIR;
	if (e)
		vmr_err("cannot write the report into %s: %s", dir, path_strerror(e < 0 ? -e : ENOENT));
	return e ? -1 : 0;
}

int report_write(const char *dir, const struct run *const *runs, size_t n, const struct comparison *cmp,
		 const struct functional *fn, const struct report_opts *o,
		 struct report_stats *stats)
{
	*stats = (struct report_stats){ 0 };
	if (report_mkdir(dir) < 0)
		return -1;
	char *buf = NULL;
	size_t len = 0;
	struct report_ctx x = { .f = open_memstream(&buf, &len), .runs = runs, .n = n, .cmp = cmp, .fn = fn, .o = o,
				.stats = stats };
	html_page(&x);
	fclose(x.f);
	if (x.detail_failed) {
		free(buf);
		free(x.slots);
		strlist_free(&x.scripts);
		return -1;
	}
	char *page = html_fill(buf, len, &x, stats, &len);
	free(buf);
	buf = page;
	for (size_t i = 0; i < x.scripts.n; i++)
		free(x.slots[i].alt);
	free(x.slots);
	strlist_free(&x.scripts);
	char *path = xasprintf("%s/index.html", dir);
	stats->bytes = len;
	int rc = vmr_write_atomic(path, buf, len, 0644);
	if (rc < 0)
		vmr_err("cannot write %s: %s", path, path_strerror(-rc));
	free(path);
	free(buf);
	return rc < 0 ? -1 : 0;
}
