/* The zswap workload's pool figures come from /proc/meminfo's Zswap and
 * Zswapped; a kernel that lacks those lines (before 5.19, or built without
 * zswap) gave no figure, and none may be stored as 0. */
#include "fixture.h"
#include "probe/meminfo.h"
#include "t.h"
#include "workload/zswap.h"

static void pool_of(const char *buf, size_t len, struct zswap_pool *p)
{
	struct meminfo m = { 0 };
	char err[PROBE_ERR_MAX] = "";
	CHECK(meminfo_parse(&m, buf, len, err) == 0, "the meminfo parses (%s)", err);
	zswap_pool_read(&m, p);
	meminfo_free(&m);
}

/* A 5.10 kernel: neither line, so no figure at all. */
static void test_absent(void)
{
	size_t len;
	char *buf = fixture_read("meminfo", "linux-5.10-layout.txt", &len);
	struct zswap_pool p = { .pool_bytes = 0 };
	struct result r = { 0 };
	pool_of(buf, len, &p);
	CHECK(!p.have_pool && !p.have_stored, "no Zswap, no Zswapped: neither is had");
	result_init(&r, "zswap");
	zswap_pool_metrics(&r, &p);
	CHECK(!result_find_metric(&r, "zswap-pool-bytes"), "no zswap-pool-bytes is stored");
	CHECK(!result_find_metric(&r, "zswap-stored-bytes"), "no zswap-stored-bytes is stored");
	CHECK(!result_find_metric(&r, "compression-ratio"), "no compression-ratio is stored");
	result_free(&r);
	free(buf);
}

/* Only Zswap given: the pool is stored, the ratio needs both. */
static void test_half(void)
{
	const char *txt = "MemTotal:  1000 kB\nZswap:  8 kB\n";
	struct zswap_pool p = { .pool_bytes = 0 };
	struct result r = { 0 };
	pool_of(txt, strlen(txt), &p);
	result_init(&r, "zswap");
	zswap_pool_metrics(&r, &p);
	const struct metric *m = result_find_metric(&r, "zswap-pool-bytes");
	CHECK(m && m->value == 8192, "Zswap alone: the pool's 8 KiB is stored");
	CHECK(!result_find_metric(&r, "zswap-stored-bytes") && !result_find_metric(&r, "compression-ratio"),
	      "Zswap alone: neither what it holds nor the ratio is stored");
	result_free(&r);
}

/* Both given: every figure, the ratio stored over the pool; an empty pool
 * (both 0: zswap on, nothing in it) has figures of 0 but no ratio. */
static void test_present(void)
{
	const char *txt = "MemTotal:  1000 kB\nZswap:  100 kB\nZswapped:  300 kB\n";
	struct zswap_pool p = { .pool_bytes = 0 };
	struct result r = { 0 };
	pool_of(txt, strlen(txt), &p);
	result_init(&r, "zswap");
	zswap_pool_metrics(&r, &p);
	const struct metric *pool = result_find_metric(&r, "zswap-pool-bytes"),
			    *stored = result_find_metric(&r, "zswap-stored-bytes"),
			    *ratio = result_find_metric(&r, "compression-ratio");
	CHECK(pool && pool->value == 102400 && stored && stored->value == 307200, "both figures stored, in bytes");
	CHECK(ratio && ratio->value == 3, "compression-ratio is stored over pool (3)");
	result_free(&r);

	size_t len;
	char *buf = fixture_read("meminfo", "linux-6.18-x86_64.txt", &len);
	pool_of(buf, len, &p);
	result_init(&r, "zswap");
	zswap_pool_metrics(&r, &p);
	pool = result_find_metric(&r, "zswap-pool-bytes");
	CHECK(p.have_pool && p.have_stored && pool && pool->value == 0, "6.18 with an empty pool: a pool of 0 is stored");
	CHECK(!result_find_metric(&r, "compression-ratio"), "an empty pool has no compression ratio");
	result_free(&r);
	free(buf);
}

int main(void)
{
	test_absent();
	test_half();
	test_present();
	T_DONE();
}
