/* /proc/zoneinfo parsing: this machine's file, older kernels' layouts and
 * broken files. */
#include "fixture.h"
#include "probe/zoneinfo.h"
#include "t.h"

static void bad_file(const char *name, const char *buf, size_t len, void *arg)
{
	struct zoneinfo zi = { 0 };
	char err[PROBE_ERR_MAX] = "";
	int r = zoneinfo_parse(&zi, buf, len, err);
	CHECK(r == -1, "%s is rejected", name);
	CHECK(err[0] != '\0', "%s: the reason is given (%s)", name, err);
	CHECK(zi.nodes == NULL && zi.nnodes == 0, "%s: nothing half-parsed is left", name);
}

static void good_file(const char *name, const char *buf, size_t len, void *arg)
{
	struct zoneinfo zi = { 0 };
	char err[PROBE_ERR_MAX] = "";
	CHECK(zoneinfo_parse(&zi, buf, len, err) == 0, "%s parses (%s)", name, err);
	CHECK(zi.nnodes >= 1, "%s has a node", name);
	for (size_t i = 0; i < zi.nnodes; i++)
		for (size_t j = 0; j < zi.nodes[i].nzones; j++) {
			const struct zoneinfo_zone *z = &zi.nodes[i].zones[j];
			/* guards against reading a neighbour's number: watermarks are ordered */
			if (!(z->min <= z->low && z->low <= z->high && z->present <= z->spanned))
				CHECK(0, "%s: node %d zone %s watermarks are ordered", name, zi.nodes[i].node, z->name);
		}
	zoneinfo_free(&zi);
}

static void test_current(void)
{
	size_t len;
	char *buf = fixture_read("zoneinfo", "linux-6.18-x86_64.txt", &len), err[PROBE_ERR_MAX] = "";
	struct zoneinfo zi = { 0 };
	CHECK(zoneinfo_parse(&zi, buf, len, err) == 0, "6.18 zoneinfo parses");
	CHECK_EQ_U(zi.nnodes, 1, "6.18: one node");
	CHECK_EQ_U(zi.nodes[0].nzones, 5, "6.18: five zones including empty Movable and Device");
	const struct zoneinfo_zone *z = zoneinfo_find(&zi, 0, "DMA");
	CHECK(z != NULL, "6.18: DMA found");
	CHECK_EQ_U(z->free, 3840, "DMA free");
	CHECK_EQ_U(z->min, 45, "DMA min");
	CHECK_EQ_U(z->low, 56, "DMA low");
	CHECK_EQ_U(z->high, 67, "DMA high");
	CHECK_EQ_U(z->promo, 78, "DMA promo");
	CHECK_EQ_U(z->spanned, 4095, "DMA spanned");
	CHECK_EQ_U(z->present, 3998, "DMA present");
	CHECK_EQ_U(z->managed, 3840, "DMA managed");
	CHECK_EQ_U(z->start_pfn, 1, "DMA start_pfn");
	CHECK(z->have & ZONE_HAVE_BOOST && z->have & ZONE_HAVE_MANAGED, "DMA has boost and managed");
	CHECK_EQ_U(z->nprotection, 5, "DMA protection has 5 values");
	CHECK_EQ_U(z->protection[1], 3019, "DMA protection[1]");
	/* "high:" in pagesets must not overwrite the watermark */
	z = zoneinfo_find(&zi, 0, "DMA32");
	CHECK_EQ_U(z->high, 13676, "DMA32 high is the watermark, not the pageset's high:");
	CHECK(zoneinfo_find(&zi, 1, "DMA") == NULL, "no node 1");
	zoneinfo_free(&zi);
	free(buf);
}

static void test_old_two_nodes(void)
{
	size_t len;
	char *buf = fixture_read("zoneinfo", "linux-2.6.24-two-nodes.txt", &len), err[PROBE_ERR_MAX] = "";
	struct zoneinfo zi = { 0 };
	CHECK(zoneinfo_parse(&zi, buf, len, err) == 0, "2.6.24 zoneinfo parses (%s)", err);
	CHECK_EQ_U(zi.nnodes, 2, "2.6.24: two nodes");
	const struct zoneinfo_zone *z = zoneinfo_find(&zi, 1, "Normal");
	CHECK(z != NULL, "node 1 Normal found");
	CHECK_EQ_U(z->free, 950112, "node 1 Normal free");
	CHECK_EQ_U(z->high, 3783, "node 1 Normal high");
	CHECK(!(z->have & ZONE_HAVE_MANAGED), "2.6.24 has no managed");
	CHECK(!(z->have & ZONE_HAVE_BOOST), "2.6.24 has no boost");
	CHECK_EQ_U(z->managed, 0, "absent managed reads 0");
	z = zoneinfo_find(&zi, 0, "DMA32");
	CHECK_EQ_U(z->min, 2004, "node 0 DMA32 min");
	CHECK_EQ_U(z->protection[3], 776, "node 0 DMA32 protection[3]");
	zoneinfo_free(&zi);
	free(buf);
}

static void test_4_4_and_5_4(void)
{
	size_t len;
	char *buf = fixture_read("zoneinfo", "linux-4.4-managed-no-boost.txt", &len), err[PROBE_ERR_MAX] = "";
	struct zoneinfo zi = { 0 };
	CHECK(zoneinfo_parse(&zi, buf, len, err) == 0, "4.4 zoneinfo parses (%s)", err);
	const struct zoneinfo_zone *z = zoneinfo_find(&zi, 0, "Normal");
	CHECK(z && (z->have & ZONE_HAVE_MANAGED) && !(z->have & ZONE_HAVE_BOOST), "4.4: managed, no boost");
	CHECK_EQ_U(z->managed, 3336041, "4.4 Normal managed");
	CHECK_EQ_U(z->low, 34513, "4.4 Normal low");
	zoneinfo_free(&zi);
	free(buf);

	buf = fixture_read("zoneinfo", "linux-5.4-boost.txt", &len);
	CHECK(zoneinfo_parse(&zi, buf, len, err) == 0, "5.4 zoneinfo parses (%s)", err);
	z = zoneinfo_find(&zi, 0, "Normal");
	CHECK(z && (z->have & ZONE_HAVE_BOOST), "5.4: boost");
	CHECK_EQ_U(z->high_boost, 512, "5.4 Normal boost");
	CHECK(!(z->have & ZONE_HAVE_PROMO), "5.4: no promo");
	z = zoneinfo_find(&zi, 0, "Movable");
	CHECK(z && z->present == 0 && z->nprotection == 4, "5.4: empty Movable zone ends after protection");
	z = zoneinfo_find(&zi, 0, "DMA32");
	CHECK_EQ_U(z->free, 512345, "5.4 DMA32 free is not a per-node stat");
	zoneinfo_free(&zi);
	free(buf);
}

static void test_errors(void)
{
	char err[PROBE_ERR_MAX] = "";
	struct zoneinfo zi = { 0 };
	size_t len;
	char *buf = fixture_read("zoneinfo", "bad-truncated-zone.txt", &len);
	zoneinfo_parse(&zi, buf, len, err);
	CHECK(strstr(err, "zone Normal has no 'min'") || strstr(err, "has no 'min'"), "truncated zone names the missing field (%s)", err);
	free(buf);
	buf = fixture_read("zoneinfo", "bad-number.txt", &len);
	zoneinfo_parse(&zi, buf, len, err);
	CHECK(strstr(err, "line 56:") && strstr(err, "'min'"), "bad number names line and key (%s)", err);
	free(buf);
	zoneinfo_parse(&zi, "", 0, err);
	CHECK_STR(err, "empty", "empty input says so");
}

int main(void)
{
	test_current();
	test_old_two_nodes();
	test_4_4_and_5_4();
	test_errors();
	CHECK(fixture_each("zoneinfo", "linux-*", good_file, NULL) >= 4, "good fixtures exist");
	CHECK(fixture_each("zoneinfo", "bad-*", bad_file, NULL) >= 8, "bad fixtures exist");
	struct zoneinfo zi = { 0 };
	char err[PROBE_ERR_MAX] = "";
	CHECK(zoneinfo_read(&zi, NULL, err) == 0, "the running kernel's zoneinfo parses (%s)", err);
	zoneinfo_free(&zi);
	T_DONE();
}
