/* The trace file format: what is written reads back, and every kind of
 * broken file is refused with the message that names its problem. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "refs/trace.h"
#include "t.h"

struct image {
	unsigned char *buf;
	size_t len;
};

/* A valid image of n references over pages pages. */
static struct image make(uint64_t pages, uint64_t n, const char *desc)
{
	struct refs_header h = { .page_size = 4096, .pages = pages, .references = n, .seed = 99,
				 .flags = REFS_FLAG_SAMPLED };
	snprintf(h.desc, sizeof(h.desc), "%s", desc);
	struct refs_out o = { 0 };
	if (refs_out_init(&o, &h) < 0)
		abort();
	for (uint64_t i = 0; i < n; i++)
		o.body[i] = htole32((uint32_t)((i * 7) % pages));
	refs_out_finish(&o);
	return (struct image){ o.buf, o.len };
}

static void put32(struct image *im, size_t off, uint32_t v)
{
	v = htole32(v);
	memcpy(im->buf + off, &v, 4);
}

static void put64(struct image *im, size_t off, uint64_t v)
{
	v = htole64(v);
	memcpy(im->buf + off, &v, 8);
}

/* Recompute the checksum so that only the intended defect remains. */
static void reseal(struct image *im)
{
	put32(im, 48, refs_checksum(im->buf, im->len));
}

/* Parse an image from an aligned copy; return the error text ("" if ok). */
static const char *parse(const struct image *im, size_t len)
{
	static char err[256];
	struct refs_header h = { 0 };
	const uint32_t *body;
	void *copy = malloc(len ? len : 1);
	memcpy(copy, im->buf, len);
	err[0] = '\0';
	if (refs_parse(copy, len, 0, &h, &body, err, sizeof(err)) == 0)
		err[0] = '\0';
	free(copy);
	return err;
}

static void test_roundtrip(void)
{
	struct image im = make(100, 1000, "pattern=test a=1");
	char path[] = "/tmp/vmr-test-refs-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, im.buf, im.len) == (ssize_t)im.len, "write a trace image");
	close(fd);
	struct refs_trace t = { 0 };
	int r = refs_open(&t, path);
	CHECK(r == 0, "a valid trace opens");
	if (r == 0) {
		CHECK_EQ_U(t.h.pages, 100, "pages read back");
		CHECK_EQ_U(t.h.references, 1000, "references read back");
		CHECK_EQ_U(t.h.seed, 99, "seed reads back");
		CHECK_EQ_U(t.h.page_size, 4096, "page size reads back");
		CHECK(t.h.flags == REFS_FLAG_SAMPLED, "the sampled flag reads back");
		CHECK_STR(t.h.desc, "pattern=test a=1", "description reads back");
		CHECK(refs_at(t.refs, 999) == (999 * 7) % 100, "page indices read back");
		CHECK(((uintptr_t)t.refs & 7) == 0, "the body is aligned in the mapping");
		refs_close(&t);
	}
	unlink(path);
	CHECK(im.len == 56 + 16 + 4000, "header is padded to 8 bytes, body is 4 bytes per reference");
	free(im.buf);
}

static void expect(const char *name, const char *err, const char *want)
{
	int ok = *err && strstr(err, want);
	CHECK(ok, "%s is refused: %s", name, err);
	if (!ok)
		printf("    wanted '%s'\n", want);
}

static void test_broken(void)
{
	struct image good = make(50, 200, "pattern=linear");
	struct image im = good;
	CHECK(!*parse(&good, good.len), "the good image parses");
	expect("an empty file", parse(&good, 0), "truncated");
	expect("a cut magic", parse(&good, 5), "truncated");
	expect("a cut header", parse(&good, 40), "truncated: 40 bytes, a header needs 56");
	expect("a cut description", parse(&good, 60), "truncated: 60 bytes, the header needs 72");
	expect("a cut body", parse(&good, good.len - 1), "truncated: the header says 200 references (800 bytes) but 799");

	im.buf = malloc(good.len + 8);
	memcpy(im.buf, good.buf, good.len);
	im.len = good.len + 8;
	memset(im.buf + good.len, 0, 8);
	reseal(&im);
	expect("trailing bytes", parse(&im, im.len), "8 bytes of trailing data");
	im.len = good.len;

	memcpy(im.buf, good.buf, good.len);
	memcpy(im.buf, "GIF89a\0\0", 8);
	expect("another file type", parse(&im, im.len), "not a reference trace");

	memcpy(im.buf, good.buf, good.len);
	put32(&im, 8, 2);
	reseal(&im);
	expect("a newer version", parse(&im, im.len), "version 2 is not supported");

	memcpy(im.buf, good.buf, good.len);
	im.buf[good.len - 3] ^= 0x10;
	expect("a flipped body bit", parse(&im, im.len), "corrupted: checksum");
	memcpy(im.buf, good.buf, good.len);
	im.buf[30] ^= 1; /* pages */
	expect("a flipped header bit", parse(&im, im.len), "corrupted: checksum");

	memcpy(im.buf, good.buf, good.len);
	put32(&im, 56 + 16 + 4 * 123, htole32(50));
	reseal(&im);
	expect("an index beyond the region", parse(&im, im.len), "reference 123 is page 50, beyond the region of 50 pages");

	memcpy(im.buf, good.buf, good.len);
	put64(&im, 32, 1ull << 40);
	reseal(&im);
	expect("too many references", parse(&im, im.len), "too large: 1099511627776 references");
	memcpy(im.buf, good.buf, good.len);
	put64(&im, 24, (1ull << 32) + 1);
	reseal(&im);
	expect("too many pages", parse(&im, im.len), "too large: 4294967297 pages");
	memcpy(im.buf, good.buf, good.len);
	put64(&im, 24, 0);
	reseal(&im);
	expect("no pages", parse(&im, im.len), "a region of 0 pages");
	memcpy(im.buf, good.buf, good.len);
	put32(&im, 16, 3000);
	reseal(&im);
	expect("a bad page size", parse(&im, im.len), "page size 3000");
	memcpy(im.buf, good.buf, good.len);
	put32(&im, 12, 1000);
	reseal(&im);
	expect("a bad header size", parse(&im, im.len), "header size 1000");
	memcpy(im.buf, good.buf, good.len);
	im.buf[58] = '\n';
	reseal(&im);
	expect("unprintable description", parse(&im, im.len), "not printable");
	memcpy(im.buf, good.buf, good.len);
	put32(&im, 20, 0x80);
	reseal(&im);
	expect("unknown flags", parse(&im, im.len), "unknown flags");

	/* refs_open names the file; a directory and a missing file too. */
	char path[] = "/tmp/vmr-test-refs-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, good.buf, 30) == 30, "write a cut trace");
	close(fd);
	struct refs_trace t = { 0 };
	CHECK(refs_open(&t, path) < 0, "refs_open refuses a cut file");
	unlink(path);
	CHECK(refs_open(&t, path) < 0, "refs_open refuses a missing file");
	CHECK(refs_open(&t, "/tmp") < 0, "refs_open refuses a directory");
	free(im.buf);
	free(good.buf);
}

int main(void)
{
	test_roundtrip();
	test_broken();
	T_DONE();
}
