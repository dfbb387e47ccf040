/* The reference trace file: a versioned header and packed little-endian
 * page indices, read with mmap.  docs/trace-format.md is the specification;
 * this is its one reader and writer.
 *
 * Layout (all integers little-endian):
 *   0  magic "VMRREFS\0"       8 bytes
 *   8  version (1)             u32
 *  12  header size             u32, multiple of 8; the body starts here
 *  16  page size               u32, a power of two (of the generating host)
 *  20  flags                   u32, REFS_FLAG_*
 *  24  pages                   u64, the region's size in pages (1..2^32)
 *  32  references              u64, the number of page indices in the body
 *  40  seed                    u64
 *  48  checksum                u32, CRC-32 (zlib) of every byte of the
 *                              file except these four
 *  52  description length      u32
 *  56  description             text: the pattern and its parameters, NUL
 *                              padded to the header size
 *  body: references x u32 page index, each < pages
 *
 * Everything the reader rejects (truncated, trailing bytes, corrupted,
 * wrong version, too large, an index beyond the region) is reported as
 * "<file>: <problem>", so a bad trace can never replay silently wrong. */
#ifndef VMR_TRACE_H
#define VMR_TRACE_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REFS_MAGIC "VMRREFS"          /* 7 characters and a NUL: 8 bytes */
#define REFS_VERSION 1u
#define REFS_FIXED_HEADER 56u         /* bytes before the description */
#define REFS_MAX_DESC 4096u
#define REFS_MAX_PAGES (1ull << 32)
#define REFS_MAX_REFERENCES (1ull << 34) /* a 64 GiB body */

enum refs_flags {
	REFS_FLAG_SAMPLED = 1u << 0,     /* recorded by sampling a process */
	REFS_FLAG_RANDOMIZED = 1u << 1,  /* shuffled by `refs randomize` */
	REFS_FLAGS_KNOWN = 0x3u,
};

struct refs_header {
	uint32_t version, page_size, flags;
	uint64_t pages, references, seed;
	uint32_t checksum;
	char desc[REFS_MAX_DESC + 1];    /* NUL-terminated */
};

/* A trace opened for reading: the file is mapped, refs points into it. */
struct refs_trace {
	struct refs_header h;
	const uint32_t *refs;            /* little-endian: read with refs_at() */
	void *map;
	size_t map_len;
	char *path;
};

static inline uint32_t refs_at(const uint32_t *refs, uint64_t i)
{
	return le32toh(refs[i]);
}

/* The checksum of a whole file image (len >= 52): CRC-32 of every byte but
 * the checksum field's four. */
uint32_t refs_checksum(const void *image, size_t len);

/* Options of refs_parse. */
enum refs_parse_flags {
	REFS_PARSE_NO_CHECKSUM = 1u << 0, /* skip the CRC (fuzzing reaches deeper) */
};

/* Check a whole file image.  Returns 0 with *h filled and *body pointing
 * into buf, or -1 with the problem in err ("truncated: ...", no file name). */
int refs_parse(const void *buf, size_t len, unsigned flags, struct refs_header *h,
	       const uint32_t **body, char *err, size_t errlen);

/* Map and check a trace file.  Returns 0, or -1 after printing
 * "vmregress: <path>: <problem>".  Close with refs_close. */
int refs_open(struct refs_trace *t, const char *path);
void refs_close(struct refs_trace *t);

/* A trace being written: the header and body in one buffer, so that it is
 * written atomically.  Fill body[0..references) with htole32(page). */
struct refs_out {
	struct refs_header h;
	unsigned char *buf;
	size_t len, header_len;
	uint32_t *body;
};

/* Allocate for h->references references; the description is copied from
 * h->desc.  Returns 0, or -1 after reporting (too large). */
int refs_out_init(struct refs_out *o, const struct refs_header *h);
/* Serialise the header and compute the checksum (call after the body is
 * complete), then write the file atomically.  -1 after reporting. */
int refs_out_write(struct refs_out *o, const char *path);
/* Serialise and checksum into o->buf without writing (tests, fuzz seeds). */
void refs_out_finish(struct refs_out *o);
void refs_out_free(struct refs_out *o);

/* Names of the flags set, "sampled,randomized" or "" (static buffer-free:
 * writes into buf). */
char *refs_flags_str(uint32_t flags, char *buf, size_t len);

#endif
