/* Inside report/: what the HTML report's files share.  html.c writes the
 * page and calls html_case.c (the per-case graphs), html_forest.c and
 * html_functional.c; they, and bisect_html.c, call html_util.c (the
 * escaper and a cell), which calls none of them. */
#ifndef VMR_REPORT_HTML_INT_H
#define VMR_REPORT_HTML_INT_H

#include "report/html.h"
#include "core/base64.h"
#include "core/hist.h"
#include "core/path.h"
#include "core/units.h"
#include "core/util.h"
#include "report/compare_fmt.h"
#include "report/plot.h"
#include "stats/compare.h"
#include "stats/functional.h"
#include "stats/casegraphs.h"
#include "stats/summary.h"
#include "workload/workload.h"

struct report_ctx {
	FILE *f;
	const struct run *const *runs;
	size_t n;
	const struct comparison *cmp;   /* labels */
	const struct case_graphs *graphs; /* the case being written's (o->case_graphs) */
	const struct functional *fn;    /* the selftests' cases, run by run */
	const struct report_opts *o;
	struct report_stats *stats;
	struct strlist scripts;         /* graph i's script; its place is HTML_SLOT i */
	struct html_slot *slots;        /* and how graph i is shown */
	bool detail_failed;             /* a case's detail could not be loaded */
};

struct html_slot {
	char *alt;                      /* the graph's title, for a raster image */
	bool map;                       /* cells to show as pixels, never smoothed */
};

/* Where graph i goes in the page until gnuplot has drawn it.  The bytes
 * cannot come from data: html_esc drops control characters. */
#define HTML_SLOT_OPEN '\x02'
#define HTML_SLOT_CLOSE '\x03'

/* Text put into the page, '<', '>', '&' and '"' as entities, control
 * characters but tab and newline dropped (html_util.c); NULL writes
 * nothing. */
void html_esc(FILE *f, const char *s);
/* A table cell of text: <td>s</td>, NULL as an empty one. */
void html_td(FILE *f, const char *s);

/* html_case.c: */
void html_plot(struct report_ctx *x, struct plot *p, const char *caption);
const struct run_case *html_case(const struct run *r, const char *name);
bool html_metric_significant(const struct report_ctx *x, const char *case_name, const char *metric);
void html_metric_plots(struct report_ctx *x, const char *case_name, const struct strlist *metrics);
void html_table_plots(struct report_ctx *x, const char *case_name, const struct table *proto);
void html_hist_plot(struct report_ctx *x, const char *case_name, const char *name);
void html_series_plots(struct report_ctx *x, const char *case_name, const struct strlist *series);
void html_map_plots(struct report_ctx *x, const char *case_name);
/* The forest plot of the headline metrics (html_forest.c): nothing for one run. */
void html_forest(struct report_ctx *x);
/* The kernel selftests' table (html_functional.c): nothing when no run has any. */
void html_functional(struct report_ctx *x, const struct functional *fn);

#endif
