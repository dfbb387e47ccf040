/* The page pattern: what it catches, and the corruption path behind a
 * mapping's back that the hidden --corrupt-page options use. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/util.h"
#include "workload/pattern.h"
#include "t.h"

int main(void)
{
	size_t ps = vmr_page_size(), n = 16;
	uint64_t found;
	char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED, "map %zu pages", n);

	CHECK(pattern_word(0, 0) != 0, "page 0 with salt 0 is not a zero word (a zeroed page must fail)");
	CHECK(pattern_word(1, 0) != pattern_word(2, 0), "neighbouring pages differ");
	CHECK(pattern_word(5, 1) != pattern_word(5, 2), "salts (passes) differ");
	CHECK(pattern_word(1, 2) != pattern_word(2, 1), "index and salt are not interchangeable");

	for (size_t i = 0; i < n; i++)
		pattern_stamp(p + i * ps, ps, i, 7);
	bool all = true;
	for (size_t i = 0; i < n; i++)
		all &= pattern_check(p + i * ps, ps, i, 7, &found);
	CHECK(all, "every stamped page checks");
	CHECK(!pattern_check(p + 3 * ps, ps, 4, 7, &found), "a page read at the wrong index fails");
	CHECK(!pattern_check(p + 3 * ps, ps, 3, 8, &found), "a page from an older pass fails");
	CHECK(found == pattern_word(3, 7), "found is the first word that was there");

	((uint64_t *)(p + 5 * ps))[ps / 8 - 1] ^= 1;
	CHECK(!pattern_check(p + 5 * ps, ps, 5, 7, &found), "a torn page (last word wrong) fails");
	memset(p + 6 * ps, 0, ps);
	CHECK(!pattern_check(p + 6 * ps, ps, 6, 7, &found) && found == 0, "a zeroed page fails");

	CHECK(pattern_corrupt(p + 9 * ps) == 0, "damage page 9 through /proc/self/mem");
	CHECK(!pattern_check(p + 9 * ps, ps, 9, 7, &found) && found == 0xdeadbeefbadc0ffeull,
	      "the damage is seen through the mapping");
	CHECK(pattern_check(p + 10 * ps, ps, 10, 7, &found), "the next page is untouched");
	/* a page left by an earlier run (a stale swap slot) must not check
	 * as this run's: every run draws its own salt */
	uint64_t run1 = pattern_salt(), run2 = pattern_salt();
	CHECK(run1 != run2, "two runs draw different salts");
	pattern_stamp(p + 11 * ps, ps, 11, run1);
	CHECK(!pattern_check(p + 11 * ps, ps, 11, run2, &found), "a page from an earlier run fails this run's check");
	CHECK(pattern_corrupt(NULL) < 0, "damaging an unmapped address fails cleanly");
	munmap(p, n * ps);
	T_DONE();
}
