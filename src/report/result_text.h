/* One result as text: `vmregress test`'s report. */
#ifndef VMR_RESULT_TEXT_H
#define VMR_RESULT_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/result.h"

/* The workload's own layout (report/workload_text.h) when it has one and
 * its result came back (info "workload_result" not false), else the
 * generic layout; then the "Inside the kernel" section of the trace and
 * profile hooks (nothing when they added nothing); with maps each pass's
 * present/swapped map, with seed_map the last one in the seed's encoding.
 * Reads r only. */
void result_text(FILE *f, const struct result *r, bool maps, bool seed_map);

#endif
