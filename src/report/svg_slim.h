/* Gnuplot's SVGs made small for a page that holds a hundred of them.
 *
 * Gnuplot writes every tic, grid line and label as its own group, each
 * opening with the same long list of presentation attributes, and every
 * SVG with the same <defs> of point shapes.  In a report those repeats
 * were two thirds of the page.  svg_slim rewrites one SVG so that it draws
 * the same inside the page:
 *
 * - a group's attributes but its transform become a class ("g3"), whose
 *   CSS rule svg_slim_css writes once for the page (CSS properties are the
 *   presentation attributes, with the same inheritance);
 *   stroke-linecap="butt" and stroke-linejoin="miter" are SVG's defaults
 *   and gnuplot never nests a group that sets them otherwise, so they go;
 * - <defs> equal to the first SVG's go: svg_slim_defs writes that copy once
 *   at the top of the page, where every <use> finds it by its id;
 * - <title>, <desc>, gnuplot's element ids (the same in every SVG, so
 *   duplicate ids in a page) and the line breaks between tags go;
 * - numbers with two decimals keep one: a tenth of a pixel.
 *
 * A group with an attribute this does not know stays as gnuplot wrote it.
 * Standalone SVG files (plot-map) are not slimmed: they have no page. */
#ifndef VMR_SVG_SLIM_H
#define VMR_SVG_SLIM_H

#include <stddef.h>
#include <stdio.h>

#include "core/util.h"

struct svg_slim {
	struct strlist classes;   /* class "gN": its attributes, as gnuplot wrote them */
	char *defs;               /* the <defs> the page holds once, or NULL */
};

/* The slimmed copy of svg[0..len) (malloc'd, length in *outlen). */
char *svg_slim(struct svg_slim *s, const char *svg, size_t len, size_t *outlen);
/* The CSS rules of the classes svg_slim gave out. */
void svg_slim_css(FILE *f, const struct svg_slim *s);
/* The shared <defs>, in an SVG that takes no room, or nothing. */
void svg_slim_defs(FILE *f, const struct svg_slim *s);
void svg_slim_free(struct svg_slim *s);

#endif
