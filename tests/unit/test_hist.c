/* The log-linear histogram: bucket bounds, error under 1%, percentiles,
 * and the JSON round trip the store relies on. */
#include <stdlib.h>

#include "core/hist.h"
#include "t.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(void)
{
	/* Every value maps into a bucket whose bounds contain it. */
	int bad = 0;
	uint64_t probe[] = { 0, 1, 127, 128, 129, 255, 256, 257, 1000, 4095, 4096, 123456789, 1ull << 40, UINT64_MAX };
	for (size_t i = 0; i < sizeof(probe) / sizeof(probe[0]); i++) {
		unsigned idx = hist_index(probe[i]);
		uint64_t lo = hist_bucket_low(idx), w = hist_bucket_width(idx);
		if (idx >= HIST_BUCKETS || probe[i] < lo || probe[i] - lo >= w)
			bad++;
	}
	CHECK(bad == 0, "values fall inside their bucket bounds");

	/* Relative bucket width under 1% everywhere above the exact range. */
	double worst = 0;
	for (unsigned i = HIST_SUB; i < HIST_BUCKETS; i++) {
		double rel = (double)hist_bucket_width(i) / (double)hist_bucket_low(i);
		if (rel > worst)
			worst = rel;
	}
	CHECK(worst <= 1.0 / 128 + 1e-12, "bucket width is at most 1/128 of its value (%.4f%%)", worst * 100);

	/* Percentiles agree with exact ones on random data within 1%. */
	struct hist *h = hist_new();
	enum { N = 100000 };
	uint64_t *v = malloc(N * sizeof(*v));
	uint64_t x = 88172645463325252ull;
	for (int i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v[i] = 100 + x % 10000000;
		hist_add(h, v[i]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	const double ps[] = { 50, 90, 99, 99.9 };
	for (size_t i = 0; i < 4; i++) {
		double exact = (double)v[(size_t)(ps[i] / 100 * N) - 1];
		double got = hist_percentile(h, ps[i]);
		CHECK(fabs(got - exact) / exact < 0.01, "p%g within 1%% (got %.0f exact %.0f)", ps[i], got, exact);
	}
	CHECK(hist_percentile(h, 100) == (double)v[N - 1], "p100 is the max");
	CHECK(h->count == N && h->min == v[0] && h->max == v[N - 1], "count, min, max");

	json_t *j = hist_to_json(h);
	struct hist *back = hist_from_json(j);
	CHECK(back && !memcmp(back, h, sizeof(*h)), "JSON round trip is exact");
	json_decref(j);
	free(back);

	json_t *broken = json_pack("{sI sI sI sI s[[II]]}", "count", 5, "sum", 1, "min", 1, "max", 1, "buckets", 99999, 1);
	CHECK(hist_from_json(broken) == NULL, "bucket index out of range refused");
	json_decref(broken);
	broken = json_pack("{sI sI sI sI s[[II]]}", "count", 5, "sum", 1, "min", 1, "max", 1, "buckets", 3, 1);
	CHECK(hist_from_json(broken) == NULL, "bucket counts that disagree with count refused");
	json_decref(broken);

	/* the share of slow values, which p99 cannot show when about 1% are */
	struct hist *s = hist_new();
	for (uint64_t k = 0; k < 990; k++)
		hist_add(s, 10000 + k);
	for (uint64_t k = 0; k < 10; k++)
		hist_add(s, 1000000 + k * 1000000);
	CHECK(fabs(hist_share_from(s, 1000000) - 1.0) < 1e-9, "1%% of values at or above 1000000 (the first of them included): %g", hist_share_from(s, 1000000));
	CHECK(hist_share_from(s, 0) == 100 && hist_share_from(s, 20000000) == 0, "all values from 0, none from above the max");
	CHECK(fabs(hist_share_from(s, 5000000) - 0.6) < 1e-9, "0.6%% from 5000000: %g", hist_share_from(s, 5000000));
	free(s);

	struct hist *e = hist_new();
	CHECK(hist_percentile(e, 50) == 0 && hist_mean(e) == 0 && hist_share_from(e, 1) == 0, "empty histogram reports 0");
	free(e);
	free(h);
	free(v);
	T_DONE();
}
