/* The level rule: fractions of the sandbox limit, overrides, and the
 * seed's watermark rule on the running kernel's zones. */
#include "core/util.h"
#include "workload/level.h"
#include "t.h"

int main(void)
{
	uint64_t ps = vmr_page_size(), limit = 64ull << 20;
	struct wl_env env = { .sandboxed = true, .limit_bytes = limit, .page_size = ps, .workdir = "/tmp" };
	struct level_plan p = { 0 };
	const char *why;
	static const double f[] = { 0.80, 0.95, 1.00, 1.25 };
	for (int l = LEVEL_FAST; l <= LEVEL_ZERO; l++) {
		CHECK(level_plan(l, 0, NULL, &env, &p, &why) == 0, "plan level %s", level_name(l));
		CHECK_EQ_U(p.pages, (uint64_t)(f[l] * (double)(limit / ps)), "level %s is %.2fx the limit",
			   level_name(l), f[l]);
	}
	CHECK_EQ_U(p.free_limit, 0, "level zero leaves nothing free");
	level_plan(LEVEL_FAST, 0, NULL, &env, &p, &why);
	CHECK_EQ_U(p.free_limit, limit / ps - p.pages, "fast leaves the rest of the limit free");

	CHECK(level_plan(LEVEL_ZERO, 5850, NULL, &env, &p, &why) == 0 && p.pages == 5850, "--pages overrides");
	struct vmr_rsize rs = { .factor = 1.5 };
	CHECK(level_plan(LEVEL_FAST, 0, &rs, &env, &p, &why) == 0 && p.pages == limit / ps * 3 / 2,
	      "--size 1.5x is 1.5 times the limit");
	rs = (struct vmr_rsize){ .bytes = 5850 * ps };
	CHECK(level_plan(LEVEL_FAST, 0, &rs, &env, &p, &why) == 0 && p.pages == 5850, "--size 5850p");
	rs = (struct vmr_rsize){ .bytes = ps - 1 };
	CHECK(level_plan(LEVEL_FAST, 0, &rs, &env, &p, &why) < 0, "a size under a page is refused");

	/* Without a sandbox: the seed's rule on this kernel's zones. */
	env.sandboxed = false;
	struct level_plan fast = { 0 }, low = { 0 }, min = { 0 }, zero = { 0 };
	if (level_plan(LEVEL_FAST, 0, NULL, &env, &fast, &why) < 0) {
		SKIP("no /proc/zoneinfo here: %s", why);
		T_DONE();
	}
	level_plan(LEVEL_LOW, 0, NULL, &env, &low, &why);
	level_plan(LEVEL_MIN, 0, NULL, &env, &min, &why);
	level_plan(LEVEL_ZERO, 0, NULL, &env, &zero, &why);
	const struct level_zones *z = &zero.zones;
	CHECK(z->size > 0 && z->free > 0 && z->min <= z->low && z->low <= z->high, "zones read and ordered");
	CHECK_EQ_U(fast.free_limit, fast.zones.high, "fast keeps pages_high free");
	CHECK_EQ_U(low.free_limit, (low.zones.low + low.zones.min) / 2, "low keeps (low+min)/2 free");
	CHECK_EQ_U(min.free_limit, min.zones.min / 2, "min keeps min/2 free");
	CHECK_EQ_U(zero.pages, (z->size + z->free) / 2, "zero is (size+free)/2, as the seed's 7109");
	T_DONE();
}
