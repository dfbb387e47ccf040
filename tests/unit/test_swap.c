/* The swap header is what the kernel reads at swapon and what cleanup
 * reads to prove a device is ours; --swap parsing refuses what it cannot do. */
#include <stdlib.h>

#include "core/util.h"
#include "sandbox/swap.h"
#include "t.h"

int main(void)
{
	size_t ps = vmr_page_size();
	unsigned char *page = malloc(ps);
	struct swap_tag tag = { .owner = { 4242, 123456789012ULL }, .added = true }, got = { 0 };
	uint64_t last;

	CHECK(swap_header_fill(page, ps, 64ULL << 20, &tag) == 0, "a 64M header fills");
	CHECK(!memcmp(page + ps - 10, "SWAPSPACE2", 10), "magic at page_size-10");
	CHECK(swap_header_parse(page, ps, &got, &last) == 1, "our header is recognised as ours");
	CHECK_EQ_U(last, (64ULL << 20) / ps - 1, "last_page is pages - 1");
	CHECK(got.owner.pid == 4242 && got.owner.start == 123456789012ULL && got.added, "the owner tag round-trips");
	CHECK(!memcmp(page + 1024 + 28, "vmregress", 9), "label is vmregress");

	page[1024 + 28] = 'X';
	CHECK(swap_header_parse(page, ps, &got, NULL) == 0, "another label: valid swap, not ours");
	page[ps - 1] = 0;
	CHECK(swap_header_parse(page, ps, &got, NULL) == -1, "no magic: not swap");
	CHECK(swap_header_fill(page, ps, 4 * ps, &tag) < 0, "fewer than 10 pages refused");

	struct swap_spec sp = { 0 };
	const char *why = NULL;
	int rc;
	CHECK(swap_spec_parse("file", &sp, &why) == 0 && sp.kind == SWAP_FILE && sp.bytes == 0, "file");
	CHECK(swap_spec_parse("file:512M", &sp, &why) == 0 && sp.bytes == 512ULL << 20, "file:512M");
	CHECK(swap_spec_parse("zram:1G:lz4", &sp, &why) == 0 && sp.kind == SWAP_ZRAM && sp.bytes == 1ULL << 30 &&
	      !strcmp(sp.algo, "lz4"), "zram:1G:lz4");
	CHECK(swap_spec_parse("zram::zstd", &sp, &why) == 0 && sp.bytes == 0 && !strcmp(sp.algo, "zstd"), "zram::zstd");
	CHECK(swap_spec_parse("host", &sp, &why) == 0 && sp.kind == SWAP_HOST, "host");
	CHECK(swap_spec_parse("none", &sp, &why) == 0 && sp.kind == SWAP_NONE, "none");
	rc = swap_spec_parse("disk", &sp, &why);  /* before why is read: argument order is unspecified */
	CHECK(rc < 0, "unknown kind refused: %s", why);
	rc = swap_spec_parse("file:0", &sp, &why);
	CHECK(rc < 0, "size 0 refused: %s", why);
	rc = swap_spec_parse("file:1G:lz4", &sp, &why);
	CHECK(rc < 0, "algorithm for a file refused: %s", why);
	rc = swap_spec_parse("zram:1G:../x", &sp, &why);
	CHECK(rc < 0, "algorithm with a path refused: %s", why);
	rc = swap_spec_parse("file:lots", &sp, &why);
	CHECK(rc < 0, "bad size refused: %s", why);
	free(page);
	T_DONE();
}
