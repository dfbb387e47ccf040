/* Inside stats/: what the runs compared record that can move their figures
 * without the change compared, for the verdict's trust warnings (data; the
 * formatters word them).  It reads the runs, their labels, the tally and
 * the options, and fills cmp->trust; it calls nothing of compare.c
 * (cmp_model.h is all it builds on). */
#ifndef VMR_STATS_TRUST_H
#define VMR_STATS_TRUST_H

#include "stats/cmp_model.h"

/* The runner's share of the host's CPU time stolen by a hypervisor (percent,
 * per iteration): a condition of the host, not a measure of the workload,
 * and 0 wherever nothing was stolen. */
#define CMP_STEAL_METRIC "host-steal"

void compare_trust(struct comparison *cmp, const struct compare_opts *o);
void compare_trust_free(struct comparison *cmp);

#endif
