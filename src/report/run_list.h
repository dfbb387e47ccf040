/* The stored runs as `vmregress list` shows them: one row a run, newest
 * first as the store returns them.  cmd/list.c reads and filters. */
#ifndef VMR_REPORT_RUN_LIST_H
#define VMR_REPORT_RUN_LIST_H

#include <stddef.h>

#include "store/store.h"

void run_list_text(const struct run_info *runs, size_t n);

#endif
