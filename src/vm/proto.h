/* The guest-to-host protocol of the kernel matrix.
 *
 * A guest has one reliable way home that every kernel supports: its serial
 * console.  The console also carries kernel messages, which may land between
 * (rarely inside) our lines, and a guest may panic, hang or be killed at any
 * byte.  So results travel in frames that can be found in any amount of
 * surrounding noise and checked end to end:
 *
 *   VMR-BEGIN 1 <label> <rc> <len> <crc32>
 *   VMR-D <base64, at most 76 characters>
 *   ...
 *   VMR-END <crc32>
 *   ...more frames...
 *   VMR-DONE
 *
 * "1" is the protocol version, <label> names what the payload is ("result",
 * "db", "env", "log"), <rc> is the exit status of the guest command that
 * produced it, <len> the payload length in bytes and <crc32> the IEEE CRC-32
 * (as zlib's crc32()) of the payload, 8 lowercase hex digits.  A line is
 * read from its first "VMR-" (firmware's terminal escapes may precede it)
 * after a trailing '\r' is dropped; any other line (kernel messages, shell
 * noise) is ignored, inside a frame or not.  VMR-DONE
 * says the guest sent everything it meant to: output without it was cut
 * short (panic, hang, watchdog). */
#ifndef VMR_PROTO_H
#define VMR_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PROTO_VERSION 1
#define PROTO_LABEL_MAX 31
#define PROTO_LINE_CHARS 76          /* base64 characters per data line */
#define PROTO_PAYLOAD_MAX (256u << 20) /* refuse frames announcing more */

struct proto_frame {
	char label[PROTO_LABEL_MAX + 1];
	int rc;
	unsigned char *data;   /* len bytes, plus a NUL for text payloads */
	size_t len;
};

struct proto_result {
	struct proto_frame *frames;  /* intact frames in the order they came */
	size_t n;
	bool done;                   /* VMR-DONE was seen */
};

/* IEEE CRC-32 of buf (zlib's crc32), continuing from crc (start with 0). */
uint32_t proto_crc32(uint32_t crc, const void *buf, size_t len);

/* Write one frame to f.  0, or -1 with errno set when writing failed. */
int proto_emit(FILE *f, const char *label, int rc, const void *data, size_t len);
/* Write the closing VMR-DONE line. */
int proto_emit_done(FILE *f);

/* Find every frame in a console log.  Returns 0 when every frame that was
 * begun is intact (res->done says whether the guest finished), or -1 with a
 * one-line reason in why ("frame 'result': crc mismatch ...") when a frame
 * was malformed, truncated or corrupted; intact frames before it are kept in
 * res either way.  Free res with proto_result_free. */
int proto_parse(const char *log, size_t len, struct proto_result *res, char *why, size_t whylen);
void proto_result_free(struct proto_result *res);
/* The last intact frame with this label, or NULL. */
const struct proto_frame *proto_find(const struct proto_result *res, const char *label);

#endif
