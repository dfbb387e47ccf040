#include "report/plot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/util.h"

void plot_init(struct plot *p, const char *title, const char *xlabel, const char *ylabel)
{
	memset(p, 0, sizeof(*p));
	p->title = xstrdup(title ? title : "");
	p->xlabel = xstrdup(xlabel ? xlabel : "");
	p->ylabel = xstrdup(ylabel ? ylabel : "");
}

void plot_free(struct plot *p)
{
	for (size_t i = 0; i < p->nlines; i++) {
		free(p->lines[i]->label);
		free(p->lines[i]->x);
		free(p->lines[i]->y);
		free(p->lines[i]->e);
		free(p->lines[i]);
	}
	free(p->lines);
	free(p->xunit);
	free(p->yunit);
	for (size_t i = 0; i < p->nxnames; i++)
		free(p->xnames[i]);
	free(p->xnames);
	free(p->title);
	free(p->xlabel);
	free(p->ylabel);
	memset(p, 0, sizeof(*p));
}

struct plot_line *plot_add_line(struct plot *p, const char *label, enum plot_style style)
{
	p->lines = xrealloc(p->lines, (p->nlines + 1) * sizeof(*p->lines));
	struct plot_line *l = xcalloc(1, sizeof(*l));
	p->lines[p->nlines++] = l;
	l->label = xstrdup(label);
	l->style = style;
	return l;
}

void plot_point(struct plot_line *l, double x, double y)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 32;
		l->x = xrealloc(l->x, l->cap * sizeof(double));
		l->y = xrealloc(l->y, l->cap * sizeof(double));
	}
	l->x[l->n] = x;
	l->y[l->n++] = y;
}

void plot_point_err(struct plot_line *l, double x, double y, double e)
{
	size_t cap = l->cap;
	plot_point(l, x, y);
	if (!l->e || l->cap != cap)
		l->e = xrealloc(l->e, l->cap * sizeof(double));
	l->e[l->n - 1] = isfinite(e) ? e : 0;
}

void plot_units(struct plot *p, const char *xunit, const char *yunit)
{
	free(p->xunit);
	free(p->yunit);
	p->xunit = xunit ? xstrdup(xunit) : NULL;
	p->yunit = yunit ? xstrdup(yunit) : NULL;
}

void plot_xname(struct plot *p, const char *name)
{
	p->xnames = xrealloc(p->xnames, (p->nxnames + 1) * sizeof(char *));
	p->xnames[p->nxnames++] = xstrdup(name);
}

size_t plot_max_points(const struct plot *p)
{
	size_t most = 0;
	for (size_t i = 0; i < p->nlines; i++)
		most = p->lines[i]->n > most ? p->lines[i]->n : most;
	return most;
}

static bool plot_point_ok(const struct plot *p, double x, double y)
{
	return isfinite(x) && isfinite(y) && (!p->logx || x > 0) && (!p->logy || y > 0);
}

bool plot_has_data(const struct plot *p)
{
	for (size_t i = 0; i < p->nlines; i++)
		for (size_t k = 0; k < p->lines[i]->n; k++)
			if (plot_point_ok(p, p->lines[i]->x[k], p->lines[i]->y[k]))
				return true;
	return false;
}

void plot_yrange(const struct plot *p, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < p->nlines; i++)
		for (size_t k = 0; k < p->lines[i]->n; k++)
			if (plot_point_ok(p, p->lines[i]->x[k], p->lines[i]->y[k])) {
				*lo = fmin(*lo, p->lines[i]->y[k]);
				*hi = fmax(*hi, p->lines[i]->y[k]);
			}
}

/* Few whole-number x values (passes, iterations, tasks): tics on each. */
static bool plot_integer_x(const struct plot *p)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < p->nlines; i++)
		for (size_t k = 0; k < p->lines[i]->n; k++) {
			double x = p->lines[i]->x[k];
			if (x != floor(x))
				return false;
			lo = fmin(lo, x);
			hi = fmax(hi, x);
		}
	return hi >= lo && hi - lo <= 16;
}

/* A gnuplot single-quoted string: only ' needs doubling. */
static void plot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s != '\n' && *s != '\r')
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* gnuplot's PNG terminal on libgd: palette images (a third of pngcairo's
 * bytes for the same plot) and images drawn pixel for pixel, never
 * smoothed, which a map needs.  It sets type at 96 dpi: 8 points are the
 * SVGs' 11 pixels. */
#define PLOT_PNG_TERMINAL "png"

static void plot_header(FILE *f, const char *title, int width, int height, enum plot_format fmt)
{
	width = width > 0 ? width : 640;
	height = height > 0 ? height : 360;
	if (fmt == PLOT_PNG)
		fprintf(f, "set terminal " PLOT_PNG_TERMINAL " size %d,%d noenhanced font 'sans,8' background rgb 'white'\n",
			width, height);
	else
		fprintf(f, "set terminal svg size %d,%d fixed noenhanced font 'sans,11' background rgb 'white'\n",
			width, height);
	fputs("set output\nset encoding utf8\n", f);
	fputs("set title ", f);
	plot_quote(f, title);
	fputc('\n', f);
}

/* Dense lines (a point per page) lose their markers, which would hide the
 * line under a blot. */
static const char *plot_style_name(enum plot_style s, bool dense)
{
	switch (s) {
	case PLOT_LINESPOINTS: return dense ? "lines" : "linespoints pt 7 ps 0.6";
	case PLOT_STEPS: return "steps";
	case PLOT_DASHED: return "lines dt 2 lc rgb 'gray40'";
	case PLOT_ERRORBARS: return "yerrorbars pt 7 ps 0.8";
	default: return "lines";
	}
}

/* How an axis is drawn: its values divided by div, under label. */
struct plot_scale {
	double xdiv, ydiv;
	char xlabel[160], ylabel[160];
};

/* "time (ms)"; the unit alone when the label is only the unit's name. */
static void plot_axis_label(char *buf, size_t len, const char *label, const char *unit, double max_abs, double *div)
{
	char u[64];
	*div = 1;
	if (!unit) {
		snprintf(buf, len, "%s", label);
		return;
	}
	*div = units_axis(max_abs, unit, u, sizeof(u));
	if (!*label || !strcmp(label, unit))
		snprintf(buf, len, "%s", u);
	else if (*u)
		snprintf(buf, len, "%s (%s)", label, u);
	else
		snprintf(buf, len, "%s", label);
}

static void plot_scale_of(const struct plot *p, struct plot_scale *sc)
{
	double xmax = 0, ymax = 0;
	for (size_t i = 0; i < p->nlines; i++)
		for (size_t k = 0; k < p->lines[i]->n; k++) {
			const struct plot_line *l = p->lines[i];
			if (!plot_point_ok(p, l->x[k], l->y[k]))
				continue;
			xmax = fmax(xmax, fabs(l->x[k]));
			ymax = fmax(ymax, fabs(l->y[k]) + (l->e ? fabs(l->e[k]) : 0));
		}
	if (p->yfixed && isfinite(p->ymax))
		ymax = fmax(ymax, fabs(p->ymax));
	plot_axis_label(sc->xlabel, sizeof(sc->xlabel), p->xlabel, p->xunit, xmax, &sc->xdiv);
	plot_axis_label(sc->ylabel, sizeof(sc->ylabel), p->ylabel, p->yunit, ymax, &sc->ydiv);
}

static void plot_axes(FILE *f, const struct plot *p, const struct plot_scale *sc)
{
	fputs("set xlabel ", f);
	plot_quote(f, sc->xlabel);
	fputs("\nset ylabel ", f);
	plot_quote(f, sc->ylabel);
	fputs("\nset grid\nset key below\nset border 3\n"
	      "set xtics nomirror\nset ytics nomirror\nset format y '%.4g'\nset format x '%.4g'\n", f);
	if (p->nxnames) {
		fputs("set xtics (", f);
		for (size_t i = 0; i < p->nxnames; i++) {
			fputs(i ? ", " : "", f);
			plot_quote(f, p->xnames[i]);
			fprintf(f, " %zu", i + 1);
		}
		fprintf(f, ")\nset xrange [0.5:%zu.5]\nset offsets 0,0,0,0\n", p->nxnames);
	} else if (p->logx) {
		fputs("set logscale x\n", f);
	} else if (plot_integer_x(p)) {
		fputs("set xtics 1\n", f);
	}
	if (p->logx && p->nxnames)
		fputs("set logscale x\n", f);
	if (p->logy)
		fputs("set logscale y\n", f);
	if (p->yfixed && isfinite(p->ymin) && isfinite(p->ymax) && p->ymax > p->ymin)
		fprintf(f, "set yrange [%.17g:%.17g]\n", p->ymin / sc->ydiv, p->ymax / sc->ydiv);
}

enum plot_format plot_format_of(const struct plot *p)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nlines; i++)
		for (size_t k = 0; k < p->lines[i]->n; k++)
			n += plot_point_ok(p, p->lines[i]->x[k], p->lines[i]->y[k]);
	return n > PLOT_SVG_MAX_POINTS ? PLOT_PNG : PLOT_SVG;
}

char *plot_script(const struct plot *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	enum plot_format fmt = plot_format_of(p);
	struct plot_scale sc = { 0 };
	plot_scale_of(p, &sc);
	plot_header(f, p->title, p->width, p->height, fmt);
	plot_axes(f, p, &sc);
	size_t nplotted = 0;
	for (size_t i = 0; i < p->nlines; i++) {
		const struct plot_line *l = p->lines[i];
		fprintf(f, "$d%zu << EOD\n", i);
		for (size_t k = 0; k < l->n; k++) {
			if (!plot_point_ok(p, l->x[k], l->y[k]))
				continue;
			fprintf(f, "%.17g %.17g", l->x[k] / sc.xdiv, l->y[k] / sc.ydiv);
			if (l->style == PLOT_ERRORBARS)
				fprintf(f, " %.17g", l->e ? l->e[k] / sc.ydiv : 0);
			fputc('\n', f);
		}
		fputs("EOD\n", f);
	}
	for (size_t i = 0; i < p->nlines; i++) {
		bool any = false;
		for (size_t k = 0; k < p->lines[i]->n && !any; k++)
			any = plot_point_ok(p, p->lines[i]->x[k], p->lines[i]->y[k]);
		if (!any)
			continue;
		fprintf(f, "%s$d%zu using %s with %s lw 1.5 title ", nplotted++ ? ", \\\n     " : "plot ", i,
			p->lines[i]->style == PLOT_ERRORBARS ? "1:2:3" : "1:2",
			plot_style_name(p->lines[i]->style, fmt == PLOT_PNG));
		plot_quote(f, p->lines[i]->label);
	}
	fputc('\n', f);
	fclose(f);
	return buf;
}

/* The state of pages [lo, hi): the most common of present, swapped and
 * neither, so a binned cell shows what most of its pages are. */
static int plot_map_cell(const char *pages, size_t lo, size_t hi)
{
	size_t count[3] = { 0 };
	for (size_t i = lo; i < hi; i++)
		count[pages[i] == '#' ? 1 : pages[i] == 's' ? 2 : 0]++;
	int best = 0;
	for (int s = 1; s < 3; s++)
		if (count[s] > count[best])
			best = s;
	return best;
}

/* A map's margins in pixels: the title above; tics and the y label left;
 * tics, the x label and the key below. */
enum { PLOT_MAP_LEFT = 64, PLOT_MAP_RIGHT = 16, PLOT_MAP_TOP = 30, PLOT_MAP_BOTTOM = 80 };

/* The plot area's pixels along one side: the room the size aimed at
 * leaves, and at least one pixel per cell, so that a raster drawn without
 * smoothing shows every cell, each a whole pixel or two. */
static size_t plot_map_area(int want, int margins, size_t cells)
{
	size_t room = want > margins ? (size_t)(want - margins) : 0;
	return room > cells ? room : cells;
}

/* Margins at exact pixels around the plot area. */
static void plot_map_layout(FILE *f, size_t cols, size_t rows, int width, int height, enum plot_format fmt,
			    const char *title)
{
	size_t aw = plot_map_area(width, PLOT_MAP_LEFT + PLOT_MAP_RIGHT, cols);
	size_t ah = plot_map_area(height, PLOT_MAP_TOP + PLOT_MAP_BOTTOM, rows);
	double w = (double)(PLOT_MAP_LEFT + PLOT_MAP_RIGHT + aw), h = (double)(PLOT_MAP_TOP + PLOT_MAP_BOTTOM + ah);
	plot_header(f, title, (int)w, (int)h, fmt);
	fprintf(f, "set lmargin at screen %.6f\nset rmargin at screen %.6f\n", PLOT_MAP_LEFT / w,
		(PLOT_MAP_LEFT + aw) / w);
	fprintf(f, "set bmargin at screen %.6f\nset tmargin at screen %.6f\n", PLOT_MAP_BOTTOM / h,
		(PLOT_MAP_BOTTOM + ah) / h);
}

char *plot_map_script(const char *pages, size_t n, const char *title, int width, int height,
		      enum plot_format fmt)
{
	/* At most 256 x 256 cells: beyond that a cell stands for several pages. */
	size_t per = 1, cells = n ? n : 1;
	while ((cells + per - 1) / per > 256 * 256)
		per *= 2;
	cells = (cells + per - 1) / per;
	size_t cols = cells < 64 ? cells : (size_t)ceil(sqrt((double)cells * 2));
	if (cols > 256)
		cols = 256;
	size_t rows = (cells + cols - 1) / cols;
	/* gnuplot needs two of each to draw an image: pad with blank cells. */
	if (cols < 2)
		cols = 2;
	if (rows < 2)
		rows = 2;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	plot_map_layout(f, cols, rows, width, height, fmt, title);
	fputs("set palette defined (0 '#e6e6e6', 1 '#2ca02c', 2 '#d62728', 3 'white')\n"
	      "set cbrange [0:3]\nunset colorbox\nset key outside bottom center horizontal\n"
	      "set xtics out nomirror\nset ytics out nomirror\n", f);
	fprintf(f, "set xlabel '%zu pages, %zu per cell, %zu cells per row'\nset ylabel 'row'\n", n, per, cols);
	fprintf(f, "set xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\n", cols - 1, rows - 1);
	fputs("$map << EOD\n", f);
	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < cols; c++) {
			size_t cell = r * cols + c, lo = cell * per, hi = lo + per < n ? lo + per : n;
			fprintf(f, "%s%d", c ? " " : "", lo < n ? plot_map_cell(pages, lo, hi) : 3);
		}
		fputc('\n', f);
	}
	fputs("EOD\n", f);
	fputs("plot $map matrix with image notitle, \\\n"
	      "     NaN with boxes fs solid fc rgb '#2ca02c' title 'present', \\\n"
	      "     NaN with boxes fs solid fc rgb '#d62728' title 'swapped', \\\n"
	      "     NaN with boxes fs solid fc rgb '#e6e6e6' title 'not present'\n", f);
	fclose(f);
	return buf;
}
