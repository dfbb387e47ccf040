/* /proc/meminfo parsing. */
#include "fixture.h"
#include "probe/meminfo.h"
#include "t.h"

static void bad_file(const char *name, const char *buf, size_t len, void *arg)
{
	struct meminfo m = { 0 };
	char err[PROBE_ERR_MAX] = "";
	CHECK(meminfo_parse(&m, buf, len, err) == -1, "%s is rejected", name);
	CHECK(err[0] != '\0', "%s: the reason is given (%s)", name, err);
	meminfo_free(&m);
}

static void test_values(void)
{
	size_t len;
	char *buf = fixture_read("meminfo", "linux-6.18-x86_64.txt", &len), err[PROBE_ERR_MAX] = "";
	struct meminfo m = { 0 };
	uint64_t v;
	CHECK(meminfo_parse(&m, buf, len, err) == 0, "6.18 meminfo parses (%s)", err);
	CHECK(meminfo_get(&m, "MemTotal", &v) == 0 && v == 24684084ULL * 1024, "MemTotal in bytes");
	CHECK(meminfo_get(&m, "SwapTotal", &v) == 0 && v == 0, "SwapTotal is 0");
	CHECK(meminfo_get(&m, "Active(anon)", &v) == 0, "names with parentheses");
	CHECK(meminfo_get(&m, "HugePages_Total", &v) == 0 && v == 0, "counts without a unit");
	CHECK(meminfo_get(&m, "Nope", &v) == -1, "a missing name is -1");
	meminfo_free(&m);
	free(buf);

	buf = fixture_read("meminfo", "linux-6.18-node0.txt", &len);
	CHECK(meminfo_parse(&m, buf, len, err) == 0, "per-node meminfo parses (%s)", err);
	CHECK(meminfo_get(&m, "MemTotal", &v) == 0 && v == 5728460ULL * 1024, "the 'Node 0' prefix is skipped");
	meminfo_free(&m);
	free(buf);

	const char *hp = "HugePages_Total:      12\nHugepagesize:       2048 kB\n";
	CHECK(meminfo_parse(&m, hp, strlen(hp), err) == 0 && m.items[0].is_count && !m.items[1].is_count,
	      "is_count tells counts from sizes");
	meminfo_free(&m);
}

int main(void)
{
	test_values();
	struct meminfo m = { 0 };
	char err[PROBE_ERR_MAX] = "";
	uint64_t v;
	CHECK(meminfo_read(&m, NULL, err) == 0 && meminfo_get(&m, "MemAvailable", &v) == 0 && v > 0,
	      "the running kernel's meminfo has MemAvailable");
	meminfo_free(&m);
	size_t len;
	char *buf = fixture_read("meminfo", "bad-unit.txt", &len);
	meminfo_parse(&m, buf, len, err);
	CHECK_STR(err, "line 1: 'MemTotal' has an unknown unit or trailing text", "an unknown unit is named");
	free(buf);
	meminfo_free(&m);
	CHECK(fixture_each("meminfo", "bad-*", bad_file, NULL) >= 6, "bad fixtures exist");
	/* meminfo_now reads the live file: MemTotal is there and not zero,
	 * a name no kernel has is 0 */
	CHECK(meminfo_now("MemTotal") > 0 && meminfo_now("MemTotal") % 1024 == 0, "meminfo_now reads MemTotal in bytes");
	CHECK(meminfo_now("NoSuchLine") == 0, "meminfo_now of a name no kernel has is 0");
	T_DONE();
}
