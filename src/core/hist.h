/* A log-linear latency histogram, in the manner of fio's.
 *
 * Values (nanoseconds, or any non-negative integer) below 2^SUB_BITS get a
 * bucket each.  Above that, each power of two [2^m, 2^(m+1)) is split into
 * 2^SUB_BITS equal buckets, so a bucket is never wider than 1/128 of its
 * lower bound: reporting a bucket's midpoint is within 0.4% of any value in
 * it, well under the 1% the measurements need.  Recording is one clz, a
 * shift and an increment: cheap enough for a per-page fault loop.
 * Percentiles are computed after the run from the raw buckets, which are
 * what the store keeps, so any percentile can be recomputed later. */
#ifndef VMR_HIST_H
#define VMR_HIST_H

#include <jansson.h>
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count, sum, min, max;
	uint64_t b[HIST_BUCKETS];
};

static inline unsigned hist_index(uint64_t v)
{
	if (v < HIST_SUB)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned shift = msb - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB + (unsigned)((v >> shift) - HIST_SUB);
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->b[hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

struct hist *hist_new(void);
/* A new histogram holding a stored header (its buckets still to add):
 * count, sum, min (ignored when count is 0: no minimum) and max. */
struct hist *hist_with_header(uint64_t count, uint64_t sum, uint64_t min, uint64_t max);
void hist_reset(struct hist *h);
void hist_merge(struct hist *dst, const struct hist *src);
/* Lower bound and width of bucket i. */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_width(unsigned i);
/* The p-th percentile (0 < p <= 100), as a bucket midpoint clamped to
 * [min, max].  0 when empty. */
double hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);
/* The share of values at or above v, in percent (0 when empty).  The
 * bucket holding v counts whole: values of it just below v (less than
 * 1/128 of v below) count too. */
double hist_share_from(const struct hist *h, uint64_t v);
/* Sparse JSON: {"count":..,"sum":..,"min":..,"max":..,"buckets":[[i,n],...]} */
json_t *hist_to_json(const struct hist *h);
/* Returns NULL (and says nothing) on malformed input. */
struct hist *hist_from_json(const json_t *j);

#endif
