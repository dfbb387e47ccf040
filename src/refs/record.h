/* Recording a real process's page references by sampling.
 *
 * Every interval, the recorder learns which pages of the process were
 * referenced since the previous sample:
 *  - idle page tracking (/sys/kernel/mm/page_idle/bitmap, where the kernel
 *    has it): mark the process's present pages idle, and after the interval
 *    the pages no longer idle were read or written;
 *  - soft-dirty bits (where the kernel has them): write 4 to
 *    /proc/PID/clear_refs, and after the interval the pages whose pagemap
 *    entry has the soft-dirty bit (55) were written.  Reads of pages already
 *    present are not seen.
 *  With both, pages that became present during the interval were faulted
 *  in, hence referenced; each sample appends its referenced pages in
 *  address order.
 *  - otherwise page faults: a software perf event per thread samples every
 *    page fault with its address (PERF_SAMPLE_ADDR), in order.  Only
 *    references that fault are seen (first touches, swap-ins, refaults of
 *    reclaimed pages): that is the process's paging behaviour, which is
 *    what a replay under memory pressure exercises.
 *  - or DAMON (refs/record_damon.h, only when asked for: it changes host
 *    state for the recording's length, so the command sets it up).
 * The trace's page index is a page's rank among every page the recording
 * saw, so the replay region is as small as the pages touched.  The header
 * is flagged sampled and its description names the method: references
 * that were not seen (and, with the first two, the order within an
 * interval) are lost. */
#ifndef VMR_RECORD_H
#define VMR_RECORD_H

#include <stdint.h>
#include <sys/types.h>

#include "refs/trace.h"

enum refs_record_method {
	REFS_REC_AUTO,        /* the first that works: idle, soft-dirty, faults */
	REFS_REC_IDLE,
	REFS_REC_SOFT_DIRTY,
	REFS_REC_FAULTS,
	REFS_REC_DAMON,
};

#define REFS_REC_METHODS "auto|idle|soft-dirty|faults|damon"

struct refs_record_cfg {
	pid_t pid;
	uint64_t interval_ns, duration_ns;
	int method;           /* enum refs_record_method */
};

/* Sample the process and build the trace in out (refs_out_init is done
 * here; write it with refs_out_write).  Returns 0; -1 after reporting bad
 * input (no such process, nothing recorded); -2 after reporting that it
 * cannot run here (no privilege, no pagemap, method missing).  A process
 * that exits early ends the recording with what was sampled. */
int refs_record(const struct refs_record_cfg *cfg, struct refs_out *out);

/* One line of /proc/PID/maps: its range, unless it is an inaccessible
 * guard (---p) or [vsyscall], which no program references.  1 or 0. */
int refs_maps_vma(const char *line, uint64_t *start, uint64_t *end);

#endif
