/* The verifiable page pattern every workload writes and checks.
 *
 * Each page gets a word derived from its index and a salt (fresh for each
 * run from pattern_salt(), and changed per pass or child where a workload
 * writes again) in its first 8 bytes and the complement in its last
 * 8 bytes.  A page that comes back zeroed, from another index, from an
 * older pass or an earlier run (a stale swap slot), or torn in the middle (first and last words disagree) fails
 * the check.  Stamping and checking cost two stores or loads per page, so
 * they stay on the measured paths.
 *
 * pattern_corrupt() damages memory behind the workload's back, through
 * /proc/self/mem: it writes via the kernel's remote-access path, not the
 * mapping, so it models data that was changed while the page was away.
 * It exists for the hidden --corrupt-page options that prove the checks
 * catch bad data. */
#ifndef VMR_PATTERN_H
#define VMR_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline uint64_t pattern_word(uint64_t page, uint64_t salt)
{
	uint64_t x = (page + 1) * 0x9e3779b97f4a7c15ull ^ (salt + 1) * 0xc2b2ae3d27d4eb4full;
	return x ^ (x >> 29);
}

static inline void pattern_stamp(void *page, size_t page_size, uint64_t idx, uint64_t salt)
{
	uint64_t w = pattern_word(idx, salt);
	((volatile uint64_t *)page)[0] = w;
	((volatile uint64_t *)page)[page_size / 8 - 1] = ~w;
}

/* True when the page holds the pattern; *found receives its first word. */
static inline bool pattern_check(const void *page, size_t page_size, uint64_t idx, uint64_t salt,
				 uint64_t *found)
{
	uint64_t w = pattern_word(idx, salt);
	uint64_t a = ((const volatile uint64_t *)page)[0];
	uint64_t b = ((const volatile uint64_t *)page)[page_size / 8 - 1];
	*found = a;
	return a == w && b == ~w;
}

/* A salt for one run: random, so that a page left over from an earlier
 * iteration or run (the same index, the same workload) does not read as
 * good.  Never 0 on purpose; any value works. */
uint64_t pattern_salt(void);

/* Overwrite the first word at addr through /proc/self/mem.  0 or -errno. */
int pattern_corrupt(void *addr);

#endif
