/* compare's verdict as a picture in a terminal: a compact bar per headline
 * metric and run against the base, the change with its 95% interval on
 * the log scale compare computes it on, the noise floor around no change,
 * the point coloured by the verdict (the report's forest plot, in text). */
#ifndef VMR_COMPARE_BARS_H
#define VMR_COMPARE_BARS_H

#include <stdio.h>

#include "stats/compare.h"

#define CMP_BARS_WIDTH 41    /* columns of a bar; the middle one is no change */

/* A heading naming the scale's ends, then a bar a row; nothing when no
 * headline cell has a ratio. */
void compare_write_bars(FILE *f, const struct comparison *cmp);

#endif
