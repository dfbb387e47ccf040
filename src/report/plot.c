#include "report/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
	struct plot_scale sc;
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

static const char *plot_gnuplot(void)
{
	const char *g = getenv("VMR_GNUPLOT");
	return g && *g ? g : "gnuplot";
}

bool plot_available(void)
{
	const char *g = plot_gnuplot();
	if (strchr(g, '/'))
		return access(g, X_OK) == 0;
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "/usr/bin:/bin"), *save = NULL;
	bool found = false;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *d ? d : ".", g);
		found = access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}

struct plot_buf {
	char *s;
	size_t len, cap;
};

static int plot_buf_read(int fd, struct plot_buf *b)
{
	if (b->cap - b->len < 65536) {
		b->cap = b->cap * 2 + 65536;
		b->s = xrealloc(b->s, b->cap + 1);
	}
	ssize_t r = read(fd, b->s + b->len, b->cap - b->len);
	if (r > 0)
		b->len += (size_t)r;
	b->s[b->len] = '\0';
	return r > 0 ? 1 : (r == 0 ? 0 : (errno == EINTR || errno == EAGAIN ? 1 : -1));
}

static pid_t plot_spawn(int *in, int *out, int *err)
{
	int pi[2], po[2], pe[2];
	if (pipe2(pi, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(po, O_CLOEXEC) < 0)
		goto close_in;
	if (pipe2(pe, O_CLOEXEC) < 0)
		goto close_out;
	pid_t pid = fork();
	if (pid < 0)
		goto close_err;
	if (pid == 0) {
		dup2(pi[0], 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execlp(plot_gnuplot(), plot_gnuplot(), (char *)NULL);
		dprintf(2, "cannot run %s: %s\n", plot_gnuplot(), strerror(errno));
		_exit(127);
	}
	close(pi[0]);
	close(po[1]);
	close(pe[1]);
	*in = pi[1];
	*out = po[0];
	*err = pe[0];
	return pid;
close_err:
	close(pe[0]);
	close(pe[1]);
close_out:
	close(po[0]);
	close(po[1]);
close_in:
	close(pi[0]);
	close(pi[1]);
	return -1;
}

/* Feed the script and drain both outputs at once, so that neither side
 * blocks on a full pipe whatever the sizes. */
static void plot_pump(int in, int out, int err, const char *script, struct plot_buf *svg, struct plot_buf *msg)
{
	size_t off = 0, len = strlen(script);
	fcntl(in, F_SETFL, O_NONBLOCK);
	struct pollfd fds[3] = { { .fd = out, .events = POLLIN }, { .fd = err, .events = POLLIN },
				 { .fd = in, .events = POLLOUT } };
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		if (fds[2].fd >= 0 && off == len) {
			close(in);
			fds[2].fd = -1;
		}
		if (poll(fds, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[2].fd >= 0 && fds[2].revents) {
			ssize_t w = write(in, script + off, len - off);
			if (w > 0)
				off += (size_t)w;
			else if (w < 0 && errno != EAGAIN && errno != EINTR)
				off = len; /* gnuplot went away: stop feeding it */
		}
		for (int i = 0; i < 2; i++)
			if (fds[i].fd >= 0 && fds[i].revents && plot_buf_read(fds[i].fd, i ? msg : svg) <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
			}
	}
	if (fds[2].fd >= 0)
		close(in);
}

static char *plot_first_line(const char *s)
{
	while (*s == '\n' || *s == ' ' || *s == '\t')
		s++;
	size_t n = strcspn(s, "\n");
	return xasprintf("%.*s", (int)(n > 200 ? 200 : n), s);
}

/* Where the tag at p ends when it is an empty group ("<g ...>" then
 * "</g>" on the next line), else NULL.  gnuplot opens one for every
 * colour or width it sets, drawn in or not: more than a quarter of a small
 * plot's bytes. */
static const char *plot_empty_group(const char *p, const char *end)
{
	static const char close[] = ">\n</g>\n";
	if (end - p < 3 || memcmp(p, "<g ", 3))
		return NULL;
	const char *gt = memchr(p, '>', (size_t)(end - p));
	if (!gt || (size_t)(end - gt) < sizeof(close) - 1 || memcmp(gt, close, sizeof(close) - 1))
		return NULL;
	return gt + sizeof(close) - 1;
}

/* The SVG from start[0..len) plus "</svg>", without empty groups and with
 * images drawn as crisp pixels (a map cell is a page, not a gradient)
 * wherever it is viewed. */
static char *plot_svg_tidy(const char *start, size_t len, size_t *outlen)
{
	static const char tag[] = "<image ", with[] = "<image style='image-rendering:pixelated' ";
	char *buf = NULL;
	FILE *f = open_memstream(&buf, outlen);
	const char *p = start, *end = start + len, *lt;
	while ((lt = memchr(p, '<', (size_t)(end - p)))) {
		fwrite(p, 1, (size_t)(lt - p), f);
		const char *skip = plot_empty_group(lt, end);
		if (skip) {
			p = skip;
		} else if ((size_t)(end - lt) >= sizeof(tag) - 1 && !memcmp(lt, tag, sizeof(tag) - 1)) {
			fputs(with, f);
			p = lt + sizeof(tag) - 1;
		} else {
			fputc('<', f);
			p = lt + 1;
		}
	}
	fwrite(p, 1, (size_t)(end - p), f);
	fputs("</svg>\n", f);
	fclose(f);
	return buf;
}

static uint32_t plot_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The length of the PNG file at p (at most len bytes), walking its chunks
 * to IEND, or 0 when p does not hold a whole PNG.  Its bytes may hold any
 * text, so it is skipped by its own lengths, never searched. */
static size_t plot_png_len(const unsigned char *p, size_t len, unsigned *width, unsigned *height)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	if (len < 33 || memcmp(p, sig, 8) || memcmp(p + 12, "IHDR", 4))
		return 0;
	*width = plot_be32(p + 16);
	*height = plot_be32(p + 20);
	for (size_t off = 8; len - off >= 12;) {
		uint32_t n = plot_be32(p + off);
		if (n > len - off - 12)
			return 0;
		bool end = !memcmp(p + off + 4, "IEND", 4);
		off += 12 + (size_t)n;
		if (end)
			return off;
	}
	return 0;
}

/* The SVG's size from its width="..." and height="..." attributes. */
static void plot_svg_size(const char *svg, struct plot_image *img)
{
	const char *w = strstr(svg, "width=\""), *h = strstr(svg, "height=\"");
	img->width = w ? (unsigned)strtoul(w + 7, NULL, 10) : 0;
	img->height = h ? (unsigned)strtoul(h + 8, NULL, 10) : 0;
}

/* Plot i's image at out[at..len), right after its marker: a PNG, or an SVG
 * ending before the next marker.  Returns where the image ends (at, when
 * gnuplot drew nothing). */
static size_t plot_take(const char *out, size_t at, size_t len, size_t i, struct plot_image *img)
{
	const unsigned char *u = (const unsigned char *)out + at;
	size_t png = plot_png_len(u, len - at, &img->width, &img->height);
	if (png) {
		img->format = PLOT_PNG;
		img->data = xmalloc(png);
		memcpy(img->data, u, png);
		img->len = png;
		return at + png;
	}
	char mark[48];
	int mlen = snprintf(mark, sizeof(mark), "VMR-PLOT %zu\n", i + 1);
	const char *next = memmem(out + at, len - at, mark, (size_t)mlen);
	size_t span = (size_t)((next ? next : out + len) - (out + at));
	const char *svg = memmem(out + at, span, "<svg", 4);
	const char *end = svg ? memmem(svg, span - (size_t)(svg - (out + at)), "</svg>", 6) : NULL;
	if (!end)
		return at;
	img->format = PLOT_SVG;
	plot_svg_size(svg, img);
	img->data = plot_svg_tidy(svg, (size_t)(end - svg), &img->len);
	return (size_t)(end - out) + 6;
}

/* Plot i's image is what gnuplot wrote after marker i. */
static void plot_split(const char *out, size_t len, size_t n, struct plot_image *imgs)
{
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		char mark[48];
		int mlen = snprintf(mark, sizeof(mark), "VMR-PLOT %zu\n", i);
		const char *start = memmem(out + at, len - at, mark, (size_t)mlen);
		if (!start)
			break;
		at = plot_take(out, (size_t)(start - out) + (size_t)mlen, len, i, &imgs[i]);
	}
}

static char *plot_batch_script(const char *const *scripts, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "reset\nset print '-'\nprint 'VMR-PLOT %zu'\n%s\nunset output\n", i, scripts[i]);
	fprintf(f, "set print '-'\nprint 'VMR-PLOT %zu'\n", n);
	fclose(f);
	return buf;
}

void plot_image_free(struct plot_image *img)
{
	free(img->data);
	memset(img, 0, sizeof(*img));
}

/* One gnuplot process draws scripts[0..n). */
static size_t plot_render_one(const char *const *scripts, size_t n, struct plot_image *imgs, char **why)
{
	int in, out, err;
	pid_t pid = plot_spawn(&in, &out, &err);
	if (pid < 0) {
		*why = xasprintf("cannot start gnuplot: %s", strerror(errno));
		return 0;
	}
	char *script = plot_batch_script(scripts, n);
	struct plot_buf o = { 0 }, e = { 0 };
	plot_pump(in, out, err, script, &o, &e);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (o.s)
		plot_split(o.s, o.len, n, imgs);
	size_t drawn = 0;
	for (size_t i = 0; i < n; i++)
		drawn += imgs[i].data != NULL;
	if (drawn < n)
		*why = e.len ? plot_first_line(e.s)
			     : xasprintf("gnuplot %s", WIFEXITED(status) ? "drew nothing" : "was killed");
	free(script);
	free(o.s);
	free(e.s);
	return drawn;
}

struct plot_job {
	const char *const *scripts;
	size_t n, drawn;
	struct plot_image *imgs;
	char *why;
};

static void *plot_job_run(void *arg)
{
	struct plot_job *j = arg;
	j->drawn = plot_render_one(j->scripts, j->n, j->imgs, &j->why);
	return NULL;
}

/* gnuplot draws a PNG in about 5 ms, most of it hinting the text's glyphs,
 * so large batches are shared among a gnuplot per CPU (at most
 * PLOT_MAX_JOBS), each with PLOT_JOB_MIN scripts at least: starting one
 * costs about as much as that many SVGs. */
enum { PLOT_MAX_JOBS = 4, PLOT_JOB_MIN = 32 };

static size_t plot_jobs(size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t jobs = n / PLOT_JOB_MIN;
	if (cpus > 0 && jobs > (size_t)cpus)
		jobs = (size_t)cpus;
	if (jobs > PLOT_MAX_JOBS)
		jobs = PLOT_MAX_JOBS;
	return jobs ? jobs : 1;
}

size_t plot_render_batch(const char *const *scripts, size_t n, struct plot_image *imgs, char **why)
{
	*why = NULL;
	for (size_t i = 0; i < n; i++)
		imgs[i] = (struct plot_image){ 0 };
	if (!n)
		return 0;
	/* A gnuplot that dies early must not kill us with SIGPIPE. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	sigaction(SIGPIPE, &ign, &old);
	size_t njobs = plot_jobs(n), drawn = 0;
	struct plot_job job[PLOT_MAX_JOBS] = { 0 };
	pthread_t tid[PLOT_MAX_JOBS];
	bool started[PLOT_MAX_JOBS] = { false };
	for (size_t k = 0, first = 0; k < njobs; k++) {
		size_t cnt = n / njobs + (k < n % njobs);
		job[k] = (struct plot_job){ .scripts = scripts + first, .n = cnt, .imgs = imgs + first };
		first += cnt;
		/* The first share is drawn here; so is any a thread cannot take. */
		started[k] = k > 0 && pthread_create(&tid[k], NULL, plot_job_run, &job[k]) == 0;
	}
	for (size_t k = 0; k < njobs; k++)
		if (!started[k])
			plot_job_run(&job[k]);
	for (size_t k = 0; k < njobs; k++) {
		if (started[k])
			pthread_join(tid[k], NULL);
		drawn += job[k].drawn;
		if (!*why)
			*why = job[k].why;
		else
			free(job[k].why);
	}
	sigaction(SIGPIPE, &old, NULL);
	return drawn;
}

int plot_render(const char *script, struct plot_image *img, char **why)
{
	return plot_render_batch(&script, 1, img, why) == 1 ? 0 : -1;
}
