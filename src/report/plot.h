/* Graphs as SVG text, drawn by gnuplot.
 *
 * A plot is data first (lines of x/y points, axes, scales); plot_script
 * turns it into a gnuplot script with the data inline (datablocks), and
 * plot_render runs gnuplot as a child with the script on a pipe and the SVG
 * read back from another, ready to be inlined in a page.  No temporary
 * files, no network, and nothing here prints. */
#ifndef VMR_PLOT_H
#define VMR_PLOT_H

#include <stdbool.h>
#include <stddef.h>

enum plot_style {
	PLOT_LINES,       /* time series */
	PLOT_LINESPOINTS, /* tables: few points, each one matters */
	PLOT_STEPS,       /* CDFs */
	PLOT_DASHED,      /* references such as a linear ideal */
};

struct plot_line {
	char *label;
	enum plot_style style;
	size_t n, cap;
	double *x, *y;
};

struct plot {
	char *title, *xlabel, *ylabel;
	bool logx, logy;
	bool yfixed;           /* use ymin..ymax (the same scale across plots) */
	double ymin, ymax;
	int width, height;     /* pixels; 0 means 640x360 */
	size_t nlines;
	struct plot_line **lines; /* pointers stay valid as lines are added */
};

void plot_init(struct plot *p, const char *title, const char *xlabel, const char *ylabel);
void plot_free(struct plot *p);
struct plot_line *plot_add_line(struct plot *p, const char *label, enum plot_style style);
void plot_point(struct plot_line *l, double x, double y);
/* True when some line has a finite point to draw. */
bool plot_has_data(const struct plot *p);
/* The y range of every point of p (for sharing one scale). */
void plot_yrange(const struct plot *p, double *lo, double *hi);

/* The gnuplot script for p (malloc'd). */
char *plot_script(const struct plot *p);

/* A present/swapped map: one cell per page ('#' present, 's' swapped,
 * anything else neither), laid out in rows, as an image with a key.  Very
 * large maps are binned (a cell shows the most common state of its pages). */
char *plot_map_script(const char *pages, size_t n, const char *title, int width, int height);

/* Run gnuplot on script and return the SVG text in *svg (malloc'd, starting
 * at "<svg").  0, or -1 with a one-line reason in *why (malloc'd): gnuplot
 * missing, or its first error line. */
int plot_render(const char *script, char **svg, char **why);
/* Many plots with one gnuplot process (starting gnuplot costs more than
 * most plots): svgs[i] is plot i's SVG or NULL when it was not drawn.
 * Returns how many were drawn; when fewer than n, *why (malloc'd) holds
 * gnuplot's first error. */
size_t plot_render_batch(const char *const *scripts, size_t n, char **svgs, char **why);
/* Whether a gnuplot binary can be found on PATH (or $VMR_GNUPLOT). */
bool plot_available(void);

#endif
