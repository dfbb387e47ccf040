#include "refs/stats.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "refs/trace.h"

uint64_t refs_reuse_lo(unsigned b)
{
	return b ? 1ull << (b - 1) : 0;
}

uint64_t refs_reuse_hi(unsigned b)
{
	return b ? (1ull << b) - 1 : 0;
}

unsigned refs_reuse_bucket(uint64_t d)
{
	return d ? 64u - (unsigned)__builtin_clzll(d) : 0;
}

static void *stats_calloc(size_t n, size_t size, const char *what)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		vmr_errno("cannot allocate %zu bytes for the %s", n * size, what);
	return p;
}

/* Fenwick tree over positions 1..n. */
static void fenwick_add(int32_t *t, uint64_t n, uint64_t i, int32_t v)
{
	for (; i <= n; i += i & -i)
		t[i] += v;
}

static uint64_t fenwick_sum(const int32_t *t, uint64_t i)
{
	int64_t s = 0;
	for (; i; i -= i & -i)
		s += t[i];
	return (uint64_t)s;
}

static int stats_reuse(const uint32_t *refs, uint64_t n, uint64_t pages, struct refs_stats *st)
{
	uint32_t *last = stats_calloc(pages, sizeof(*last), "last-reference table");
	int32_t *tree = stats_calloc(n + 1, sizeof(*tree), "reuse-distance tree");
	if (!last || !tree) {
		free(last);
		free(tree);
		return -1;
	}
	for (uint64_t t = 1; t <= n; t++) {
		uint32_t p = refs_at(refs, t - 1);
		uint64_t s = last[p];
		if (!s) {
			st->cold++;
			st->distinct++;
		} else {
			uint64_t d = fenwick_sum(tree, t - 1) - fenwick_sum(tree, s);
			st->reuse[refs_reuse_bucket(d)]++;
			fenwick_add(tree, n, s, -1);
		}
		fenwick_add(tree, n, t, 1);
		last[p] = (uint32_t)t;
	}
	free(tree);
	free(last);
	return 0;
}

static int stats_working_set(const uint32_t *refs, uint64_t n, uint64_t pages, struct refs_stats *st)
{
	uint32_t *stamp = stats_calloc(pages, sizeof(*stamp), "working-set table");
	if (!stamp)
		return -1;
	st->nwindows = n ? (size_t)((n + st->window - 1) / st->window) : 0;
	st->ws = xcalloc(st->nwindows ? st->nwindows : 1, sizeof(*st->ws));
	for (uint64_t i = 0; i < n; i++) {
		size_t w = (size_t)(i / st->window);
		uint32_t p = refs_at(refs, i);
		if (stamp[p] != w + 1) {
			stamp[p] = (uint32_t)(w + 1);
			st->ws[w]++;
		}
	}
	free(stamp);
	double sum = 0;
	st->ws_min = st->nwindows ? UINT64_MAX : 0;
	for (size_t w = 0; w < st->nwindows; w++) {
		sum += (double)st->ws[w];
		st->ws_min = st->ws[w] < st->ws_min ? st->ws[w] : st->ws_min;
		st->ws_max = st->ws[w] > st->ws_max ? st->ws[w] : st->ws_max;
	}
	st->ws_mean = st->nwindows ? sum / (double)st->nwindows : 0;
	return 0;
}

static int hot_before(const struct refs_hot *a, const struct refs_hot *b)
{
	return a->refs > b->refs || (a->refs == b->refs && a->page < b->page);
}

static int stats_hottest(const uint32_t *refs, uint64_t n, uint64_t pages, size_t top, struct refs_stats *st)
{
	uint32_t *count = stats_calloc(pages, sizeof(*count), "reference counts");
	if (!count)
		return -1;
	for (uint64_t i = 0; i < n; i++)
		count[refs_at(refs, i)]++;
	st->hot = xcalloc(top ? top : 1, sizeof(*st->hot));
	for (uint64_t p = 0; p < pages; p++) {
		if (!count[p])
			continue;
		struct refs_hot h = { (uint32_t)p, count[p] };
		if (st->nhot == top && (!top || !hot_before(&h, &st->hot[top - 1])))
			continue;
		size_t i = st->nhot < top ? st->nhot++ : top - 1;
		while (i > 0 && hot_before(&h, &st->hot[i - 1])) {
			st->hot[i] = st->hot[i - 1];
			i--;
		}
		st->hot[i] = h;
	}
	free(count);
	return 0;
}

int refs_stats_compute(const uint32_t *refs, uint64_t n, uint64_t pages, uint64_t window, size_t top,
		       struct refs_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->pages = pages;
	st->references = n;
	if (n > REFS_STATS_MAX_REFS) {
		vmr_err("a trace of %llu references is too large to analyse (at most %llu)",
			(unsigned long long)n, REFS_STATS_MAX_REFS);
		return -1;
	}
	st->window = window ? window : (n + 99) / 100;
	if (!st->window)
		st->window = 1;
	if (stats_reuse(refs, n, pages, st) < 0 || stats_working_set(refs, n, pages, st) < 0 ||
	    stats_hottest(refs, n, pages, top, st) < 0) {
		refs_stats_free(st);
		return -1;
	}
	return 0;
}

void refs_stats_free(struct refs_stats *st)
{
	free(st->ws);
	free(st->hot);
	st->ws = NULL;
	st->hot = NULL;
}
