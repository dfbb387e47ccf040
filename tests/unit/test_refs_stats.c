/* `refs show` statistics against a brute-force computation on small
 * traces: distinct pages, working sets per window, every reuse distance
 * (O(n^2) scan back for the previous reference, counting distinct pages),
 * and the hottest pages. */
#include <stdlib.h>

#include "refs/gen.h"
#include "refs/stats.h"
#include "t.h"

struct brute {
	uint64_t distinct, cold, reuse[REFS_REUSE_BUCKETS];
	uint64_t *ws;
	uint64_t *count;
};

static void brute(const uint32_t *v, uint64_t n, uint64_t pages, uint64_t window, struct brute *b)
{
	memset(b, 0, sizeof(*b));
	b->count = calloc(pages, 8);
	b->ws = calloc(n / window + 2, 8);
	char *seen = calloc(pages, 1);
	for (uint64_t t = 0; t < n; t++) {
		b->count[v[t]]++;
		if (!seen[v[t]]) {
			seen[v[t]] = 1;
			b->distinct++;
		}
		/* reuse distance: distinct pages strictly between the previous
		 * reference to v[t] and t */
		char *between = calloc(pages, 1);
		uint64_t d = 0;
		int64_t s;
		for (s = (int64_t)t - 1; s >= 0 && v[s] != v[t]; s--)
			if (!between[v[s]]) {
				between[v[s]] = 1;
				d++;
			}
		if (s < 0)
			b->cold++;
		else
			b->reuse[refs_reuse_bucket(d)]++;
		free(between);
	}
	for (uint64_t w = 0; w * window < n; w++) {
		char *in = calloc(pages, 1);
		for (uint64_t t = w * window; t < n && t < (w + 1) * window; t++)
			if (!in[v[t]]) {
				in[v[t]] = 1;
				b->ws[w]++;
			}
		free(in);
	}
	free(seen);
}

static void compare(const char *name, const uint32_t *v, uint64_t n, uint64_t pages, uint64_t window)
{
	struct brute b = { 0 };
	struct refs_stats st = { 0 };
	brute(v, n, pages, window, &b);
	CHECK(refs_stats_compute(v, n, pages, window, 5, &st) == 0, "%s: statistics computed", name);
	CHECK_EQ_U(st.distinct, b.distinct, "%s: distinct pages", name);
	CHECK_EQ_U(st.cold, b.cold, "%s: cold references", name);
	CHECK(!memcmp(st.reuse, b.reuse, sizeof(b.reuse)), "%s: every reuse-distance bucket", name);
	int ws_ok = st.nwindows == (n + window - 1) / window;
	for (size_t w = 0; ws_ok && w < st.nwindows; w++)
		ws_ok = st.ws[w] == b.ws[w];
	CHECK(ws_ok, "%s: working set of every window", name);
	int hot_ok = st.nhot == (b.distinct < 5 ? b.distinct : 5);
	for (size_t i = 0; hot_ok && i < st.nhot; i++) {
		/* brute force: the i-th hottest, ties to the lower page */
		uint64_t best = UINT64_MAX, cnt = 0;
		for (uint64_t p = 0; p < pages; p++)
			if (b.count[p] > cnt) {
				cnt = b.count[p];
				best = p;
			}
		hot_ok = st.hot[i].page == best && st.hot[i].refs == cnt;
		b.count[best] = 0;
	}
	CHECK(hot_ok, "%s: hottest pages in order", name);
	refs_stats_free(&st);
	free(b.ws);
	free(b.count);
}

int main(void)
{
	uint32_t fixed[] = { 0, 1, 2, 0, 0, 3, 1, 2, 3, 3 };
	struct refs_stats st = { 0 };
	CHECK(refs_stats_compute(fixed, 10, 4, 4, 2, &st) == 0, "hand example computes");
	/* distances: 0@3 -> {1,2}=2, 0@4 -> 0, 1@6 -> {2,0,3}=3, 2@7 -> {0,3,1}=3,
	 * 3@8 -> {1,2}=2, 3@9 -> 0 */
	CHECK(st.cold == 4 && st.reuse[0] == 2 && st.reuse[2] == 4 && st.distinct == 4,
	      "hand example: reuse distances 0,0,2,2,3,3 and 4 cold");
	CHECK(st.nwindows == 3 && st.ws[0] == 3 && st.ws[1] == 4 && st.ws[2] == 1, "hand example: working sets 3,4,1");
	CHECK(st.hot[0].page == 0 && st.hot[0].refs == 3 && st.hot[1].page == 3, "hand example: hottest are 0 then 3");
	refs_stats_free(&st);

	struct refs_params p = { 0 };
	refs_params_default(&p);
	p.phases = "random:1,smooth_sin:1";
	for (int pat = 0; pat < REFS_NPATTERNS; pat++) {
		uint32_t v[1500];
		uint64_t pages = pat == REFS_ZIPF ? 40 : 97;
		refs_generate(v, pages, 1500, pat, &p, 5);
		compare(refs_pattern_name(pat), v, 1500, pages, 64);
	}
	uint32_t one[1] = { 3 };
	CHECK(refs_stats_compute(one, 1, 4, 0, 10, &st) == 0 && st.window == 1 && st.cold == 1 && st.nhot == 1,
	      "a single reference");
	refs_stats_free(&st);
	T_DONE();
}
