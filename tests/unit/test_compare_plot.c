/* Graph scripts and gnuplot: what the script says, how maps bin, and that
 * the real gnuplot turns scripts into SVG (or says why not). */
#include <stdlib.h>

#include "core/util.h"
#include "report/plot.h"
#include "t.h"

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_script(void)
{
	struct plot p;
	plot_init(&p, "it's a title", "pass", "time_ns");
	struct plot_line *a = plot_add_line(&p, "pc3", PLOT_LINESPOINTS);
	plot_point(a, 0, 10);
	plot_point(a, 1, 20);
	plot_point(a, 2, NAN);
	struct plot_line *b = plot_add_line(&p, "empty", PLOT_LINES);
	(void)b;
	CHECK(plot_has_data(&p), "a line with finite points has data");
	double lo, hi;
	plot_yrange(&p, &lo, &hi);
	CHECK(lo == 10 && hi == 20, "y range skips NAN");
	p.yfixed = true;
	p.ymin = 0;
	p.ymax = 30;
	char *s = plot_script(&p);
	CHECK(strstr(s, "set title 'it''s a title'") != NULL, "quotes are doubled in titles");
	CHECK(strstr(s, "set yrange [0:30]") != NULL, "a fixed y range is kept");
	CHECK(strstr(s, "$d0 << EOD\n0 10\n1 20\nEOD\n") != NULL, "data inline, NAN dropped");
	CHECK(count(s, "title 'pc3'") == 1 && !strstr(s, "title 'empty'"), "an empty line is not plotted");
	CHECK(strstr(s, "set xtics 1") != NULL, "whole-number x gets a tic each");
	free(s);
	p.logx = true;
	plot_point(a, 0.5, 5);
	s = plot_script(&p);
	CHECK(strstr(s, "set logscale x") && !strstr(s, "\n0 10\n"), "log x drops x <= 0");
	free(s);
	plot_free(&p);
	struct plot e;
	plot_init(&e, "t", "x", "y");
	CHECK(!plot_has_data(&e), "no lines, no data");
	plot_free(&e);
}

static void test_map_script(void)
{
	char pages[] = "###ss...";
	char *s = plot_map_script(pages, 8, "m", 300, 200);
	CHECK(strstr(s, "$map << EOD\n1 1 1 2 2 0 0 0\n3 3 3 3 3 3 3 3\nEOD") != NULL, "small map: a cell per page, padded to two rows");
	free(s);
	size_t n = 300000;
	char *big = xmalloc(n);
	memset(big, '#', n);
	memset(big + n / 2, 's', n / 2);
	s = plot_map_script(big, n, "big", 300, 200);
	CHECK(strstr(s, "8 per cell") != NULL, "a large map is binned: %s", strstr(s, "per cell") ? "ok" : "?");
	const char *data = strstr(s, "$map << EOD\n");
	size_t rows = data ? count(data, "\n") - 2 : 0;
	CHECK(rows > 0 && rows <= 256, "binned map has at most 256 rows (%zu)", rows);
	CHECK(count(s, " 2") > 0 && count(s, " 1") > 0, "both states survive binning");
	free(s);
	free(big);
}

static void test_render(void)
{
	if (!plot_available()) {
		SKIP("gnuplot not installed: rendering not tested");
		return;
	}
	struct plot p;
	plot_init(&p, "render", "x", "y");
	struct plot_line *l = plot_add_line(&p, "a", PLOT_STEPS);
	for (int i = 0; i < 50; i++)
		plot_point(l, i, i * i);
	char *s = plot_script(&p), *svg = NULL, *why = NULL;
	CHECK(plot_render(s, &svg, &why) == 0 && svg, "gnuplot draws a plot");
	CHECK(svg && !strncmp(svg, "<svg", 4) && strstr(svg, "</svg>\n") && strstr(svg, "<path"),
	      "the result is inline SVG with paths");
	free(svg);
	free(s);
	plot_free(&p);
	s = plot_map_script("##ss..", 6, "map", 300, 200);
	CHECK(plot_render(s, &svg, &why) == 0 && strstr(svg, "image-rendering:pixelated") &&
	      strstr(svg, "data:image/png;base64,"), "a map is an inline PNG image drawn as pixels");
	free(svg);
	free(s);
	int rc = plot_render("plot nosuchfunction(x)\n", &svg, &why);
	CHECK(rc < 0 && why && strstr(why, "undefined function") && !svg,
	      "a bad script fails with gnuplot's reason: %s", why ? why : "");
	free(why);
	/* One gnuplot for many plots: a bad one in the middle costs only itself,
	 * and settings of one plot do not leak into the next. */
	const char *batch[] = {
		"set terminal svg\nset output\nset logscale x\nplot [1:10] x\n",
		"set terminal svg\nset output\nplot nosuchfunction(x)\n",
		"set terminal svg size 320,200\nset output\nplot [-1:1] x\n",
	};
	char *svgs[3];
	size_t drawn = plot_render_batch(batch, 3, svgs, &why);
	CHECK(drawn == 2 && svgs[0] && !svgs[1] && svgs[2], "a batch draws all but the bad plot (%zu)", drawn);
	CHECK(why && strstr(why, "undefined function"), "and says why the bad one failed");
	CHECK(svgs[2] && strstr(svgs[2], "width=\"320\"") && strstr(svgs[2], "-1"),
	      "the plot after a log-scale one is drawn linear, at its own size");
	for (int i = 0; i < 3; i++)
		free(svgs[i]);
	free(why);
	setenv("VMR_GNUPLOT", "/nonexistent/gnuplot", 1);
	CHECK(!plot_available(), "a missing gnuplot is noticed");
	why = NULL;
	rc = plot_render("plot x\n", &svg, &why);
	CHECK(rc < 0 && why && strstr(why, "cannot run"), "a missing gnuplot fails with a reason: %s", why ? why : "");
	free(why);
	unsetenv("VMR_GNUPLOT");
}

int main(void)
{
	test_script();
	test_map_script();
	test_render();
	T_DONE();
}
