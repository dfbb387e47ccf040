/* compare --style lkp: a comparison laid out as lkp-tests' compare prints
 * it (each side's mean with ±%stddev, %change between them, the figure's
 * name last), LKP's mark of each change beside vmregress's verdict, and a
 * line for every cell where the two disagree saying why.  vmregress's own
 * verdict lines come first.  It formats; the LKP rule is stats/lkp.c's. */
#ifndef VMR_COMPARE_LKP_H
#define VMR_COMPARE_LKP_H

#include <stdio.h>

#include "stats/compare.h"

void compare_write_lkp(FILE *f, const struct comparison *cmp);

#endif
