/* Sizes and times parse and print through one table, and bad input is
 * refused with a reason rather than wrapped or truncated. */
#include "core/units.h"
#include "core/util.h"
#include "t.h"

static void size_ok(const char *s, uint64_t want)
{
	uint64_t b = 0;
	const char *why = NULL;
	int r = units_parse_size(s, &b, &why);
	CHECK(r == 0 && b == want, "size '%s' parses to %llu (got %llu, %s)", s, (unsigned long long)want,
	      (unsigned long long)b, why ? why : "ok");
}

static void size_bad(const char *s, const char *why_want)
{
	uint64_t b;
	const char *why = NULL;
	int r = units_parse_size(s, &b, &why);
	CHECK(r < 0 && why && strstr(why, why_want), "size '%s' refused: %s (got %s)", s, why_want, why ? why : "accepted");
}

int main(void)
{
	uint64_t ps = vmr_page_size();
	size_ok("4096", 4096);
	size_ok("64K", 65536);
	size_ok("256M", 256ull << 20);
	size_ok("1.5G", 3ull << 29);
	size_ok("1000p", 1000 * ps);
	size_ok("2GiB", 2ull << 30);
	size_ok("0", 0);
	size_bad("-5M", "negative");
	size_bad("1.5.5G", "more than one decimal point");
	size_bad("99999999T", "too large");
	size_bad("abc", "not a number");
	size_bad("", "empty");
	size_bad("12Q", "unknown unit");
	size_bad("1.5", "whole number");

	struct vmr_rsize r = { 0 };
	const char *why;
	CHECK(units_parse_rsize("1.5x", &r, &why) == 0 && r.factor == 1.5, "1.5x is relative");
	CHECK(units_rsize_bytes(&r, 64ull << 20) == 96ull << 20, "1.5x of 64M is 96M");
	CHECK(units_parse_rsize("-1x", &r, &why) < 0, "-1x refused");
	CHECK(units_parse_rsize("0x", &r, &why) < 0, "0x refused");
	CHECK(units_parse_rsize("64M", &r, &why) == 0 && !r.factor && r.bytes == 64ull << 20, "64M is absolute");

	uint64_t ns;
	CHECK(units_parse_time("100ms", &ns, &why) == 0 && ns == 100000000ull, "100ms");
	CHECK(units_parse_time("5", &ns, &why) == 0 && ns == 5000000000ull, "bare number is seconds");
	CHECK(units_parse_time("1.5us", &ns, &why) == 0 && ns == 1500, "1.5us");
	CHECK(units_parse_time("10m", &ns, &why) == 0 && ns == 600000000000ull, "10m is minutes");
	CHECK(units_parse_time("5 s", &ns, &why) < 0, "'5 s' refused");
	CHECK(units_parse_time("-1s", &ns, &why) < 0, "-1s refused");

	/* Printing round-trips through parsing. */
	const uint64_t sizes[] = { 0, 1, 4096, 65536, 256ull << 20, 3ull << 29, 1ull << 40, 123456789 };
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		char buf[32];
		units_format_size(buf, sizeof(buf), sizes[i]);
		uint64_t back;
		int rr = units_parse_size(buf, &back, &why);
		double err = sizes[i] ? ((double)back - (double)sizes[i]) / (double)sizes[i] : 0;
		CHECK(rr == 0 && err < 0.01 && err > -0.01, "size %llu prints as '%s' and parses back",
		      (unsigned long long)sizes[i], buf);
	}
	char buf[32];
	CHECK_STR(units_format_size(buf, sizeof(buf), 256ull << 20), "256M", "256M prints as 256M");
	CHECK_STR(units_format_size(buf, sizeof(buf), 3ull << 29), "1.5G", "1.5G prints as 1.5G");
	T_DONE();
}
