#include "core/hist.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

struct hist *hist_new(void)
{
	struct hist *h = xmalloc(sizeof(*h));
	hist_reset(h);
	return h;
}

void hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_bucket_low(unsigned i)
{
	if (i < HIST_SUB)
		return i;
	unsigned shift = i / HIST_SUB - 1;
	return ((uint64_t)HIST_SUB + i % HIST_SUB) << shift;
}

uint64_t hist_bucket_width(unsigned i)
{
	return i < HIST_SUB ? 1 : 1ull << (i / HIST_SUB - 1);
}

double hist_percentile(const struct hist *h, double p)
{
	if (!h->count)
		return 0;
	if (p >= 100)
		return (double)h->max;
	double want = p / 100.0 * (double)h->count;
	uint64_t seen = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (h->b[i] && (double)seen >= want) {
			double mid = (double)hist_bucket_low(i) + (double)(hist_bucket_width(i) - 1) / 2.0;
			if (mid < (double)h->min)
				mid = (double)h->min;
			if (mid > (double)h->max)
				mid = (double)h->max;
			return mid;
		}
	}
	return (double)h->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

double hist_share_from(const struct hist *h, uint64_t v)
{
	if (!h->count)
		return 0;
	uint64_t n = 0;
	for (unsigned i = hist_index(v); i < HIST_BUCKETS; i++)
		n += h->b[i];
	return 100.0 * (double)n / (double)h->count;
}

json_t *hist_to_json(const struct hist *h)
{
	json_t *b = json_array();
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		if (h->b[i])
			json_array_append_new(b, json_pack("[II]", (json_int_t)i, (json_int_t)h->b[i]));
	return json_pack("{sI sI sI sI so}", "count", (json_int_t)h->count, "sum", (json_int_t)h->sum,
			 "min", (json_int_t)(h->count ? h->min : 0), "max", (json_int_t)h->max, "buckets", b);
}

struct hist *hist_with_header(uint64_t count, uint64_t sum, uint64_t min, uint64_t max)
{
	struct hist *h = hist_new();
	h->count = count;
	h->sum = sum;
	h->min = count ? min : UINT64_MAX;
	h->max = max;
	return h;
}

struct hist *hist_from_json(const json_t *j)
{
	json_int_t count, sum, min, max;
	json_t *b;
	if (json_unpack((json_t *)j, "{sI sI sI sI so}", "count", &count, "sum", &sum, "min", &min, "max",
			&max, "buckets", &b) < 0 || !json_is_array(b) || count < 0)
		return NULL;
	struct hist *h = hist_with_header((uint64_t)count, (uint64_t)sum, (uint64_t)min, (uint64_t)max);
	size_t i;
	json_t *e;
	uint64_t total = 0;
	json_array_foreach(b, i, e) {
		json_int_t idx, n;
		if (json_unpack(e, "[II]", &idx, &n) < 0 || idx < 0 || idx >= HIST_BUCKETS || n < 0) {
			free(h);
			return NULL;
		}
		h->b[idx] += (uint64_t)n;
		total += (uint64_t)n;
	}
	if (total != h->count) {
		free(h);
		return NULL;
	}
	return h;
}
