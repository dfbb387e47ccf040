/* Gnuplot's SVGs made small for the report: groups' attributes become
 * classes with the same CSS, the shared <defs> are held once, and nothing
 * a reader sees changes (labels, transforms, what a group does not let go). */
#include <stdlib.h>

#include "report/svg_slim.h"
#include "t.h"

static const char svg_a[] =
	"<svg \n width=\"560\" height=\"320\"\n xmlns=\"http://www.w3.org/2000/svg\"\n>\n\n"
	"<title>Gnuplot</title>\n<desc>Produced by GNUPLOT 5.4 patchlevel 4 </desc>\n\n"
	"<g id=\"gnuplot_canvas\">\n"
	"<defs>\n\t<circle id='gpDot' r='0.5'/>\n</defs>\n"
	"<g fill=\"none\" color=\"gray\" stroke=\"currentColor\" stroke-width=\"0.50\" stroke-linecap=\"butt\" "
	"stroke-linejoin=\"miter\">\n\t<path stroke='gray' d='M51.10,168.25 L536.92,168.20  '/></g>\n"
	"\t<g transform=\"translate(43.41,171.78)\" stroke=\"none\" fill=\"black\" font-family=\"sans\" "
	"font-size=\"11.00\"  text-anchor=\"end\">\n\t\t<text>0.25 x</text>\n\t</g>\n"
	"<g fill=\"none\" stroke-linecap=\"round\">\n</g>\n"
	"<g fill=\"none\" color=\"gray\" stroke=\"currentColor\" stroke-width=\"0.50\" stroke-linecap=\"butt\" "
	"stroke-linejoin=\"miter\">\n\t<use xlink:href='#gpDot' x='1.5' y='1.330'/></g>\n"
	"</g>\n</svg>\n";

int main(void)
{
	struct svg_slim s = { 0 };
	size_t n = 0;
	char *out = svg_slim(&s, svg_a, sizeof(svg_a) - 1, &n);
	CHECK(out && n == strlen(out) && n < sizeof(svg_a) - 1, "the copy is shorter (%zu of %zu bytes)", n,
	      sizeof(svg_a) - 1);
	CHECK(!strstr(out, "<title>") && !strstr(out, "<desc>") && !strstr(out, "gnuplot_canvas"),
	      "title, description and gnuplot's ids go");
	CHECK(!strstr(out, "<defs>") && s.defs && strstr(s.defs, "gpDot"), "the first <defs> is held for the page");
	CHECK(strstr(out, "<g class=\"g0\"><path") && strstr(out, "<g class=\"g0\"><use"),
	      "equal groups share one class, and lose their line breaks");
	CHECK(s.classes.n == 2, "two classes for two kinds of group (%zu)", s.classes.n);
	CHECK(strstr(out, "<g transform=\"translate(43.4,171.7)\" class=\"g1\"><text>0.25 x</text>"),
	      "a transform stays on its group, rounded to a tenth; a label's text is untouched");
	CHECK(strstr(out, "d='M51.1,168.2 L536.9,168.2  '") && strstr(out, "x='1.5' y='1.330'"),
	      "two decimals keep one, other numbers stay");
	CHECK(strstr(out, "<g fill=\"none\" stroke-linecap=\"round\">"),
	      "a group setting what SVG does not default to stays as written");

	char *css = NULL;
	size_t clen = 0;
	FILE *f = open_memstream(&css, &clen);
	svg_slim_css(f, &s);
	svg_slim_defs(f, &s);
	fclose(f);
	CHECK(strstr(css, ".g0{fill:none;color:gray;stroke:currentColor;stroke-width:0.50px;}"),
	      "a class's rule is its attributes, lengths in px: %s", css);
	CHECK(strstr(css, "font-size:11.00px;text-anchor:end;}"), "font sizes in px");
	CHECK(strstr(css, "<svg width=\"0\" height=\"0\"") && strstr(css, "gpDot"), "the shared shapes are written once");

	/* a second SVG with other <defs> keeps its own */
	static const char svg_b[] = "<svg><defs><circle id='gpDot' r='0.7'/></defs><g fill=\"none\"></g></svg>";
	char *out2 = svg_slim(&s, svg_b, sizeof(svg_b) - 1, &n);
	CHECK(strstr(out2, "<defs><circle id='gpDot' r='0.7'/></defs>"), "other <defs> stay in their SVG");
	CHECK(strstr(out2, "<g class=\"g2\"></g>"), "a new kind of group gets the next class");
	free(out);
	free(out2);
	free(css);
	svg_slim_free(&s);
	T_DONE();
}
