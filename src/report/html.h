/* The HTML report: one self-contained index.html (inline CSS, graphs as
 * inline SVG or as PNG in data: URIs, no script and no network) with the runs, the environment and
 * what differs in it, the comparison tables, and per case the graphs its
 * results hold.
 *
 * The graphs are generic, drawn from what a result holds: metrics per
 * iteration, tables as line plots against their first column (with a linear
 * ideal when that column counts tasks or threads, as pft's does), histograms
 * as CDFs, series as plots over time, maps as images.  Runs are overlaid on
 * one plot, so a metric has the same scale in every run; y axes start at 0
 * unless the data are logarithmic. */
#ifndef VMR_HTML_H
#define VMR_HTML_H

#include <stdbool.h>
#include <stddef.h>

#include "report/plot.h"
#include "store/store.h"

struct comparison;
struct case_graphs;
struct functional;

struct report_opts {
	double alpha;
	bool graphs;          /* false: tables only (no gnuplot needed) */
	const char *title;
	const char *cases;    /* fnmatch glob of the cases to show, or NULL */
	/* a section put first, and its graph (a bisection's), or NULL */
	const char *lead_html;
	struct plot *lead_plot;
	/* Called with load before a case's section is written, g to fill
	 * with what its graphs draw (case_graphs: the case's iterations
	 * folded in one at a time), and with !load after it (g freed): 0,
	 * or -1 after a message. */
	int (*case_graphs)(void *ctx, const char *case_name, bool load, struct case_graphs *g);
	void *case_ctx;
};

struct report_stats {
	size_t graphs;        /* graphs drawn and inlined */
	size_t png;           /* of which PNG images (maps, dense plots) */
	size_t failed;        /* graphs gnuplot could not draw */
	size_t bytes;         /* the size of index.html */
};

/* Write DIR/index.html (atomically), creating DIR, from the runs, their
 * comparison (compare_runs with the report's alpha and cases, the
 * workloads' headline metrics) and their selftests' cases
 * (functional_compare), each case's graphs from o->case_graphs.
 * 0, or -1 after a one-line error. */
int report_write(const char *dir, const struct run *const *runs, size_t n, const struct comparison *cmp,
		 const struct functional *fn, const struct report_opts *o, struct report_stats *stats);

#endif
