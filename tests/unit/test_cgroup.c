/* Which memory cgroup hierarchy to use comes from mountinfo, decided at run
 * time: v2 where its root delegates memory, else v1's memory mount. */
#include <stdlib.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/cgroup.h"
#include "t.h"

/* A cgroup directory made of plain files (knob files start empty), for the version this host lacks:
 * the files' formats are the kernel's (Documentation/admin-guide/cgroup-v2.rst). */
static char *fake_dir(const char *const files[][2])
{
	char tmpl[] = "/tmp/vmr-cg-XXXXXX";
	char *dir = xstrdup(mkdtemp(tmpl));
	for (size_t i = 0; files[i][0]; i++) {
		char *p = xasprintf("%s/%s", dir, files[i][0]);
		vmr_write_atomic(p, files[i][1], strlen(files[i][1]), 0644);
		free(p);
	}
	return dir;
}

static void rm_dir(char *dir, const char *const files[][2])
{
	for (size_t i = 0; files[i][0]; i++) {
		char *p = xasprintf("%s/%s", dir, files[i][0]);
		unlink(p);
		free(p);
	}
	rmdir(dir);
	free(dir);
}

static char *read_in(const char *dir, const char *file)
{
	char *p = xasprintf("%s/%s", dir, file), *v = NULL;
	vmr_read_line(p, &v);
	free(p);
	return v;
}

static void v2_files(void)
{
	static const char *const files[][2] = {
		{ "memory.max", "" }, { "memory.high", "" }, { "memory.swap.max", "" },
		{ "memory.current", "52428800\n" }, { "memory.peak", "67108864\n" },
		{ "memory.swap.current", "16777216\n" },
		{ "memory.events", "low 0\nhigh 12\nmax 345\noom 2\noom_kill 1\noom_group_kill 0\n" },
		{ "memory.stat", "anon 50331648\nfile 2097152\npgfault 123456\npgmajfault 78\n" },
		{ NULL, NULL },
	};
	char *dir = fake_dir(files);
	CHECK(cgroup_configure(2, dir, 64ULL << 20, 60ULL << 20, 128ULL << 20, 60) == 0, "v2 configure writes");
	char *m = read_in(dir, "memory.max"), *h = read_in(dir, "memory.high"), *s = read_in(dir, "memory.swap.max");
	CHECK_STR(m, "67108864", "v2 memory.max is the limit");
	CHECK_STR(h, "62914560", "v2 memory.high when asked");
	CHECK_STR(s, "134217728", "v2 memory.swap.max is the swap size");
	free(m), free(h), free(s);
	/* plain files do not truncate on write as kernel files do */
	char *sw = xasprintf("%s/memory.swap.max", dir);
	truncate(sw, 0);
	free(sw);
	CHECK(cgroup_configure(2, dir, 64ULL << 20, 0, CGROUP_UNLIMITED, -1) == 0, "v2 host swap");
	s = read_in(dir, "memory.swap.max");
	CHECK_STR(s, "max", "v2 --swap host leaves swap unlimited");
	free(s);
	json_t *o = cgroup_stats(2, dir);
	CHECK(json_integer_value(json_object_get(o, "usage_bytes")) == 52428800, "v2 usage from memory.current");
	CHECK(json_integer_value(json_object_get(o, "peak_bytes")) == 67108864, "v2 peak from memory.peak");
	CHECK(json_integer_value(json_object_get(o, "swap_bytes")) == 16777216, "v2 swap from memory.swap.current");
	CHECK(json_integer_value(json_object_get(o, "oom_kill")) == 1, "v2 oom_kill from memory.events");
	CHECK(json_integer_value(json_object_get(o, "failcnt")) == 345, "v2 events.max is the fail count");
	CHECK(json_integer_value(json_object_get(o, "stat.pgmajfault")) == 78, "v2 memory.stat keys");
	json_decref(o);
	CHECK_EQ_U(cgroup_oom_kills(2, dir), 1, "v2 oom kills");
	rm_dir(dir, files);
}

static void v1_files(void)
{
	static const char *const files[][2] = {
		{ "memory.limit_in_bytes", "" }, { "memory.memsw.limit_in_bytes", "" },
		{ "memory.soft_limit_in_bytes", "" }, { "memory.swappiness", "" },
		{ "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n" },
		{ "memory.usage_in_bytes", "1000\n" }, { "memory.max_usage_in_bytes", "5000\n" },
		{ "memory.failcnt", "17\n" }, { "memory.memsw.usage_in_bytes", "3000\n" },
		{ "memory.stat", "cache 0\nrss 1000\nswap 2000\npgmajfault 9\n" },
		{ NULL, NULL },
	};
	char *dir = fake_dir(files);
	CHECK(cgroup_configure(1, dir, 64ULL << 20, 0, 128ULL << 20, 100) == 0, "v1 configure writes");
	char *m = read_in(dir, "memory.limit_in_bytes"), *s = read_in(dir, "memory.memsw.limit_in_bytes");
	char *w = read_in(dir, "memory.swappiness");
	CHECK_STR(m, "67108864", "v1 limit_in_bytes is the limit");
	CHECK_STR(s, "201326592", "v1 memsw limit is limit plus swap");
	CHECK_STR(w, "100", "v1 swappiness follows vm.swappiness");
	free(m), free(s), free(w);
	json_t *o = cgroup_stats(1, dir);
	CHECK(json_integer_value(json_object_get(o, "swap_bytes")) == 2000, "v1 swap from memory.stat");
	CHECK(json_integer_value(json_object_get(o, "oom_kill")) == 3, "v1 oom_kill from oom_control");
	CHECK(json_integer_value(json_object_get(o, "failcnt")) == 17, "v1 failcnt");
	CHECK(json_integer_value(json_object_get(o, "peak_bytes")) == 5000, "v1 peak from max_usage_in_bytes");
	json_decref(o);
	rm_dir(dir, files);
}

static const char v1_host[] =
	"25 30 0:23 / /sys ro,nosuid - sysfs sysfs rw\n"
	"33 25 0:28 / /sys/fs/cgroup ro - tmpfs tmpfs ro,mode=755\n"
	"34 33 0:29 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw,nsdelegate\n"
	"36 33 0:31 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
	"37 33 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
static const char v2_host[] =
	"25 30 0:23 / /sys ro,nosuid - sysfs sysfs rw\n"
	"35 25 0:30 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";
static const char none[] = "25 30 0:23 / /sys ro,nosuid - sysfs sysfs rw\n";
static const char tricky[] =
	"37 33 0:32 / /sys/fs/cgroup/memory\\040x rw - cgroup cgroup rw,memory\n"
	"38 33 0:33 / /sys/fs/cgroup/memoryless rw - cgroup cgroup rw,cpu,memory_pressure\n";

int main(void)
{
	struct cg_root r = { 0 };
	CHECK(cgroup_parse_mountinfo(v1_host, false, &r) == 0 && r.version == 1 &&
	      !strcmp(r.path, "/sys/fs/cgroup/memory"), "v1 memory mount found beside a v2 mount without memory");
	CHECK(cgroup_parse_mountinfo(v1_host, true, &r) == 0 && r.version == 2, "v2 chosen when it offers memory");
	CHECK(cgroup_parse_mountinfo(v2_host, true, &r) == 0 && r.version == 2 && !strcmp(r.path, "/sys/fs/cgroup"),
	      "pure v2 host");
	CHECK(cgroup_parse_mountinfo(v2_host, false, &r) < 0, "v2 without a usable memory controller: none");
	CHECK(cgroup_parse_mountinfo(none, false, &r) < 0, "no cgroups at all: none");
	CHECK(cgroup_parse_mountinfo(tricky, false, &r) < 0, "escaped paths and look-alike options are not taken");
	CHECK(cgroup_parse_mountinfo("", false, &r) < 0, "empty mountinfo");
	v2_files();
	v1_files();
	T_DONE();
}
