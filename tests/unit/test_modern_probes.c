/* The readers of today's VM features: one-value sysfs files, THP and
 * multi-size THP trees (this kernel's and captured older ones), the
 * multi-generational LRU, zram's mm_stat and the swap view. */
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>

#include "fixture.h"
#include "probe/damon.h"
#include "probe/lru_gen.h"
#include "probe/swapinfo.h"
#include "probe/sysfsdir.h"
#include "probe/system.h"
#include "probe/thp.h"
#include "t.h"

static void test_values(void)
{
	static const struct { const char *in, *want; bool number; } good[] = {
		{ "always inherit madvise [never]\n", "never", false },   /* a per-size selector */
		{ "[always] madvise never", "always", false },            /* no newline */
		{ "lzo\n", "lzo", false },                                /* a bare word */
		{ "2097152\n", "2097152", true },
		{ "0x0007\n", "0x0007", false },                          /* hex stays text */
		{ "18446744073709551616\n", "18446744073709551616", false },  /* past 64 bits */
	};
	static const struct { const char *in, *why; } bad[] = {
		{ "", "empty" }, { "\n", "empty" }, { "a\nb\n", "more than one line" },
		{ "a [b] [c]\n", "line 1: more than one bracketed choice" },
		{ "a [] c\n", "line 1: a '[' without a word and ']'" },
		{ "a [b c\n", "line 1: a '[' without a word and ']'" },
		{ "a\tb\n", "line 1: a control byte (0x09)" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		struct sysfs_value v = { .name = "" };
		char err[PROBE_ERR_MAX] = "";
		CHECK(sysfs_value_parse(&v, good[i].in, strlen(good[i].in), err) == 0, "'%s' parses (%s)", good[i].want, err);
		CHECK_STR(v.value, good[i].want, "value of '%s'", good[i].want);
		CHECK(v.is_number == good[i].number, "'%s' is %sa number", good[i].want, good[i].number ? "" : "not ");
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct sysfs_value v = { .name = "" };
		char err[PROBE_ERR_MAX] = "";
		CHECK(sysfs_value_parse(&v, bad[i].in, strlen(bad[i].in), err) == -1, "bad value %zu is rejected", i);
		CHECK_STR(err, bad[i].why, "bad value %zu: the reason", i);
	}
	char big[SYSFS_VALUE_MAX + 8];
	memset(big, 'x', sizeof(big));
	struct sysfs_value v = { .name = "" };
	char err[PROBE_ERR_MAX] = "";
	CHECK(sysfs_value_parse(&v, big, sizeof(big), err) == -1 && strstr(err, "longer than"), "too long (%s)", err);
}

static void test_size_names(void)
{
	uint64_t kb = 0;
	char label[24];
	CHECK(thp_parse_size_name("hugepages-64kB", &kb) == 0 && kb == 64, "hugepages-64kB is 64 kB");
	CHECK(thp_parse_size_name("hugepages-2048kB", &kb) == 0 && kb == 2048, "hugepages-2048kB");
	CHECK(thp_parse_size_name("hugepages-64KB", &kb) == -1, "kB is spelt kB");
	CHECK(thp_parse_size_name("hugepages-064kB", &kb) == -1, "no leading zero");
	CHECK(thp_parse_size_name("hugepages-kB", &kb) == -1, "no number");
	CHECK(thp_parse_size_name("khugepaged", &kb) == -1, "khugepaged is not a size");
	CHECK(thp_parse_size_name("hugepages-64kBx", &kb) == -1, "trailing text");
	thp_size_label(64, label, sizeof(label));
	CHECK_STR(label, "64K", "64 kB is 64K");
	thp_size_label(2048, label, sizeof(label));
	CHECK_STR(label, "2M", "2048 kB is 2M");
	thp_size_label(1024 * 1024, label, sizeof(label));
	CHECK_STR(label, "1G", "1 GB is 1G");
	thp_size_label(1536, label, sizeof(label));
	CHECK_STR(label, "1536K", "1536 kB stays in K");
}

static void test_thp_fixtures(void)
{
	struct thp t = { 0 };
	char err[PROBE_ERR_MAX] = "";
	uint64_t v;
	CHECK(thp_read(&t, "tests/fixtures/thp/linux-6.1", err) == 0, "6.1's tree reads (%s)", err);
	CHECK(t.nsizes == 0, "6.1: no multi-size THP sizes");
	CHECK_STR(sysfs_dir_get(&t.settings, "enabled")->value, "madvise", "6.1: enabled is madvise");
	CHECK(sysfs_dir_get(&t.khugepaged, "pages_to_scan")->number == 4096, "6.1: khugepaged's pages_to_scan");
	json_t *j = thp_json(&t, false);
	CHECK(json_object_size(json_object_get(j, "sizes")) == 0, "6.1: no sizes in JSON");
	CHECK(!json_object_get(json_object_get(j, "khugepaged"), "full_scans"), "the fingerprint leaves out full_scans");
	CHECK(json_object_get(json_object_get(j, "khugepaged"), "max_ptes_none"), "... and keeps max_ptes_none");
	json_decref(j);
	thp_free(&t);

	CHECK(thp_read(&t, "tests/fixtures/thp/linux-6.8", err) == 0, "6.8's tree reads (%s)", err);
	CHECK(t.nsizes == 2 && t.sizes[0].size_kb == 64 && t.sizes[1].size_kb == 2048, "6.8: 64K and 2M, in order");
	CHECK(t.nsizes == 2 && !t.sizes[0].have_stats, "6.8: no stats/ directory");
	CHECK(t.nsizes == 2 && thp_size_stat(&t.sizes[0], "swpout", &v) == -1, "6.8: no swpout counter");
	CHECK_STR(sysfs_dir_get(&thp_find_size(&t, 2048)->settings, "enabled")->value, "inherit", "6.8: 2M inherits");
	CHECK(thp_find_size(&t, 32) == NULL, "6.8: no 32K");
	j = thp_json(&t, true);
	CHECK(json_is_null(json_object_get(json_object_get(json_object_get(j, "sizes"), "64K"), "stats")),
	      "6.8: stats is null");
	json_decref(j);
	thp_free(&t);

	errno = 0;
	CHECK(thp_read(&t, "tests/fixtures/thp/nonexistent", err) == -1 && errno == ENOENT, "no tree: ENOENT (%s)", err);
}

static void test_thp_host(void)
{
	struct thp t = { 0 };
	char err[PROBE_ERR_MAX] = "";
	uint64_t v;
	if (access(THP_ROOT "/hugepages-64kB/stats", F_OK) != 0) {
		SKIP("this kernel's multi-size THP stats: no " THP_ROOT "/hugepages-64kB/stats");
		return;
	}
	CHECK(thp_read(&t, NULL, err) == 0, "this kernel's THP reads (%s)", err);
	const struct thp_size *s = thp_find_size(&t, 64);
	CHECK(s && s->have_stats && thp_size_stat(s, "swpout", &v) == 0, "64K has stats/swpout");
	CHECK(s && sysfs_dir_get(&s->settings, "enabled"), "64K has enabled");
	json_t *j = thp_json(&t, true);
	CHECK(json_is_integer(json_object_get(json_object_get(json_object_get(json_object_get(j, "sizes"), "64K"),
							       "stats"), "anon_fault_alloc")), "JSON: 64K anon_fault_alloc");
	json_decref(j);
	thp_free(&t);
}

static void test_lru_gen(void)
{
	struct lru_gen g = { 0 };
	uint64_t m;
	char err[PROBE_ERR_MAX] = "";
	CHECK(lru_gen_parse_enabled("0x0007\n", 7, &m, err) == 0 && m == 7, "0x0007");
	CHECK(lru_gen_parse_enabled("0x0001", 6, &m, err) == 0 && m == 1, "without a newline");
	CHECK(lru_gen_parse_enabled("0x", 2, &m, err) == -1, "0x alone is refused");
	CHECK(lru_gen_parse_enabled("y\n", 2, &m, err) == -1, "y is refused (%s)", err);
	CHECK(lru_gen_read(&g, "tests/fixtures/lru_gen/linux-6.1", err) == 0, "6.1's lru_gen reads (%s)", err);
	CHECK(g.enabled == 7 && g.have_min_ttl && g.min_ttl_ms == 1000, "6.1: 0x0007 and min_ttl_ms 1000");
	json_t *j = lru_gen_json(&g);
	CHECK_STR(json_string_value(json_object_get(j, "enabled")), "0x0007", "JSON: the mask as the kernel prints it");
	CHECK(json_is_true(json_object_get(j, "nonleaf_young")), "JSON: nonleaf_young");
	json_decref(j);
	errno = 0;
	CHECK(lru_gen_read(&g, "tests/fixtures/lru_gen/bad-mask", err) == -1 && errno == EINVAL, "a bad mask: EINVAL");
	CHECK_STR(err, "line 1: expected a mask like 0x0007", "a bad mask: the reason");
	errno = 0;
	int r = lru_gen_read(&g, NULL, err);
	if (access(LRU_GEN_ROOT, F_OK) == 0)
		CHECK(r == 0, "this kernel's lru_gen reads (%s)", err);
	else
		CHECK(r == -1 && errno == ENOENT, "this kernel has no lru_gen: ENOENT");
}

static void bad_mm_stat(const char *name, const char *buf, size_t len, void *arg)
{
	struct zram_mm_stat m = { 0 };
	char err[PROBE_ERR_MAX] = "";
	CHECK(zram_mm_stat_parse(&m, buf, len, err) == -1, "mm_stat %s is rejected", name);
	CHECK(err[0], "mm_stat %s: the reason (%s)", name, err);
}

static void test_mm_stat(void)
{
	struct zram_mm_stat m = { 0 };
	size_t len;
	char err[PROBE_ERR_MAX] = "";
	char *buf = fixture_read("mm_stat", "linux-4.9.txt", &len);
	CHECK(zram_mm_stat_parse(&m, buf, len, err) == 0 && m.n == 7, "4.9: 7 columns (%s)", err);
	CHECK(m.v[0] == 4096000 && m.v[6] == 3, "4.9: orig_data_size and pages_compacted");
	free(buf);
	buf = fixture_read("mm_stat", "linux-6.1-used.txt", &len);
	CHECK(zram_mm_stat_parse(&m, buf, len, err) == 0 && m.n == 9, "6.1: 9 columns");
	CHECK(m.v[1] == 14680064 && m.v[8] == 130, "6.1: compr_data_size and huge_pages_since");
	free(buf);
	const char *more = "1 2 3 4 5 6 7 8 9 10 11\n";
	CHECK(zram_mm_stat_parse(&m, more, strlen(more), err) == 0 && m.n == 9 && m.v[8] == 9,
	      "a newer kernel's extra columns are left out");
	CHECK(fixture_each("mm_stat", "bad-*", bad_mm_stat, NULL) >= 4, "bad mm_stat fixtures exist");
	buf = fixture_read("mm_stat", "bad-word.txt", &len);
	zram_mm_stat_parse(&m, buf, len, err);
	CHECK_STR(err, "line 1: column 3 is not a number", "the column is named");
	free(buf);
}

static void test_zswap_fixture(void)
{
	struct sysfs_dir d = { 0 };
	char err[PROBE_ERR_MAX] = "";
	CHECK(sysfs_dir_read(&d, "tests/fixtures/zswap/linux-6.1", err) == 0, "6.1's zswap parameters read (%s)", err);
	CHECK(sysfs_dir_get(&d, "shrinker_enabled") == NULL, "6.1: no shrinker_enabled");
	CHECK(sysfs_dir_get(&d, "zpool") && !strcmp(sysfs_dir_get(&d, "zpool")->value, "zbud"), "6.1: zpool zbud");
	CHECK(d.n == 7 && !strcmp(d.v[0].name, "accept_threshold_percent"), "7 parameters, sorted");
	sysfs_dir_free(&d);
}

static void test_swap_host(void)
{
	struct swapinfo s = { 0 };
	swapinfo_read(&s);
	CHECK(s.devices && json_is_array(s.devices), "the swap devices are read");
	CHECK(sysfs_dir_get(&s.meminfo, "SwapCached"), "SwapCached is read");
	CHECK(sysfs_dir_get(&s.vmstat, "pswpout"), "pswpout is read");
	CHECK(!sysfs_dir_get(&s.vmstat, "pgfault"), "pgfault is not a swap counter");
	if (access(SWAPINFO_ZSWAP_PARAMS "/enabled", F_OK) == 0)
		CHECK(s.have_zswap && sysfs_dir_get(&s.zswap, "max_pool_percent"), "zswap's max_pool_percent");
	json_t *j = swapinfo_json(&s);
	CHECK(json_object_get(j, "zram") && json_object_get(j, "vma_ra_enabled"), "JSON has zram and vma_ra_enabled");
	json_decref(j);
	swapinfo_free(&s);
	CHECK(swapinfo_vmstat_name("swpout_zero") && swapinfo_vmstat_name("zswpwb") &&
	      !swapinfo_vmstat_name("nr_zswap"), "swap counter names");
}

/* The fingerprint carries the THP and mTHP state, so that compare tells
 * apart two runs whose sizes were set differently. */
static void test_fingerprint(void)
{
	json_t *j = system_fingerprint();
	json_t *thp = json_object_get(j, "thp");
	CHECK(json_is_object(json_object_get(j, "lru_gen")), "fingerprint has lru_gen");
	CHECK(json_is_boolean(json_object_get(json_object_get(j, "lru_gen"), "available")), "lru_gen.available");
	CHECK(json_object_get(json_object_get(j, "numa"), "demotion_enabled"), "numa.demotion_enabled");
	CHECK(json_object_get(json_object_get(j, "swap"), "vma_ra_enabled"), "swap.vma_ra_enabled");
	CHECK(json_is_boolean(json_object_get(json_object_get(j, "damon"), "available")), "damon.available");
	if (access(THP_ROOT "/hugepages-64kB/enabled", F_OK) == 0) {
		struct thp t = { 0 };
		char err[PROBE_ERR_MAX] = "";
		CHECK(thp_read(&t, NULL, err) == 0, "THP reads (%s)", err);
		const struct sysfs_value *v = sysfs_dir_get(&thp_find_size(&t, 64)->settings, "enabled");
		CHECK_STR(json_string_value(json_object_get(json_object_get(json_object_get(thp, "sizes"), "64K"), "enabled")),
			  v ? v->value : NULL, "thp.sizes.64K.enabled is the kernel's");
		CHECK(!json_object_get(json_object_get(json_object_get(thp, "sizes"), "64K"), "stats"),
		      "no counters in the fingerprint");
		thp_free(&t);
	} else {
		SKIP("thp.sizes in the fingerprint: no multi-size THP here");
	}
	if (access(THP_ROOT "/shrink_underused", F_OK) == 0)
		CHECK(json_object_get(thp, "shrink_underused"), "thp.shrink_underused");
	if (access(SWAPINFO_ZSWAP_PARAMS "/shrinker_enabled", F_OK) == 0)
		CHECK(json_is_boolean(json_object_get(json_object_get(j, "zswap"), "shrinker_enabled")),
		      "zswap.shrinker_enabled is a boolean");
	CHECK(json_is_boolean(json_object_get(json_object_get(j, "zswap"), "enabled")), "zswap.enabled stays a boolean");
	json_decref(j);
}

static void test_damon(void)
{
	struct damon_state d = { 0 };
	char err[PROBE_ERR_MAX] = "";
	CHECK(damon_read(&d, "tests/fixtures/damon/idle", err) == 0 && d.nkdamonds == 0, "idle DAMON (%s)", err);
	CHECK(damon_running(&d) == 0, "idle: none running");
	CHECK(damon_read(&d, "tests/fixtures/damon/two", err) == 0 && d.nkdamonds == 2 && d.nread == 2, "two kdamonds");
	CHECK(damon_running(&d) == 1, "two: one running");
	CHECK_STR(d.k[0].operations, "vaddr", "kdamond 0 monitors virtual addresses");
	CHECK(d.k[0].nactions == 2 && !strcmp(d.k[0].actions[0], "pageout") && !strcmp(d.k[0].actions[1], "stat"),
	      "kdamond 0's schemes");
	CHECK(d.k[0].sample_us == 5000 && d.k[0].aggr_us == 100000, "kdamond 0's intervals");
	CHECK(d.k[1].operations[0] == '\0' && d.k[1].nactions == 0, "kdamond 1 has no context");
	json_t *j = damon_json(&d);
	CHECK_STR(json_string_value(json_object_get(json_array_get(json_object_get(j, "kdamonds"), 1), "state")), "off",
		  "JSON: kdamond 1 is off");
	json_decref(j);
	errno = 0;
	CHECK(damon_read(&d, "tests/fixtures/damon/none", err) == -1 && errno == ENOENT, "no DAMON: ENOENT (%s)", err);
	uint64_t n;
	if (vmr_read_u64(DAMON_ADMIN "/kdamonds/nr_kdamonds", &n) == 0)
		CHECK(damon_read(&d, NULL, err) == 0 && d.nkdamonds == n, "this kernel's DAMON: %" PRIu64 " kdamonds", n);
	else
		SKIP("this kernel's DAMON: no " DAMON_ADMIN);
}

int main(void)
{
	test_damon();
	test_fingerprint();
	test_values();
	test_size_names();
	test_thp_fixtures();
	test_thp_host();
	test_lru_gen();
	test_mm_stat();
	test_zswap_fixture();
	test_swap_host();
	T_DONE();
}
