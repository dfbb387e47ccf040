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

/* Figures for people.  A metric's value in its stored unit goes to the
 * largest step of that unit's table that keeps it at least 1, with four
 * significant digits (three when the figure is 1000 or more of the step),
 * rounding carried into the next step ("999.96 ns" is "1.000 us"):
 *   ns (and *_ns)       ns, us, ms, s              "11.08 ms"
 *   bytes, bytes/s      B, KiB, MiB, GiB, TiB      "67.87 MiB"
 *   anything else       k, M, G, T on the number   "56.07k events", "2.225k pages/s"
 *   %, x, ratio         not scaled                 "11.39%", "1.050 x"
 * Whole numbers below the first step print as they are ("74 faults"); NAN
 * is "-".  JSON and CSV never use this: they carry the raw value and the
 * unit's name. */
char *units_format_value(char *buf, size_t len, double v, const char *unit);
/* The step of unit's table that suits values up to max_abs, for a column
 * or a graph axis: returns the divisor and writes the label ("ms",
 * "MiB", "k pages/s", "pages") to label. */
double units_axis(double max_abs, const char *unit, char *label, size_t len);

#endif
