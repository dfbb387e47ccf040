/* Graph scripts and gnuplot: what the script says, how maps bin, and that
 * the real gnuplot turns scripts into SVG or PNG (or says why not). */
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
	struct plot p = { 0 };
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
	struct plot e = { 0 };
	plot_init(&e, "t", "x", "y");
	CHECK(!plot_has_data(&e), "no lines, no data");
	plot_free(&e);
}

static void test_map_script(void)
{
	char pages[] = "###ss...";
	char *s = plot_map_script(pages, 8, "m", 300, 200, PLOT_SVG);
	CHECK(strstr(s, "$map << EOD\n1 1 1 2 2 0 0 0\n3 3 3 3 3 3 3 3\nEOD") != NULL, "small map: a cell per page, padded to two rows");
	free(s);
	size_t n = 300000;
	char *big = xmalloc(n);
	memset(big, '#', n);
	memset(big + n / 2, 's', n / 2);
	s = plot_map_script(big, n, "big", 300, 200, PLOT_PNG);
	CHECK(strstr(s, "8 per cell") != NULL, "a large map is binned: %s", strstr(s, "per cell") ? "ok" : "?");
	const char *data = strstr(s, "$map << EOD\n");
	size_t rows = data ? count(data, "\n") - 2 : 0;
	CHECK(rows > 0 && rows <= 256, "binned map has at most 256 rows (%zu)", rows);
	CHECK(count(s, " 2") > 0 && count(s, " 1") > 0, "both states survive binning");
	CHECK(strstr(s, "set terminal png size ") != NULL, "a PNG map asks gnuplot for PNG");
	free(s);
	free(big);
	/* Wider than the size aimed at: the figure grows so that each of the
	 * 256 cells per row has a pixel (64 + 16 pixels of margins). */
	n = 256 * 200;
	big = xmalloc(n);
	memset(big, '#', n);
	s = plot_map_script(big, n, "wide", 200, 100, PLOT_PNG);
	CHECK(strstr(s, "set terminal png size 336,") != NULL, "a map gets a pixel per cell at least");
	free(s);
	free(big);
}

/* A plot of many points (a value per page) is a raster, and drops its
 * markers; one of few points stays SVG. */
static void test_format(void)
{
	struct plot p = { 0 };
	plot_init(&p, "dense", "page", "refs");
	struct plot_line *l = plot_add_line(&p, "a", PLOT_LINESPOINTS);
	for (int i = 0; i < PLOT_SVG_MAX_POINTS; i++)
		plot_point(l, i, i % 7);
	CHECK(plot_format_of(&p) == PLOT_SVG, "%d points stay SVG", PLOT_SVG_MAX_POINTS);
	char *s = plot_script(&p);
	CHECK(strstr(s, "set terminal svg") && strstr(s, "linespoints"), "with markers");
	free(s);
	plot_point(l, PLOT_SVG_MAX_POINTS, 1);
	CHECK(plot_format_of(&p) == PLOT_PNG, "one more is PNG");
	s = plot_script(&p);
	CHECK(strstr(s, "set terminal png") && !strstr(s, "linespoints"), "without markers");
	free(s);
	plot_free(&p);
}

static void test_render(void)
{
	if (!plot_available()) {
		SKIP("gnuplot not installed: rendering not tested");
		return;
	}
	struct plot p = { 0 };
	plot_init(&p, "render", "x", "y");
	struct plot_line *l = plot_add_line(&p, "a", PLOT_STEPS);
	for (int i = 0; i < 50; i++)
		plot_point(l, i, i * i);
	char *s = plot_script(&p), *why = NULL;
	struct plot_image img = { 0 };
	CHECK(plot_render(s, &img, &why) == 0 && img.data, "gnuplot draws a plot");
	CHECK(img.format == PLOT_SVG && img.data && !strncmp(img.data, "<svg", 4) && strstr(img.data, "</svg>\n") &&
	      strstr(img.data, "<path") && img.len == strlen(img.data) && img.width == 640 && img.height == 360,
	      "the result is inline SVG with paths, 640x360");
	size_t open = count(img.data, "<g "), close = count(img.data, "</g>");
	bool empty = false;
	for (const char *g = img.data; (g = strstr(g, "<g ")); g++)
		empty |= !strncmp(strchr(g, '>'), ">\n</g>", 7);
	CHECK(open > 5 && open == close && !empty, "groups balance (%zu, %zu), none left empty", open, close);
	plot_image_free(&img);
	free(s);
	plot_free(&p);
	s = plot_map_script("##ss..", 6, "map", 300, 200, PLOT_SVG);
	CHECK(plot_render(s, &img, &why) == 0 && strstr(img.data, "image-rendering:pixelated") &&
	      strstr(img.data, "data:image/png;base64,"), "an SVG map holds a PNG image drawn as pixels");
	plot_image_free(&img);
	free(s);
	s = plot_map_script("##ss..", 6, "map", 300, 200, PLOT_PNG);
	CHECK(plot_render(s, &img, &why) == 0 && img.format == PLOT_PNG && img.len > 100 &&
	      !memcmp(img.data, "\x89PNG\r\n\x1a\n", 8) && img.width == 300 && img.height == 200 &&
	      !memcmp(img.data + img.len - 8, "IEND", 4), "a PNG map is one whole PNG file of the size asked");
	plot_image_free(&img);
	free(s);
	int rc = plot_render("plot nosuchfunction(x)\n", &img, &why);
	CHECK(rc < 0 && why && strstr(why, "undefined function") && !img.data,
	      "a bad script fails with gnuplot's reason: %s", why ? why : "");
	free(why);
	/* One gnuplot for many plots: a bad one in the middle costs only itself,
	 * and settings of one plot do not leak into the next. */
	/* SVG and PNG mix in one batch, each PNG taken whole by its chunks. */
	const char *batch[] = {
		"set terminal svg\nset output\nset logscale x\nplot [1:10] x\n",
		"set terminal svg\nset output\nplot nosuchfunction(x)\n",
		"set terminal png size 200,150\nset output\nplot [-1:1] x\n",
		"set terminal svg size 320,200\nset output\nplot [-1:1] x\n",
	};
	struct plot_image imgs[4] = { 0 };
	size_t drawn = plot_render_batch(batch, 4, imgs, &why);
	CHECK(drawn == 3 && imgs[0].data && !imgs[1].data && imgs[2].data && imgs[3].data,
	      "a batch draws all but the bad plot (%zu)", drawn);
	CHECK(why && strstr(why, "undefined function"), "and says why the bad one failed");
	CHECK(imgs[2].format == PLOT_PNG && imgs[2].width == 200 && imgs[2].height == 150, "a PNG amid SVGs");
	CHECK(imgs[3].data && imgs[3].format == PLOT_SVG && strstr(imgs[3].data, "width=\"320\"") &&
	      strstr(imgs[3].data, "-1") && imgs[3].width == 320,
	      "the plot after a log-scale one is drawn linear, at its own size");
	for (int i = 0; i < 4; i++)
		plot_image_free(&imgs[i]);
	free(why);
	/* A large batch is shared among several gnuplots: each image still
	 * lands in its own slot, and a bad script costs only itself. */
	enum { BIG = 70 };
	char *big[BIG];
	struct plot_image bimgs[BIG] = { 0 };
	for (int i = 0; i < BIG; i++)
		big[i] = i == 40 ? xstrdup("set terminal svg\nset output\nplot nosuchfunction(x)\n")
				 : xasprintf("set terminal %s size %d,100\nset output\nplot x\n", i % 3 ? "svg" : "png",
					     200 + i);
	drawn = plot_render_batch((const char *const *)big, BIG, bimgs, &why);
	size_t right = 0;
	for (int i = 0; i < BIG; i++)
		right += i != 40 && bimgs[i].width == (unsigned)(200 + i) &&
			 bimgs[i].format == (i % 3 ? PLOT_SVG : PLOT_PNG);
	CHECK(drawn == BIG - 1 && right == BIG - 1 && !bimgs[40].data, "a batch of %d: each image in its slot (%zu)",
	      BIG, right);
	CHECK(why && strstr(why, "undefined function"), "and the bad one's reason");
	for (int i = 0; i < BIG; i++) {
		plot_image_free(&bimgs[i]);
		free(big[i]);
	}
	free(why);
	setenv("VMR_GNUPLOT", "/nonexistent/gnuplot", 1);
	CHECK(!plot_available(), "a missing gnuplot is noticed");
	why = NULL;
	rc = plot_render("plot x\n", &img, &why);
	CHECK(rc < 0 && why && strstr(why, "cannot run"), "a missing gnuplot fails with a reason: %s", why ? why : "");
	free(why);
	unsetenv("VMR_GNUPLOT");
}

int main(void)
{
	test_script();
	test_map_script();
	test_format();
	test_render();
	T_DONE();
}
