/* Graphs drawn by gnuplot, as SVG text or PNG images.
 *
 * A plot is data first (lines of x/y points, axes, scales); plot_script
 * turns it into a gnuplot script with the data inline (datablocks), and
 * plot_render runs gnuplot as a child with the script on a pipe and the
 * image read back from another, ready to be put in a page.  No temporary
 * files, no network, and nothing here prints.
 *
 * SVG costs bytes per point drawn, PNG costs bytes per pixel that changes:
 * a plot of a few hundred points is smaller (and sharper) as SVG, one of
 * thousands (a value per page or per reference) is far smaller as PNG, and
 * a map is a grid of cells, a picture by nature.  So maps are PNG, and a
 * plot is PNG when it has more than PLOT_SVG_MAX_POINTS points. */
#ifndef VMR_PLOT_H
#define VMR_PLOT_H

#include <stdbool.h>
#include <stddef.h>

/* Beyond this many points a plot is drawn as PNG (without point markers).
 * An SVG plot costs about 15 KB plus 20 to 120 bytes a point, a PNG one 5
 * to 12 KB whatever its points; below this SVG stays small and sharp. */
#define PLOT_SVG_MAX_POINTS 500

enum plot_format { PLOT_SVG, PLOT_PNG };

/* What gnuplot drew: SVG text (NUL-terminated, from "<svg" to "</svg>\n")
 * or the bytes of a PNG file, and its size in pixels. */
struct plot_image {
	enum plot_format format;
	char *data;
	size_t len;
	unsigned width, height;
};

void plot_image_free(struct plot_image *img);

enum plot_style {
	PLOT_LINES,       /* time series */
	PLOT_LINESPOINTS, /* tables: few points, each one matters */
	PLOT_STEPS,       /* CDFs */
	PLOT_DASHED,      /* references such as a linear ideal */
	PLOT_ERRORBARS,   /* a point per x with its interval: plot_point_err */
};

struct plot_line {
	char *label;
	enum plot_style style;
	size_t n, cap;
	double *x, *y;
	double *e;             /* PLOT_ERRORBARS: the interval's half-width */
};

struct plot {
	char *title, *xlabel, *ylabel;
	bool logx, logy;
	bool yfixed;           /* use ymin..ymax (the same scale across plots) */
	double ymin, ymax;
	int width, height;     /* pixels; 0 means 640x360 */
	/* The stored units of x and y ("ns", "bytes", "pages/s"), or NULL: an
	 * axis with a unit is drawn in the step of units_axis that suits its
	 * largest value, and its label names it: "time (ms)". */
	char *xunit, *yunit;
	/* Names for x = 1..nxnames (runs side by side), or none. */
	size_t nxnames;
	char **xnames;
	size_t nlines;
	struct plot_line **lines; /* pointers stay valid as lines are added */
};

void plot_init(struct plot *p, const char *title, const char *xlabel, const char *ylabel);
void plot_free(struct plot *p);
struct plot_line *plot_add_line(struct plot *p, const char *label, enum plot_style style);
void plot_point(struct plot_line *l, double x, double y);
/* A point with an interval y - e .. y + e (PLOT_ERRORBARS). */
void plot_point_err(struct plot_line *l, double x, double y, double e);
/* Name the stored units of the axes (either may be NULL). */
void plot_units(struct plot *p, const char *xunit, const char *yunit);
/* Name x = 1, 2, ... on the axis. */
void plot_xname(struct plot *p, const char *name);
/* The points of the line with the most. */
size_t plot_max_points(const struct plot *p);
/* True when some line has a finite point to draw. */
bool plot_has_data(const struct plot *p);
/* The y range of every point of p (for sharing one scale). */
void plot_yrange(const struct plot *p, double *lo, double *hi);

/* The format plot_script draws p in: PNG beyond PLOT_SVG_MAX_POINTS. */
enum plot_format plot_format_of(const struct plot *p);
/* The gnuplot script for p (malloc'd). */
char *plot_script(const struct plot *p);

/* A present/swapped map: one cell per page ('#' present, 's' swapped,
 * anything else neither), laid out in rows, as an image with a key, in
 * format f.  Very large maps are binned (a cell shows the most common state
 * of its pages).  width x height is the size aimed at; the figure grows
 * where needed to give every cell at least a pixel, so that a raster loses
 * none. */
char *plot_map_script(const char *pages, size_t n, const char *title, int width, int height,
		      enum plot_format f);

/* Run gnuplot on script and return what it drew in *img (free with
 * plot_image_free).  0, or -1 with a one-line reason in *why (malloc'd):
 * gnuplot missing, or its first error line. */
int plot_render(const char *script, struct plot_image *img, char **why);
/* Many plots with one gnuplot process, or for large batches one per CPU
 * (starting gnuplot costs more than most plots): imgs[i] is plot i's image, with data NULL when it was not
 * drawn.  Returns how many were drawn; when fewer than n, *why (malloc'd)
 * holds gnuplot's first error. */
size_t plot_render_batch(const char *const *scripts, size_t n, struct plot_image *imgs, char **why);
/* Whether a gnuplot binary can be found on PATH (or $VMR_GNUPLOT). */
bool plot_available(void);

#endif
