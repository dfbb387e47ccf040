/* Statistics of a reference trace, for `refs show`.
 *
 * - distinct pages touched;
 * - the working-set size: distinct pages in each consecutive window of W
 *   references (the last window may be shorter);
 * - the reuse (LRU stack) distance of every reference: the number of
 *   distinct other pages referenced since the previous reference to the
 *   same page; first references are "cold".  Computed exactly in
 *   O(n log n) with a Fenwick tree over positions holding a 1 at the latest
 *   reference to each page: the distance of a reference at t whose page was
 *   last seen at s is the tree's sum over (s, t).  Kept as a histogram with
 *   power-of-two buckets: bucket 0 holds distance 0, bucket b >= 1 holds
 *   [2^(b-1), 2^b - 1];
 * - the hottest pages: the most referenced, ties to the lower page. */
#ifndef VMR_STATS_H
#define VMR_STATS_H

#include <stddef.h>
#include <stdint.h>

#define REFS_REUSE_BUCKETS 34   /* distances below 2^33 */
#define REFS_STATS_MAX_REFS 0x7fffffffull

struct refs_hot {
	uint32_t page;
	uint64_t refs;
};

struct refs_stats {
	uint64_t pages, references, distinct;
	uint64_t window;            /* references per working-set window */
	size_t nwindows;
	uint64_t *ws;               /* distinct pages in each window */
	uint64_t ws_min, ws_max;
	double ws_mean;
	uint64_t cold;              /* first references */
	uint64_t reuse[REFS_REUSE_BUCKETS];
	size_t nhot;
	struct refs_hot *hot;
};

/* window 0: references / 100 rounded up (at least 1).  top: hottest pages
 * to keep.  Returns 0, or -1 after reporting (too large to analyse). */
int refs_stats_compute(const uint32_t *refs, uint64_t n, uint64_t pages, uint64_t window, size_t top,
		       struct refs_stats *st);
void refs_stats_free(struct refs_stats *st);
/* Bucket b's smallest and largest distance. */
uint64_t refs_reuse_lo(unsigned b);
uint64_t refs_reuse_hi(unsigned b);
/* The bucket of a distance. */
unsigned refs_reuse_bucket(uint64_t d);

#endif
