/* The environment fingerprint, /proc/swaps and vm.* sysctls. */
#include "fixture.h"
#include "probe/sysctl.h"
#include "probe/system.h"
#include "t.h"

static void bad_swaps(const char *name, const char *buf, size_t len, void *arg)
{
	char err[PROBE_ERR_MAX] = "";
	CHECK(system_parse_swaps(buf, len, err) == NULL, "swaps %s is rejected", name);
	CHECK(strncmp(err, "line ", 5) == 0, "swaps %s: the reason names the line (%s)", name, err);
}

static void test_swaps(void)
{
	size_t len;
	char err[PROBE_ERR_MAX] = "";
	char *buf = fixture_read("swaps", "linux-6.1-three.txt", &len);
	json_t *a = system_parse_swaps(buf, len, err);
	CHECK(a && json_array_size(a) == 3, "three swap devices");
	json_t *s = json_array_get(a, 1);
	CHECK_STR(json_string_value(json_object_get(s, "path")), "/var/swap file", "\\040 is a space");
	CHECK_STR(json_string_value(json_object_get(s, "type")), "file", "type");
	CHECK(json_integer_value(json_object_get(s, "size_bytes")) == 2097148LL * 1024, "size in bytes");
	CHECK(json_integer_value(json_object_get(s, "priority")) == -3, "negative priority");
	CHECK(json_integer_value(json_object_get(json_array_get(a, 2), "used_bytes")) == 524288LL * 1024, "used");
	json_decref(a);
	free(buf);
	buf = fixture_read("swaps", "linux-6.18-none.txt", &len);
	a = system_parse_swaps(buf, len, err);
	CHECK(a && json_array_size(a) == 0, "no swap: an empty list");
	json_decref(a);
	free(buf);
	CHECK(fixture_each("swaps", "bad-*", bad_swaps, NULL) >= 2, "bad swaps fixtures exist");
}

static void test_selected(void)
{
	char w[16];
	CHECK(system_selected_word("always [madvise] never", w, sizeof(w)) == 0 && !strcmp(w, "madvise"), "[madvise]");
	CHECK(system_selected_word("lzo", w, sizeof(w)) == -1, "no brackets");
	CHECK(system_selected_word("a [] b", w, sizeof(w)) == -1, "empty brackets");
	CHECK(system_selected_word("[averyveryverylongword]", w, sizeof(w)) == -1, "too long for the buffer");
}

static void test_fingerprint(void)
{
	static const char *const keys[] = { "kernel", "hostname", "page_size", "mem_total_bytes",
		"swap_total_bytes", "swaps", "sysctl", "thp", "zswap", "ksm", "cgroup", "psi", "cpu", "numa" };
	json_t *j = system_fingerprint();
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		CHECK(json_object_get(j, keys[i]) != NULL, "fingerprint has %s", keys[i]);
	CHECK(json_integer_value(json_object_get(j, "page_size")) == (json_int_t)vmr_page_size(), "page size");
	json_t *sc = json_object_get(j, "sysctl");
	char *v = NULL, err[PROBE_ERR_MAX] = "";
	CHECK(sysctl_get("vm.swappiness", &v, err) == 0, "vm.swappiness reads (%s)", err);
	CHECK(v && json_is_string(json_object_get(sc, "vm.swappiness")) &&
	      !strcmp(json_string_value(json_object_get(sc, "vm.swappiness")), v), "sysctl.vm.swappiness matches");
	free(v);
	CHECK(json_object_size(sc) > 20, "many vm.* sysctls");
	json_t *cpu = json_object_get(j, "cpu");
	CHECK(json_integer_value(json_object_get(cpu, "count")) >= 1, "a CPU count");
	json_decref(j);
}

static void test_sysctl(void)
{
	struct sysctl_list l = { 0 };
	char err[PROBE_ERR_MAX] = "", path[64];
	CHECK(sysctl_read_all(&l, "vm", err) == 0, "vm.* reads");
	CHECK(sysctl_list_get(&l, "vm.overcommit_memory") != NULL, "vm.overcommit_memory is there");
	bool sorted = true;
	for (size_t i = 1; i < l.n; i++)
		sorted &= strcmp(l.items[i - 1].name, l.items[i].name) < 0;
	CHECK(sorted, "sorted by name");
	const char *lr = sysctl_list_get(&l, "vm.lowmem_reserve_ratio");
	CHECK(!lr || !strchr(lr, '\t'), "tabs become spaces");
	sysctl_list_free(&l);
	CHECK_STR(sysctl_path("vm.dirty_ratio", path, sizeof(path)), "/proc/sys/vm/dirty_ratio", "dotted name to path");
	CHECK(sysctl_read_all(&l, "vm.no_such_dir", err) == -1 && strstr(err, "cannot read"), "a missing directory is an error");
}

int main(void)
{
	test_swaps();
	test_selected();
	test_fingerprint();
	test_sysctl();
	T_DONE();
}
