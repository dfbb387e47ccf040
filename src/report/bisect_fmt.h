/* A bisection's result (stats/bisect.h) for people and as JSON: the answer
 * and its error bound first, then the references, the confirmation and
 * every step with its figures; JSON names each candidate by its series
 * line (the kernel and the command line as given). */
#ifndef VMR_BISECT_FMT_H
#define VMR_BISECT_FMT_H

#include <jansson.h>
#include <stdio.h>

#include "report/plot.h"
#include "stats/bisect.h"

void bisect_text(FILE *f, const struct bisect_result *r);
/* The one line that says why there is nothing to bisect, or NULL when
 * there is something: "nothing to bisect: good and bad do not differ on
 * METRIC (could have seen >= X%)" (malloc'd). */
char *bisect_nothing_line(const struct bisect_result *r);
json_t *bisect_json(const struct bisect_result *r);

/* For the HTML report (report_opts.lead_html, lead_plot): the text above
 * as a page section, and the metric along the series (x the candidates'
 * positions) with the references' 95% bands dashed, each step's figure and
 * interval by its decision, and the first bad marked.  Free p with
 * plot_free. */
void bisect_html(FILE *f, const struct bisect_result *r);
void bisect_plot(const struct bisect_result *r, struct plot *p);

#endif
