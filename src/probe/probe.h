/* Shared pieces of the /proc and /sys readers.
 *
 * Every parser in src/probe/ takes a buffer and its length (not necessarily
 * NUL-terminated, so fixtures and fuzzers can feed it anything) and returns 0,
 * or -1 with a reason in `err` that names the line: "line 12: 'min' has no
 * number".  The *_read() helpers read the real file first; on failure err
 * says "cannot read: <strerror>".  Callers prefix the source:
 *   vmr_err("%s: %s", path, err)  ->  "vmregress: /proc/zoneinfo: line 3: ..."
 * Parsers never print. */
#ifndef VMR_PROBE_H
#define VMR_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROBE_ERR_MAX 160

/* A cursor over the lines of a buffer. */
struct probe_lines {
	const char *p, *end;
	unsigned lineno;        /* number of the line last returned, from 1 */
};

void probe_lines_init(struct probe_lines *l, const char *buf, size_t len);
/* Next line without its newline.  False at the end of the buffer.  A last
 * line without a newline is returned too (callers that care check
 * probe_lines_truncated()). */
bool probe_lines_next(struct probe_lines *l, const char **line, size_t *len);

/* Token scanning inside one line [*p, end). */
void probe_skip_space(const char **p, const char *end);
/* A decimal unsigned number; -1 when absent or when it overflows 64 bits. */
int probe_u64(const char **p, const char *end, uint64_t *out);
/* A non-negative decimal with an optional fraction ("12.34"). */
int probe_double(const char **p, const char *end, double *out);
/* A hexadecimal number without 0x; -1 when absent or overflowing. */
int probe_hex(const char **p, const char *end, uint64_t *out);
/* Copy the next whitespace-delimited word into out (NUL-terminated).
 * -1 when absent, longer than outlen - 1, or holding a control byte. */
int probe_word(const char **p, const char *end, char *out, size_t outlen);
/* True when [p, end) starts with the literal s; advances *p past it. */
bool probe_lit(const char **p, const char *end, const char *s);

/* err = "line N: <fmt>" (N omitted when 0). */
void probe_err(char *err, unsigned lineno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Read a whole file.  0, or -1 with err "cannot read: <why>"; errno is kept
 * so callers can tell EACCES/ENOENT apart.  *buf is NUL-terminated. */
int probe_read_file(const char *path, char **buf, size_t *len, char *err);

#endif
