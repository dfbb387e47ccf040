#include "core/suggest.h"

#include <string.h>

#define SUGGEST_MAX 64

size_t suggest_distance(const char *a, const char *b)
{
	size_t la = strnlen(a, SUGGEST_MAX), lb = strnlen(b, SUGGEST_MAX);
	/* three rows of the table, row i at rows[i % 3]: i, i-1 and i-2 */
	size_t rows[3][SUGGEST_MAX + 1] = { { 0 } };
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = rows[i % 3], *prev = rows[(i + 2) % 3], *prev2 = rows[(i + 1) % 3];
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (prev[j - 1] + cost < best)
				best = prev[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return rows[la % 3][lb];
}

static size_t suggest_limit(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

static int suggest_score(const char *word, const char *cand)
{
	size_t len = strlen(word);
	if (len >= 3 && !strncmp(cand, word, len))
		return 0;
	size_t d = suggest_distance(word, cand);
	return d <= suggest_limit(len) ? (int)d : -1;
}

/* stop: a NULL name ends the table (struct tables) rather than being
 * skipped (lists with holes) */
static const char *suggest_scan(const char *word, const void *base, size_t stride, size_t n, int stop)
{
	const char *best = NULL;
	int best_score = -1;
	if (!word || !*word)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *cand = *(const char *const *)(const void *)((const char *)base + i * stride);
		if (!cand) {
			if (stop)
				break;
			continue;
		}
		if (!strcmp(cand, word))
			continue;
		int s = suggest_score(word, cand);
		if (s >= 0 && (best_score < 0 || s < best_score)) {
			best = cand;
			best_score = s;
		}
	}
	return best;
}

const char *suggest_in(const char *word, const void *base, size_t stride, size_t n)
{
	return suggest_scan(word, base, stride, n, 1);
}

const char *suggest(const char *word, const char *const *cands, size_t n)
{
	return suggest_scan(word, cands, sizeof(*cands), n, 0);
}
