/* --levels memcg: the levels from the thresholds of a cgroup v2 memory
 * controller (memory.low, memory.high, memory.max), read from a cgroup
 * directory of plain files in the kernel's formats (this host's memory
 * controller is on v1; the real one is tested in a guest by
 * tests/cli/test_sandbox_levels.sh).  Where the thresholds are not there
 * the reason says what is missing. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "workload/level.h"
#include "t.h"

static char dir[] = "/tmp/vmr-level-XXXXXX";
static const char *const names[] = { "memory.max", "memory.high", "memory.low", "memory.current",
				     "memory.limit_in_bytes", "memory.usage_in_bytes" };

static void put(const char *file, const char *value)
{
	char *p = xasprintf("%s/%s", dir, file);
	vmr_write_atomic(p, value, strlen(value), 0644);
	free(p);
}

static void clear(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		unlink(p);
		free(p);
	}
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("not ok - a temporary directory\n");
		return 1;
	}
	uint64_t ps = 4096;
	struct wl_env env = { .sandboxed = true, .limit_bytes = 64ull << 20, .page_size = ps, .cgroup = dir };
	struct level_plan p = { 0 };
	const char *why = NULL;
	/* limit 16384 pages, high 12288, low 8192, usage 1024 */
	put("memory.max", "67108864\n");
	put("memory.high", "50331648\n");
	put("memory.low", "33554432\n");
	put("memory.current", "4194304\n");
	static const uint64_t want[] = { 8192 - 1024, (8192 + 12288) / 2 - 1024, (12288 + 16384) / 2 - 1024, 20480 };
	static const char *const what[] = { "fast ends at memory.low", "low midway between memory.low and memory.high",
					    "min midway between memory.high and memory.max", "zero is 1.25x memory.max" };
	for (int l = LEVEL_FAST; l <= LEVEL_ZERO; l++) {
		why = NULL;
		CHECK(level_plan_from(l, LEVELS_MEMCG, 0, NULL, &env, &p, &why) == 0, "plan %s (%s)", level_name(l),
		      why ? why : "");
		CHECK_EQ_U(p.pages, want[l], "%s", what[l]);
	}
	CHECK(p.low_pages == 8192 && p.high_pages == 12288 && p.base == LEVELS_MEMCG, "the thresholds are kept");
	CHECK(level_plan_from(LEVEL_MIN, LEVELS_LIMIT, 0, NULL, &env, &p, &why) == 0 && p.pages == 16384,
	      "--levels limit is the fraction of the limit still");

	put("memory.high", "max\n");
	CHECK(level_plan_from(LEVEL_MIN, LEVELS_MEMCG, 0, NULL, &env, &p, &why) < 0 && strstr(why, "--mem-high"),
	      "min without memory.high names --mem-high");
	CHECK(level_plan_from(LEVEL_FAST, LEVELS_MEMCG, 0, NULL, &env, &p, &why) == 0 && p.pages == 8192 - 1024,
	      "fast needs only memory.low");
	put("memory.low", "0\n");
	CHECK(level_plan_from(LEVEL_FAST, LEVELS_MEMCG, 0, NULL, &env, &p, &why) < 0 && strstr(why, "--mem-low"),
	      "fast without memory.low names --mem-low");
	put("memory.low", "2097152\n");
	CHECK(level_plan_from(LEVEL_FAST, LEVELS_MEMCG, 0, NULL, &env, &p, &why) < 0 && strstr(why, "already"),
	      "a memory.low below the usage leaves nothing to plan");

	clear();
	put("memory.limit_in_bytes", "67108864\n");
	put("memory.usage_in_bytes", "4194304\n");
	CHECK(level_plan_from(LEVEL_MIN, LEVELS_MEMCG, 0, NULL, &env, &p, &why) < 0 && strstr(why, "cgroup v1"),
	      "a v1 cgroup is refused with the reason");
	env.sandboxed = false;
	CHECK(level_plan_from(LEVEL_MIN, LEVELS_MEMCG, 0, NULL, &env, &p, &why) < 0 && strstr(why, "needs a sandbox"),
	      "without a sandbox it is refused");
	clear();
	rmdir(dir);
	T_DONE();
}
