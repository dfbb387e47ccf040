/* The text layouts of the workloads that have their own (alloc and fault
 * as the seed printed them, mmap as bench_mmap, reread as sp_tester). */
#ifndef VMR_WORKLOAD_TEXT_H
#define VMR_WORKLOAD_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "core/result.h"

/* Write the layout of r's workload (r->workload) and return true; return
 * false, writing nothing, when that workload has none.  Reads only what
 * the result holds (its outcome, info, metrics, tables and histograms), so
 * a result loaded from the store prints as it did when it was run. */
bool workload_text(FILE *f, const struct result *r);

#endif
