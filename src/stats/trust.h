/* Inside stats/: what the runs compared record that can move their figures
 * without the change compared, for the verdict's trust warnings (data; the
 * formatters word them). */
#ifndef VMR_STATS_TRUST_H
#define VMR_STATS_TRUST_H

#include "stats/compare.h"

void compare_trust(struct comparison *cmp, const struct compare_opts *o);
void compare_trust_free(struct comparison *cmp);

#endif
