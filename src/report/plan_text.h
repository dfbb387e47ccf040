/* `vmregress plan` for people: per headline metric the iterations a
 * variant needs, and the time (stats/plan.h computes them). */
#ifndef VMR_REPORT_PLAN_TEXT_H
#define VMR_REPORT_PLAN_TEXT_H

#include <stdio.h>

#include "stats/plan.h"

void plan_write_text(FILE *f, const struct plan *p, const char *suite, const char *from);

#endif
