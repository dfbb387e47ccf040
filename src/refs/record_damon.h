/* Recording a process's references with DAMON (refs record --method damon).
 *
 * DAMON's virtual-address monitoring splits the process's mappings into
 * regions, samples one page of each region every sampling interval (here a
 * twentieth of --interval) through the page tables' accessed bits, and
 * counts, over each aggregation interval (--interval), how many samples
 * found a region accessed: nr_accesses, 0 to 20.  Regions are split and
 * merged as it goes, so that each holds pages of like hotness.  The
 * recorder reads every aggregation interval's regions through a "stat"
 * scheme (which does nothing to the memory) and clips them to the process's
 * mappings (/proc/PID/maps), so that holes between mappings are no pages.
 *
 * The trace: the region is every page found accessed at least once; each
 * interval adds, for k = 1 up to the highest nr_accesses of that interval,
 * every page of each region whose nr_accesses is at least k, in address
 * order.  A region found accessed in 12 of 20 samples is so referenced 12
 * times, and the order within an interval is lost: what DAMON can see is a
 * page's share of accesses per interval, at the granularity of its regions
 * (a region is reported whole even where only part of it was touched).
 *
 * DAMON is host state: sandbox/damonctl.h says what may be used and how it
 * is put back. */
#ifndef VMR_RECORD_DAMON_H
#define VMR_RECORD_DAMON_H

#include <stddef.h>
#include <stdint.h>

#include "refs/record.h"
#include "refs/trace.h"

/* A trace past this many references stops the recording (a 1 GiB body). */
#define REFS_DAMON_MAX_REFERENCES (1ull << 28)

/* One region of one aggregation interval, in pages. */
struct refs_damon_region {
	uint64_t first, last;    /* page numbers (address / page size); last exclusive */
	uint32_t nr_accesses;
	uint32_t interval;       /* which aggregation interval, counting from 0 */
};

/* Build the trace of regions r (grouped by interval, ascending; in address
 * order within one) into out, with h's description, page size and flags;
 * pages and references are set here.  0; -1 when no region was accessed;
 * -2 when it is too large for a trace. */
int refs_damon_build(const struct refs_damon_region *r, size_t n, const struct refs_header *h,
		     struct refs_out *out);

/* One region of one aggregation interval, as DAMON reports it. */
struct refs_damon_sample {
	uint64_t start, end;     /* virtual addresses, end exclusive */
	uint32_t nr_accesses;
};

/* Where the regions come from (a kdamond: sandbox/damonctl.h, wired by the
 * command): next() waits for the next aggregation interval and gives its
 * regions in address order in *v (malloc'd, *n of them).  It returns 0; 1
 * when the monitoring has ended (the process exited); -2 after reporting
 * an error. */
struct refs_damon_source {
	int (*next)(void *ctx, struct refs_damon_sample **v, size_t *n);
	void *ctx;
};

/* Record cfg->pid from src for cfg->duration_ns.  Returns as refs_record
 * does (DAMON itself is the caller's to set up and put back). */
int refs_record_damon(const struct refs_record_cfg *cfg, const struct refs_damon_source *src,
		      struct refs_out *out);

#endif
