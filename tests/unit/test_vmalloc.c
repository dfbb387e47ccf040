/* /proc/vmallocinfo parsing. */
#include "fixture.h"
#include "probe/vmalloc.h"
#include "t.h"

static void bad_file(const char *name, const char *buf, size_t len, void *arg)
{
	struct vmallocinfo vi = { 0 };
	char err[PROBE_ERR_MAX] = "";
	CHECK(vmallocinfo_parse(&vi, buf, len, err) == -1, "%s is rejected", name);
	CHECK(err[0] != '\0', "%s: the reason is given (%s)", name, err);
	CHECK(vi.callers == NULL, "%s: nothing half-parsed is left", name);
}

int main(void)
{
	size_t len;
	struct vmallocinfo vi = { 0 };
	char err[PROBE_ERR_MAX] = "";
	char *buf = fixture_read("vmallocinfo", "linux-2.6.32-x86_64.txt", &len);
	CHECK(vmallocinfo_parse(&vi, buf, len, err) == 0, "2.6.32 vmallocinfo parses (%s)", err);
	CHECK_EQ_U(vi.areas, 7, "7 areas");
	CHECK_EQ_U(vi.bytes, 16384 + 8192 + 20480 + 2101248 + 8192 + 8192 + 65536, "bytes add up");
	CHECK_EQ_U(vi.pages, 4 + 512 + 1, "pages= add up");
	CHECK_STR(vi.callers[0].name, "alloc_large_system_hash+0x142/0x200", "the largest caller first");
	CHECK_EQ_U(vi.callers[0].bytes, 20480 + 2101248, "its bytes");
	CHECK_EQ_U(vi.callers[0].areas, 2, "its areas");
	bool unknown = false;
	for (size_t i = 0; i < vi.ncallers; i++)
		unknown |= !strcmp(vi.callers[i].name, "(unknown)") && vi.callers[i].bytes == 65536;
	CHECK(unknown, "an area without a caller counts as (unknown)");
	vmallocinfo_free(&vi);
	free(buf);

	buf = fixture_read("vmallocinfo", "linux-6.18-x86_64.txt", &len);
	CHECK(vmallocinfo_parse(&vi, buf, len, err) == 0, "6.18 vmallocinfo parses (%s)", err);
	CHECK(vi.unpurged_areas > 0 && vi.areas > 100, "6.18: unpurged areas are kept apart");
	for (size_t i = 0; i < vi.ncallers; i++)
		if (!strcmp(vi.callers[i].name, "unpurged") || !strcmp(vi.callers[i].name, "vm_area"))
			CHECK(0, "unpurged areas are not a caller");
	vmallocinfo_free(&vi);
	free(buf);
	CHECK(fixture_each("vmallocinfo", "bad-*", bad_file, NULL) >= 4, "bad fixtures exist");
	T_DONE();
}
