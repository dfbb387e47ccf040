/* pagemap_count against a plain loop that counts one entry at a time, by
 * the rules pagemap.h states.  pagemap_count takes a short cut when every
 * entry of a chunk carries the same flags (a THP's 512 entries, pages
 * touched alike) and sums vectors otherwise; each case below guards one
 * way the two could part: a lone entry that differs hiding in a vector
 * lane or in the scalar tail, or a flag the short cut reads wrong. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/pagemap.h"
#include "t.h"

static void count_ref(const uint64_t *e, size_t n, enum pagemap_layout layout,
		      struct pagemap_counts *c)
{
	c->flags_known = layout == PAGEMAP_LAYOUT_CURRENT;
	for (size_t i = 0; i < n; i++) {
		bool present = e[i] & PM_PRESENT, swapped = !present && (e[i] & PM_SWAP);
		c->pages++;
		c->present += present;
		c->swapped += swapped;
		if (present && (e[i] & PM_PFN_MASK))
			c->pfn_known = true;
		if (!c->flags_known)
			continue;
		c->exclusive += present && (e[i] & PM_MMAP_EXCLUSIVE);
		c->file += (present || swapped) && (e[i] & PM_FILE);
		c->soft_dirty += (present || swapped) && (e[i] & PM_SOFT_DIRTY);
	}
}

static bool counts_equal(const struct pagemap_counts *a, const struct pagemap_counts *b)
{
	return a->pages == b->pages && a->present == b->present && a->swapped == b->swapped &&
	       a->file == b->file && a->exclusive == b->exclusive &&
	       a->soft_dirty == b->soft_dirty && a->flags_known == b->flags_known &&
	       a->pfn_known == b->pfn_known && a->thp == b->thp;
}

/* Both counts of e[0..n), and the state chars against the entries. */
static bool check_entries(const uint64_t *e, size_t n, enum pagemap_layout layout)
{
	struct pagemap_counts got = { 0 }, want = { 0 };
	char *state = malloc(n + 1);
	pagemap_count(e, n, layout, &got, state);
	count_ref(e, n, layout, &want);
	bool ok = counts_equal(&got, &want);
	for (size_t i = 0; i < n; i++)
		ok = ok && state[i] == (e[i] & PM_PRESENT ? PAGE_STATE_PRESENT :
					e[i] & PM_SWAP ? PAGE_STATE_SWAPPED : PAGE_STATE_NONE);
	free(state);
	return ok;
}

/* The flag bits a count reads, and their combinations. */
static const uint64_t flag_bits[] = { PM_SOFT_DIRTY, PM_MMAP_EXCLUSIVE, PM_FILE, PM_SWAP, PM_PRESENT };
#define NFLAGS (sizeof(flag_bits) / sizeof(flag_bits[0]))

static uint64_t flags_of(unsigned combo)
{
	uint64_t f = 0;
	for (size_t b = 0; b < NFLAGS; b++)
		f |= combo >> b & 1 ? flag_bits[b] : 0;
	return f;
}

/* Lengths around the vector width and a chunk: the scalar tail, one
 * vector step, a whole PMD, a chunk that is not one. */
static const size_t lengths[] = { 1, 2, 3, 4, 5, 7, 8, 9, 511, 512 };
#define NLENGTHS (sizeof(lengths) / sizeof(lengths[0]))

/* Every combination of flags, all entries alike: the short cut's answer
 * for each flag, with consecutive PFNs (a THP) and with none (swap
 * entries, or not root). */
static void test_alike(void)
{
	static uint64_t e[512];
	bool ok = true;
	for (unsigned combo = 0; combo < 1u << NFLAGS; combo++)
		for (size_t l = 0; l < NLENGTHS; l++)
			for (int pfn = 0; pfn < 2; pfn++) {
				for (size_t i = 0; i < lengths[l]; i++)
					e[i] = flags_of(combo) | (pfn ? 0x40000 + i : 0);
				ok = ok && check_entries(e, lengths[l], PAGEMAP_LAYOUT_CURRENT);
				ok = ok && check_entries(e, lengths[l], PAGEMAP_LAYOUT_PSHIFT);
			}
	CHECK(ok, "entries all alike: every flag combination, 1 to 512 entries, both layouts");
}

/* One entry unlike the rest at each position: in either lane of a vector
 * step or in the tail, each flag flipped alone, so a short cut taken where
 * the entries differ miscounts. */
static void test_one_differs(void)
{
	static uint64_t e[512];
	uint64_t base = PM_PRESENT | PM_MMAP_EXCLUSIVE | PM_SOFT_DIRTY;
	bool ok = true;
	for (size_t l = 0; l < NLENGTHS; l++)
		for (size_t at = 0; at < lengths[l]; at++)
			for (size_t b = 0; b < NFLAGS; b++) {
				for (size_t i = 0; i < lengths[l]; i++)
					e[i] = base | (0x40000 + i);
				e[at] ^= flag_bits[b];
				ok = ok && check_entries(e, lengths[l], PAGEMAP_LAYOUT_CURRENT);
			}
	CHECK(ok, "one entry unlike the others, at every position, each flag");
}

/* Entries that differ only in their PFN are alike: a zero PFN (not root)
 * beside a visible one still makes the PFNs known. */
static void test_pfn_only(void)
{
	uint64_t e[6] = { PM_PRESENT, PM_PRESENT, PM_PRESENT | 7, PM_PRESENT, PM_PRESENT, PM_PRESENT };
	struct pagemap_counts c = { 0 };
	pagemap_count(e, 6, PAGEMAP_LAYOUT_CURRENT, &c, NULL);
	CHECK(c.present == 6 && c.pfn_known, "a PFN in one entry of six: PFNs known, 6 present");
	memset(&c, 0, sizeof(c));
	e[2] = PM_PRESENT;
	pagemap_count(e, 6, PAGEMAP_LAYOUT_CURRENT, &c, NULL);
	CHECK(c.present == 6 && !c.pfn_known, "no PFN at all: PFNs not known");
	memset(&c, 0, sizeof(c));
	uint64_t swap[4] = { PM_SWAP | 0x1234, PM_SWAP | 0x1234, PM_SWAP | 0x1234, PM_SWAP | 0x1234 };
	pagemap_count(swap, 4, PAGEMAP_LAYOUT_CURRENT, &c, NULL);
	CHECK(c.swapped == 4 && !c.pfn_known, "a swap entry's offset is no PFN");
}

/* Random entries from a few flag words: chunks alike and unlike mixed,
 * summed into one count the way a scan adds chunk after chunk. */
static void test_random(void)
{
	static uint64_t e[512];
	struct pagemap_counts got = { 0 }, want = { 0 };
	unsigned seed = 12345;
	for (int round = 0; round < 2000; round++) {
		size_t n = 1 + (size_t)rand_r(&seed) % 512;
		unsigned alike = (unsigned)rand_r(&seed) % 2, combo = (unsigned)rand_r(&seed);
		for (size_t i = 0; i < n; i++)
			e[i] = flags_of(alike ? combo : (unsigned)rand_r(&seed)) | ((uint64_t)rand_r(&seed) % 4);
		pagemap_count(e, n, PAGEMAP_LAYOUT_CURRENT, &got, NULL);
		count_ref(e, n, PAGEMAP_LAYOUT_CURRENT, &want);
	}
	CHECK(counts_equal(&got, &want), "2000 random chunks, half of them alike, added up");
}

int main(void)
{
	test_alike();
	test_one_differs();
	test_pfn_only();
	test_random();
	T_DONE();
}
