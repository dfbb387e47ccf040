/* /proc/PID/maps and pagemap decoding, the encoded map, and a live scan of
 * this process's own memory. */
#include <sys/mman.h>

#include "fixture.h"
#include "probe/pagemap.h"
#include "t.h"

static void bad_maps(const char *name, const char *buf, size_t len, void *arg)
{
	struct maps m = { 0 };
	char err[PROBE_ERR_MAX] = "";
	CHECK(maps_parse(&m, buf, len, err) == -1, "maps %s is rejected", name);
	CHECK(strncmp(err, "line ", 5) == 0, "maps %s: the reason names the line (%s)", name, err);
	CHECK(m.vmas == NULL && m.n == 0, "maps %s: nothing half-parsed is left", name);
}

static void test_maps(void)
{
	size_t len;
	char *buf = fixture_read("maps", "paths-with-spaces.txt", &len), err[PROBE_ERR_MAX] = "";
	struct maps m = { 0 };
	CHECK(maps_parse(&m, buf, len, err) == 0, "maps with spaces in paths parse (%s)", err);
	CHECK_EQ_U(m.n, 6, "six VMAs");
	CHECK_STR(m.vmas[0].path, "/usr/bin/my prog", "a path keeps its spaces");
	CHECK_STR(m.vmas[2].path, "/dev/shm/pulse-shm-1 (deleted)", "(deleted) stays in the path");
	CHECK_STR(m.vmas[2].perms, "rw-s", "shared permissions");
	CHECK_STR(m.vmas[3].path, "", "an anonymous VMA has an empty path");
	CHECK_STR(m.vmas[4].path, "[stack]", "[stack]");
	CHECK_EQ_U(m.vmas[1].offset, 0x51000, "offset is hex");
	CHECK_EQ_U(m.vmas[0].inode, 173521, "inode is decimal");
	CHECK_EQ_U(m.vmas[5].start, 0xffffffffff600000ULL, "a kernel-half address");
	CHECK(maps_find(&m, 0x7f2c4e420000ULL) == &m.vmas[3], "maps_find inside a VMA");
	CHECK(maps_find(&m, 0x7f2c4e600000ULL) == NULL, "maps_find: end is exclusive");
	CHECK(maps_find(&m, 0x00400000) == &m.vmas[0], "maps_find: start is inclusive");
	maps_free(&m);
	free(buf);
	buf = fixture_read("maps", "linux-6.18-cat.txt", &len);
	CHECK(maps_parse(&m, buf, len, err) == 0 && m.n > 10, "this machine's maps parse (%s)", err);
	maps_free(&m);
	free(buf);
	CHECK(fixture_each("maps", "bad-*", bad_maps, NULL) >= 6, "bad maps fixtures exist");
}

static void test_entries(void)
{
	size_t len;
	char *buf = fixture_read("pagemap", "linux-4.2-current-layout.bin", &len), err[PROBE_ERR_MAX] = "";
	char state[16] = "";
	struct pagemap_counts c = { 0 };
	CHECK(pagemap_parse(buf, len, PAGEMAP_LAYOUT_CURRENT, &c, state, err) == 0, "current layout parses");
	CHECK_EQ_U(c.pages, 10, "10 entries");
	CHECK_EQ_U(c.present, 5, "5 present");
	CHECK_EQ_U(c.swapped, 2, "2 swapped");
	CHECK_EQ_U(c.file, 2, "2 file pages (a lone file bit is not a page)");
	CHECK_EQ_U(c.exclusive, 2, "2 exclusive");
	CHECK_EQ_U(c.soft_dirty, 2, "2 soft-dirty, present or swapped");
	CHECK(c.flags_known && c.pfn_known, "flags and PFNs known");
	CHECK(memcmp(state, "####ss..#.", 10) == 0, "state chars");
	free(buf);

	buf = fixture_read("pagemap", "linux-3.2-pshift-layout.bin", &len);
	memset(&c, 0, sizeof(c));
	CHECK(pagemap_parse(buf, len, PAGEMAP_LAYOUT_PSHIFT, &c, NULL, err) == 0, "pre-3.11 layout parses");
	CHECK(c.present == 3 && c.swapped == 1, "pre-3.11: 3 present, 1 swapped");
	CHECK(!c.flags_known && c.soft_dirty == 0 && c.exclusive == 0,
	      "pre-3.11: the page shift is not read as soft-dirty/exclusive");
	free(buf);

	buf = fixture_read("pagemap", "bad-partial-entry.bin", &len);
	CHECK(pagemap_parse(buf, len, PAGEMAP_LAYOUT_CURRENT, &c, NULL, err) == -1, "a partial entry is rejected");
	CHECK_STR(err, "byte 16: partial entry (length is not a multiple of 8)", "the partial entry's offset is named");
	free(buf);
	CHECK(pagemap_parse("", 0, PAGEMAP_LAYOUT_CURRENT, &c, NULL, err) == -1, "an empty dump is rejected");
}

static void test_encoding(void)
{
	char out[8], dec[4];
	/* the seed's map: bit k for page k of 4, 0x60 to be printable */
	CHECK(pagemap_encode_map("#...####.#s.#", 13, out) == 4, "13 pages make 4 characters");
	CHECK_STR(out, "aoba", "encoded map");
	CHECK(pagemap_encode_map("s", 1, out) == 1 && out[0] == '`', "swapped is not present");
	CHECK(pagemap_decode_char('b', dec) == 0 && memcmp(dec, ".#..", 4) == 0, "decode 'b'");
	CHECK(pagemap_decode_char('A', dec) == -1, "'A' is not a map character");
	for (int v = 0; v < 16; v++) {
		char st[4], e[2];
		for (int k = 0; k < 4; k++)
			st[k] = (v >> k) & 1 ? '#' : '.';
		pagemap_encode_map(st, 4, e);
		if (pagemap_decode_char(e[0], dec) < 0 || memcmp(dec, st, 4) || e[0] < 0x20 || e[0] > 0x7e)
			CHECK(0, "encoding %d round-trips and is printable", v);
	}
}

/* Every other page touched: exactly half present, in that pattern. */
static void test_live_self(void)
{
	size_t ps = (size_t)vmr_page_size(), n = 1024 + 3;
	char err[PROBE_ERR_MAX] = "", *state = malloc(n);
	char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct pagemap_counts c = { 0 };
	if (p == MAP_FAILED) {
		SKIP("mmap failed");
		return;
	}
	madvise(p, n * ps, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < n; i += 2)
		p[i * ps] = 1;
	CHECK(pagemap_self(p, n * ps, &c, state, err) == 0, "pagemap_self scans (%s)", err);
	CHECK_EQ_U(c.pages, n, "every page is looked at");
	CHECK_EQ_U(c.present, (n + 1) / 2, "exactly every other page is present");
	CHECK_EQ_U(c.swapped, 0, "nothing swapped");
	CHECK_EQ_U(c.exclusive, (n + 1) / 2, "anon pages are exclusive");
	bool pattern = true;
	for (size_t i = 0; i < n; i++)
		pattern &= state[i] == (i % 2 ? '.' : '#');
	CHECK(pattern, "the state array shows the pattern");
	struct pagemap pm = { 0 };
	CHECK(pagemap_open(&pm, 0, true, err) == 0, "pagemap_open self");
	memset(&c, 0, sizeof(c));
	CHECK(pagemap_scan(&pm, (uintptr_t)p + ps, (uintptr_t)p + 5 * ps, &c, NULL, err) == 0 && c.present == 2,
	      "a sub-range");
	CHECK(pagemap_scan(&pm, (uintptr_t)p + 1, (uintptr_t)p + ps, &c, NULL, err) == -1, "an unaligned range is refused");
	pagemap_close(&pm);
	munmap(p, n * ps);
	free(state);
	struct maps m = { 0 };
	CHECK(maps_read(&m, 0, err) == 0 && maps_find(&m, (uintptr_t)&test_live_self), "own maps has own code");
	maps_free(&m);
}

int main(void)
{
	test_maps();
	test_entries();
	test_encoding();
	test_live_self();
	T_DONE();
}
