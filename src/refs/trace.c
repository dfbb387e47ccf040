#include "refs/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/path.h"
#include "core/util.h"

#define OFF_VERSION 8
#define OFF_HEADER_SIZE 12
#define OFF_PAGE_SIZE 16
#define OFF_FLAGS 20
#define OFF_PAGES 24
#define OFF_REFERENCES 32
#define OFF_SEED 40
#define OFF_CHECKSUM 48
#define OFF_DESC_LEN 52

static uint32_t get32(const unsigned char *p, size_t off)
{
	uint32_t v;
	memcpy(&v, p + off, 4);
	return le32toh(v);
}

static uint64_t get64(const unsigned char *p, size_t off)
{
	uint64_t v;
	memcpy(&v, p + off, 8);
	return le64toh(v);
}

static void put32(unsigned char *p, size_t off, uint32_t v)
{
	v = htole32(v);
	memcpy(p + off, &v, 4);
}

static void put64(unsigned char *p, size_t off, uint64_t v)
{
	v = htole64(v);
	memcpy(p + off, &v, 8);
}

static size_t refs_header_len(size_t desc_len)
{
	return (REFS_FIXED_HEADER + desc_len + 7) & ~(size_t)7;
}

/* zlib's crc32 takes a uInt length: feed large buffers in pieces. */
static uint32_t refs_crc(uint32_t crc, const unsigned char *p, size_t len)
{
	while (len) {
		uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;
		crc = (uint32_t)crc32(crc, p, n);
		p += n;
		len -= n;
	}
	return crc;
}

uint32_t refs_checksum(const void *image, size_t len)
{
	const unsigned char *buf = image;
	uint32_t crc = (uint32_t)crc32(0, Z_NULL, 0);
	crc = refs_crc(crc, buf, OFF_CHECKSUM);
	return refs_crc(crc, buf + OFF_CHECKSUM + 4, len - OFF_CHECKSUM - 4);
}

static int refs_bad(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int refs_bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int refs_parse_fixed(const unsigned char *p, size_t len, struct refs_header *h,
			    size_t *header_len, char *err, size_t errlen)
{
	if (len < sizeof(REFS_MAGIC) && !memcmp(p, REFS_MAGIC, len))
		return refs_bad(err, errlen, "truncated: %zu bytes, not even a header", len);
	if (len < sizeof(REFS_MAGIC) || memcmp(p, REFS_MAGIC, sizeof(REFS_MAGIC)))
		return refs_bad(err, errlen, "not a reference trace (no VMRREFS magic)");
	if (len < REFS_FIXED_HEADER)
		return refs_bad(err, errlen, "truncated: %zu bytes, a header needs %u", len, REFS_FIXED_HEADER);
	h->version = get32(p, OFF_VERSION);
	if (h->version != REFS_VERSION)
		return refs_bad(err, errlen, "version %" PRIu32 " is not supported (this vmregress reads version %u)",
				h->version, REFS_VERSION);
	uint32_t hl = get32(p, OFF_HEADER_SIZE), dl = get32(p, OFF_DESC_LEN);
	if (dl > REFS_MAX_DESC || hl != refs_header_len(dl))
		return refs_bad(err, errlen, "corrupt header: header size %" PRIu32 " and description length %" PRIu32
				" do not agree", hl, dl);
	if (len < hl)
		return refs_bad(err, errlen, "truncated: %zu bytes, the header needs %" PRIu32, len, hl);
	h->page_size = get32(p, OFF_PAGE_SIZE);
	h->flags = get32(p, OFF_FLAGS);
	h->pages = get64(p, OFF_PAGES);
	h->references = get64(p, OFF_REFERENCES);
	h->seed = get64(p, OFF_SEED);
	h->checksum = get32(p, OFF_CHECKSUM);
	memcpy(h->desc, p + REFS_FIXED_HEADER, dl);
	h->desc[dl] = '\0';
	*header_len = hl;
	return 0;
}

static int refs_parse_fields(const struct refs_header *h, const unsigned char *p, size_t hl,
			     char *err, size_t errlen)
{
	if (h->page_size < 512 || (h->page_size & (h->page_size - 1)))
		return refs_bad(err, errlen, "corrupt header: page size %" PRIu32 " is not a power of two >= 512",
				h->page_size);
	if (h->flags & ~REFS_FLAGS_KNOWN)
		return refs_bad(err, errlen, "corrupt header: unknown flags 0x%" PRIx32, h->flags);
	if (!h->pages)
		return refs_bad(err, errlen, "corrupt header: a region of 0 pages");
	if (h->pages > REFS_MAX_PAGES)
		return refs_bad(err, errlen, "too large: %" PRIu64 " pages (at most %llu)", h->pages, REFS_MAX_PAGES);
	size_t dl = strlen(h->desc);
	if (dl != get32(p, OFF_DESC_LEN))
		return refs_bad(err, errlen, "corrupt header: the description holds a NUL byte");
	for (size_t i = 0; i < dl; i++)
		if ((unsigned char)h->desc[i] < 0x20 || (unsigned char)h->desc[i] > 0x7e)
			return refs_bad(err, errlen, "corrupt header: the description is not printable text");
	for (size_t i = REFS_FIXED_HEADER + dl; i < hl; i++)
		if (p[i])
			return refs_bad(err, errlen, "corrupt header: padding is not zero");
	return 0;
}

static int refs_parse_body(const struct refs_header *h, const uint32_t *body, char *err, size_t errlen)
{
	uint64_t n = h->references, pages = h->pages;
	uint32_t worst = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint32_t v = refs_at(body, i);
		worst = v > worst ? v : worst;
	}
	if (n && worst >= pages) {
		for (uint64_t i = 0; i < n; i++)
			if (refs_at(body, i) >= pages)
				return refs_bad(err, errlen, "reference %" PRIu64 " is page %" PRIu32
						", beyond the region of %" PRIu64 " pages", i, refs_at(body, i), pages);
	}
	return 0;
}

int refs_parse(const void *buf, size_t len, unsigned flags, struct refs_header *h,
	       const uint32_t **body, char *err, size_t errlen)
{
	const unsigned char *p = buf;
	size_t hl = 0;
	if (refs_parse_fixed(p, len, h, &hl, err, errlen) < 0)
		return -1;
	if (h->references > REFS_MAX_REFERENCES)
		return refs_bad(err, errlen, "too large: %" PRIu64 " references (at most %llu)", h->references,
				REFS_MAX_REFERENCES);
	uint64_t want = h->references * 4, have = len - hl;
	if (have < want)
		return refs_bad(err, errlen, "truncated: the header says %" PRIu64 " references (%" PRIu64
				" bytes) but %" PRIu64 " bytes follow it", h->references, want, have);
	if (have > want)
		return refs_bad(err, errlen, "%" PRIu64 " bytes of trailing data after the last reference",
				have - want);
	if (!(flags & REFS_PARSE_NO_CHECKSUM)) {
		uint32_t c = refs_checksum(p, len);
		if (c != h->checksum)
			return refs_bad(err, errlen, "corrupted: checksum 0x%08" PRIx32 " does not match the contents "
					"(0x%08" PRIx32 ")", h->checksum, c);
	}
	if (refs_parse_fields(h, p, hl, err, errlen) < 0)
		return -1;
	*body = (const uint32_t *)(p + hl);
	return refs_parse_body(h, *body, err, errlen);
}

int refs_open(struct refs_trace *t, const char *path)
{
	memset(t, 0, sizeof(*t));
	/* O_NONBLOCK: opening a FIFO must not wait for a writer that never
	 * comes; fstat then refuses it.  Reads of the map do not block. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		vmr_errno("%s: cannot open", path);
		return -1;
	}
	struct stat st = { 0 };
	if (fstat(fd, &st) < 0) {
		vmr_errno("%s: cannot stat", path);
		goto close_fd;
	}
	if (!S_ISREG(st.st_mode)) {
		vmr_err("%s: not a regular file (a trace is read whole, not from a pipe or a device)", path);
		goto close_fd;
	}
	uint64_t max = REFS_FIXED_HEADER + REFS_MAX_DESC + 8 + REFS_MAX_REFERENCES * 4;
	if ((uint64_t)st.st_size > max || (uint64_t)st.st_size > SIZE_MAX) {
		vmr_err("%s: too large: %jd bytes (a trace holds at most %llu references)", path,
			(intmax_t)st.st_size, REFS_MAX_REFERENCES);
		goto close_fd;
	}
	if (st.st_size == 0) {
		vmr_err("%s: truncated: the file is empty", path);
		goto close_fd;
	}
	t->map_len = (size_t)st.st_size;
	t->map = mmap(NULL, t->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (t->map == MAP_FAILED) {
		vmr_errno("%s: cannot map %zu bytes", path, t->map_len);
		t->map = NULL;
		goto close_fd;
	}
	close(fd);
	madvise(t->map, t->map_len, MADV_SEQUENTIAL);
	char err[256] = "";
	if (refs_parse(t->map, t->map_len, 0, &t->h, &t->refs, err, sizeof(err)) < 0) {
		vmr_err("%s: %s", path, err);
		refs_close(t);
		return -1;
	}
	madvise(t->map, t->map_len, MADV_NORMAL);
	t->path = xstrdup(path);
	return 0;
close_fd:
	close(fd);
	return -1;
}

void refs_close(struct refs_trace *t)
{
	if (t->map)
		munmap(t->map, t->map_len);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

int refs_out_init(struct refs_out *o, const struct refs_header *h)
{
	memset(o, 0, sizeof(*o));
	o->h = *h;
	o->h.version = REFS_VERSION;
	size_t dl = strnlen(h->desc, REFS_MAX_DESC);
	o->h.desc[dl] = '\0';
	if (h->references > REFS_MAX_REFERENCES || h->references > (SIZE_MAX - REFS_MAX_DESC) / 8) {
		vmr_err("a trace of %" PRIu64 " references is too large (at most %llu)", h->references,
			REFS_MAX_REFERENCES);
		return -1;
	}
	o->header_len = refs_header_len(dl);
	o->len = o->header_len + (size_t)h->references * 4;
	o->buf = calloc(1, o->len);
	if (!o->buf) {
		vmr_errno("cannot allocate %zu bytes for a trace", o->len);
		return -1;
	}
	o->body = (uint32_t *)(o->buf + o->header_len);
	return 0;
}

void refs_out_finish(struct refs_out *o)
{
	unsigned char *p = o->buf;
	size_t dl = strlen(o->h.desc);
	memcpy(p, REFS_MAGIC, sizeof(REFS_MAGIC));
	put32(p, OFF_VERSION, REFS_VERSION);
	put32(p, OFF_HEADER_SIZE, (uint32_t)o->header_len);
	put32(p, OFF_PAGE_SIZE, o->h.page_size);
	put32(p, OFF_FLAGS, o->h.flags);
	put64(p, OFF_PAGES, o->h.pages);
	put64(p, OFF_REFERENCES, o->h.references);
	put64(p, OFF_SEED, o->h.seed);
	put32(p, OFF_DESC_LEN, (uint32_t)dl);
	memcpy(p + REFS_FIXED_HEADER, o->h.desc, dl);
	memset(p + REFS_FIXED_HEADER + dl, 0, o->header_len - REFS_FIXED_HEADER - dl);
	o->h.checksum = refs_checksum(p, o->len);
	put32(p, OFF_CHECKSUM, o->h.checksum);
}

int refs_out_write(struct refs_out *o, const char *path)
{
	refs_out_finish(o);
	int e = vmr_write_atomic(path, o->buf, o->len, 0644);
	if (e < 0) {
		vmr_err("%s: cannot write: %s", path, path_strerror(-e));
		return -1;
	}
	return 0;
}

void refs_out_free(struct refs_out *o)
{
	free(o->buf);
	o->buf = NULL;
	o->body = NULL;
}

char *refs_flags_str(uint32_t flags, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", flags & REFS_FLAG_SAMPLED ? "sampled" : "",
		 (flags & REFS_FLAG_SAMPLED) && (flags & REFS_FLAG_RANDOMIZED) ? "," : "",
		 flags & REFS_FLAG_RANDOMIZED ? "randomized" : "");
	return buf;
}
