/* A bisection in the HTML report: the answer, the metric along the series
 * with the good and bad references' bands, and the steps (bisect_fmt.h). */
#include "report/bisect_fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/util.h"
#include "report/html_int.h"

static void bisect_band(struct plot *p, const char *label, const struct bisect_figure *g, double x0, double x1)
{
	struct plot_line *lo = plot_add_line(p, label, PLOT_DASHED);
	plot_point(lo, x0, g->lo);
	plot_point(lo, x1, g->lo);
	struct plot_line *hi = plot_add_line(p, "", PLOT_DASHED);
	plot_point(hi, x0, g->hi);
	plot_point(hi, x1, g->hi);
}

static void bisect_point(struct plot_line *l, size_t cand, const struct bisect_figure *g)
{
	double e = isfinite(g->lo) && isfinite(g->hi) ? (g->hi - g->lo) / 2 : 0;
	plot_point_err(l, (double)cand + 1, isfinite(e) && e > 0 ? (g->lo + g->hi) / 2 : g->centre, e);
}

void bisect_plot(const struct bisect_result *r, struct plot *p)
{
	double x0 = 1, x1 = (double)(r->ncands ? r->ncands : 2);
	char title[256];

	snprintf(title, sizeof(title), "%s along the series (bisection %s)", r->metric, r->name);
	plot_init(p, title, "candidate (series position)", r->metric);
	plot_units(p, NULL, r->unit && *r->unit ? r->unit : NULL);
	bisect_band(p, "good reference, 95% interval", &r->good.fig, x0, x1);
	bisect_band(p, "bad reference, 95% interval", &r->bad.fig, x0, x1);
	struct plot_line *refs = plot_add_line(p, "references", PLOT_ERRORBARS);
	bisect_point(refs, r->good.cand, &r->good.fig);
	bisect_point(refs, r->bad.cand, &r->bad.fig);
	struct plot_line *good = plot_add_line(p, "steps: good", PLOT_ERRORBARS);
	struct plot_line *bad = plot_add_line(p, "steps: bad", PLOT_ERRORBARS);
	struct plot_line *und = plot_add_line(p, "steps: undecided", PLOT_ERRORBARS);
	for (size_t k = 0; k < r->nsteps; k++) {
		const struct bisect_step *s = &r->steps[k];
		if (s->fig.n)
			bisect_point(s->decision == SPRT_GOOD ? good : s->decision == SPRT_BAD ? bad : und, s->cand, &s->fig);
	}
	if (r->end == BISECT_FOUND || r->end == BISECT_RANGE) {
		double lo, hi;
		plot_yrange(p, &lo, &hi);
		struct plot_line *fb = plot_add_line(p, "first bad", PLOT_DASHED);
		plot_point(fb, (double)r->first_bad + 1, lo < 0 ? lo : 0);
		plot_point(fb, (double)r->first_bad + 1, hi * 1.05);
	}
}

void bisect_html(FILE *f, const struct bisect_result *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	bisect_text(m, r);
	fclose(m);
	fputs("<section id=\"bisection\"><h2>Bisection ", f);
	html_esc(f, r->name);
	fputs("</h2>\n<pre>", f);
	html_esc(f, text);
	fputs("</pre>\n</section>\n", f);
	free(text);
}
