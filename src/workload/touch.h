/* How reread (sp_tester) touches and checks a page, shared with the
 * benchmark that holds it against a bare loop (bench/reread_touch.c).
 *
 * In pattern mode every byte of page idx holds touch_fill_byte(idx, salt)
 * (never 0, so that no page is zero-filled) and the page pattern covers
 * the first and last words; in zero mode the page is all zeros, as
 * sp_tester's memset left it.  touch_page() reads bytes 8..ps-9 every step
 * bytes (1: every byte, as sp_tester's loop; 64: one per cache line; ps:
 * one) and the two words, comparing each byte as it is read: the compare
 * rides on the load, so the check costs what the bare read costs. */
#ifndef VMR_TOUCH_H
#define VMR_TOUCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "workload/pattern.h"

enum { TOUCH_FILL_PATTERN, TOUCH_FILL_ZERO };

static inline uint8_t touch_fill_byte(uint64_t idx, uint64_t salt)
{
	return (uint8_t)(pattern_word(idx, salt) >> 24) | 1;
}

static inline void touch_fill_page(char *p, size_t ps, uint64_t idx, uint64_t salt, int fill)
{
	if (fill == TOUCH_FILL_ZERO) {
		memset(p, 0, ps);
		return;
	}
	memset(p, touch_fill_byte(idx, salt), ps);
	pattern_stamp(p, ps, idx, salt);
}

/* True when the page holds what touch_fill_page wrote; *found receives its
 * first word. */
static inline bool touch_page(const char *p, size_t ps, size_t step, uint64_t idx, uint64_t salt, int fill,
			      uint64_t *found)
{
	const volatile uint8_t *b = (const volatile uint8_t *)p;
	uint8_t want = fill == TOUCH_FILL_ZERO ? 0 : touch_fill_byte(idx, salt);
	unsigned acc = 0;
	for (size_t off = 8; off < ps - 8; off += step)
		acc |= (unsigned)(b[off] ^ want);
	if (fill == TOUCH_FILL_ZERO) {
		uint64_t first = ((const volatile uint64_t *)p)[0], last = ((const volatile uint64_t *)p)[ps / 8 - 1];
		*found = first;
		return !acc && !first && !last;
	}
	return pattern_check(p, ps, idx, salt, found) && !acc;
}

#endif
