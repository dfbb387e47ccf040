/* Sizes and times: one table each, used both to parse and to print, so that
 * what vmregress prints can always be typed back in.
 *
 * Sizes: a decimal number with at most one '.', then an optional unit:
 *   (none)/B bytes, K/KB/KiB, M, G, T, P (powers of 1024), p (pages of the
 *   base page size).  "4096", "64K", "256M", "1.5G", "1000p".
 * Relative sizes add "x": "1.5x" is 1.5 times a base the caller knows (the
 *   sandbox limit).
 * Times: a number then ns, us, ms, s, m, h; a bare number is seconds. */
#ifndef VMR_UNITS_H
#define VMR_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A size that may be relative: factor != 0 means "factor x base". */
struct vmr_rsize {
	uint64_t bytes;
	double factor;
};

/* Parse a size in bytes.  Returns 0, or -1 with *why set to a static reason
 * ("negative", "not a number", "too large", ...). */
int units_parse_size(const char *s, uint64_t *bytes, const char **why);
/* Parse a size that may be relative ("1.5x"). */
int units_parse_rsize(const char *s, struct vmr_rsize *out, const char **why);
/* Resolve a relative size against a base in bytes, rounded down to pages. */
uint64_t units_rsize_bytes(const struct vmr_rsize *r, uint64_t base);
/* Parse a time into nanoseconds. */
int units_parse_time(const char *s, uint64_t *ns, const char **why);

/* Format bytes as the shortest exact-enough form ("256M", "1.5G", "4096").
 * Returns buf. */
char *units_format_size(char *buf, size_t len, uint64_t bytes);
/* Format nanoseconds ("1.23ms", "5s").  Returns buf. */
char *units_format_time(char *buf, size_t len, uint64_t ns);
/* Format a relative size for echo ("1.5x" or a size). */
char *units_format_rsize(char *buf, size_t len, const struct vmr_rsize *r);

#endif
