/* /proc/vmstat parsing, lookups and deltas. */
#include "fixture.h"
#include "probe/vmstat.h"
#include "t.h"

static void bad_file(const char *name, const char *buf, size_t len, void *arg)
{
	struct vmstat s = { 0 };
	char err[PROBE_ERR_MAX] = "";
	vmstat_init(&s);
	CHECK(vmstat_parse(&s, buf, len, err) == -1, "%s is rejected", name);
	CHECK(err[0] != '\0', "%s: the reason is given (%s)", name, err);
	vmstat_free(&s);
}

static void good_file(const char *name, const char *buf, size_t len, void *arg)
{
	struct vmstat s = { 0 };
	char err[PROBE_ERR_MAX] = "";
	vmstat_init(&s);
	CHECK(vmstat_parse(&s, buf, len, err) == 0, "%s parses (%s)", name, err);
	CHECK(s.n > 10, "%s has counters", name);
	vmstat_free(&s);
}

static void test_values(void)
{
	size_t len;
	char *buf = fixture_read("vmstat", "linux-2.6.32-x86_64.txt", &len), err[PROBE_ERR_MAX] = "";
	struct vmstat s = { 0 };
	uint64_t v;
	vmstat_init(&s);
	CHECK(vmstat_parse(&s, buf, len, err) == 0, "2.6.32 vmstat parses");
	CHECK_EQ_U(s.n, 54, "2.6.32: 54 counters");
	CHECK(vmstat_get(&s, "pswpout", &v) == 0 && v == 42, "pswpout is 42");
	CHECK(vmstat_get(&s, "nr_free_pages", &v) == 0 && v == 183413, "the first line is read");
	CHECK(vmstat_get(&s, "unevictable_pgs_culled", &v) == 0 && v == 0, "the last line is read");
	CHECK(vmstat_get(&s, "pgscan_kswapd", &v) == -1, "a counter of newer kernels is missing");
	CHECK(vmstat_get(&s, "pswp", &v) == -1, "a prefix is not a match");
	long idx = -1;
	CHECK(vmstat_at(&s, &idx, "pgfault", &v) == 0 && v == 9876543 && idx == 34, "vmstat_at finds and remembers");
	idx = 3;
	CHECK(vmstat_at(&s, &idx, "pgfault", &v) == 0 && v == 9876543 && idx == 34, "vmstat_at corrects a stale index");
	vmstat_free(&s);
	free(buf);
}

static void test_delta(void)
{
	const char a[] = "nr_free_pages 100\npswpin 5\npswpout 7\n";
	const char b[] = "nr_free_pages 90\npswpout 10\npswpin 6\nnew_counter 3\n";
	struct vmstat sa = { 0 }, sb = { 0 };
	int64_t d[4];
	char err[PROBE_ERR_MAX] = "";
	vmstat_init(&sa);
	vmstat_init(&sb);
	CHECK(vmstat_parse(&sa, a, strlen(a), err) == 0 && vmstat_parse(&sb, b, strlen(b), err) == 0, "delta inputs parse");
	vmstat_delta(&sa, &sb, d);
	CHECK(d[0] == -10, "a gauge going down gives a negative delta");
	CHECK(d[1] == 3 && d[2] == 1, "deltas follow names, not positions");
	CHECK(d[3] == 0, "a counter new in the second snapshot gives 0");
	/* reuse: parsing into the same snapshot allocates nothing new */
	struct vmstat_item *items = sa.items;
	CHECK(vmstat_parse(&sa, a, strlen(a), err) == 0 && sa.items == items && sa.n == 3, "a reparse reuses the array");
	vmstat_free(&sa);
	vmstat_free(&sb);
}

static void test_errors(void)
{
	size_t len;
	char *buf = fixture_read("vmstat", "bad-no-value.txt", &len), err[PROBE_ERR_MAX] = "";
	struct vmstat s = { 0 };
	vmstat_init(&s);
	vmstat_parse(&s, buf, len, err);
	CHECK_STR(err, "line 2: 'pswpin' has no number (or it overflows)", "a missing value names the line");
	free(buf);
	buf = fixture_read("vmstat", "bad-truncated.txt", &len);
	vmstat_parse(&s, buf, len, err);
	CHECK(strstr(err, "truncated") != NULL, "a truncated file says so (%s)", err);
	free(buf);
	vmstat_free(&s);
}

static void test_live(void)
{
	struct vmstat s = { 0 };
	char err[PROBE_ERR_MAX] = "";
	uint64_t a, b;
	vmstat_init(&s);
	CHECK(vmstat_read(&s, NULL, err) == 0, "/proc/vmstat reads (%s)", err);
	CHECK(vmstat_get(&s, "pgfault", &a) == 0, "pgfault is there");
	int fd = s.fd;
	char *p = malloc(1 << 20);
	memset(p, 1, 1 << 20);
	free(p);
	CHECK(vmstat_read(&s, NULL, err) == 0 && s.fd == fd, "a second read reuses the open file");
	CHECK(vmstat_get(&s, "pgfault", &b) == 0 && b >= a, "pgfault does not go backwards");
	vmstat_free(&s);
}

int main(void)
{
	test_values();
	test_delta();
	test_errors();
	test_live();
	CHECK(fixture_each("vmstat", "linux-*", good_file, NULL) >= 2, "good fixtures exist");
	CHECK(fixture_each("vmstat", "memcg-*", good_file, NULL) >= 1, "memory.stat parses too");
	CHECK(fixture_each("vmstat", "bad-*", bad_file, NULL) >= 7, "bad fixtures exist");
	T_DONE();
}
