#include "workload/level.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <inttypes.h>

#include "core/util.h"
#include "probe/zoneinfo.h"

static const double level_factor[] = { 0.80, 0.95, 1.00, 1.25 };

const char *level_name(int level)
{
	static const char *const names[] = { "fast", "low", "min", "zero" };
	return level >= 0 && level < 4 ? names[level] : "?";
}

const char *level_meaning(int level, bool sandboxed)
{
	static const char *const in_sandbox[] = {
		"level fast: 80% of the limit, the sandbox's stand-in for free pages above pages_high",
		"level low: between 80% and 95% of the limit, the sandbox's stand-in for pages_min..pages_low",
		("level min: between 95% and 100% of the limit, the sandbox's stand-in for below pages_min "
		 "(reclaim must run)"),
		"level zero: 125% of the limit, the sandbox's stand-in for more than is free (swap must take the rest)",
	};
	static const char *const on_host[] = {
		"level fast: free pages less pages_high, so that free stays above pages_high",
		"level low: free pages less (pages_low + pages_min) / 2, so that free ends between pages_min and pages_low",
		"level min: free pages less pages_min / 2, so that free ends below pages_min",
		"level zero: (size + free) / 2 pages, more than is free",
	};
	if (level < 0 || level > 3)
		return "?";
	return sandboxed ? in_sandbox[level] : on_host[level];
}

static const char *level_meaning_memcg(int level)
{
	static const char *const in_memcg[] = {
		"level fast: up to memory.low, where the cgroup's memory is protected from reclaim, the "
		"stand-in for free pages above pages_high",
		"level low: midway between memory.low and memory.high, unprotected but below the point where the "
		"kernel throttles, the stand-in for pages_min..pages_low",
		"level min: midway between memory.high and memory.max, where every allocation reclaims and is "
		"throttled (the memcg's direct reclaim), the stand-in for below pages_min",
		"level zero: 125% of memory.max, more than the cgroup may hold (swap must take the rest)",
	};
	return level >= 0 && level <= 3 ? in_memcg[level] : "?";
}

uint64_t level_cgroup_usage(const char *cgroup)
{
	static const char *const files[] = { "memory.current", "memory.usage_in_bytes" };
	for (size_t i = 0; cgroup && i < ARRAY_SIZE(files); i++) {
		uint64_t v;
		char *p = xasprintf("%s/%s", cgroup, files[i]);
		int rc = vmr_read_u64(p, &v);
		free(p);
		if (rc == 0)
			return v;
	}
	return 0;
}

/* The zones' pages summed over every populated zone of every node. */
static int level_zones_read(struct level_zones *z)
{
	struct zoneinfo zi = { 0 };
	char err[PROBE_ERR_MAX];
	memset(z, 0, sizeof(*z));
	if (zoneinfo_read(&zi, NULL, err) < 0)
		return -1;
	for (size_t n = 0; n < zi.nnodes; n++) {
		for (size_t i = 0; i < zi.nodes[n].nzones; i++) {
			const struct zoneinfo_zone *zone = &zi.nodes[n].zones[i];
			uint64_t size = zone->have & ZONE_HAVE_MANAGED ? zone->managed : zone->present;
			if (!size)
				continue;
			z->size += size;
			z->free += zone->free;
			z->high += zone->high;
			z->low += zone->low;
			z->min += zone->min;
		}
	}
	zoneinfo_free(&zi);
	return z->size ? 0 : -1;
}

uint64_t level_free_pages(const struct wl_env *env)
{
	if (env->sandboxed) {
		uint64_t used = level_cgroup_usage(env->cgroup);
		return used < env->limit_bytes ? (env->limit_bytes - used) / env->page_size : 0;
	}
	struct level_zones z = { 0 };
	return level_zones_read(&z) == 0 ? z.free : 0;
}

static void level_watermarks(int level, struct level_plan *p)
{
	const struct level_zones *z = &p->zones;
	uint64_t limit = level == LEVEL_FAST  ? z->high
		       : level == LEVEL_LOW   ? (z->low + z->min) / 2
		       : level == LEVEL_MIN   ? z->min / 2 : 0;
	p->free_limit = limit;
	if (level == LEVEL_ZERO)
		p->pages = (z->size + z->free) / 2;
	else
		p->pages = z->free > limit ? z->free - limit : 0;
}

/* A cgroup v2 threshold: bytes, "max" as UINT64_MAX.  -1 when the file
 * is not there (a v1 cgroup) or does not hold a number. */
static int level_threshold(const char *cgroup, const char *file, uint64_t *out)
{
	char *path = xasprintf("%s/%s", cgroup, file), *line = NULL, *end;
	int rc = vmr_read_line(path, &line);
	free(path);
	if (rc < 0)
		return -1;
	errno = 0;
	unsigned long long v = strtoull(line, &end, 10);
	if (!strcmp(line, "max"))
		*out = UINT64_MAX;
	else if (end == line || *end || errno)
		rc = -1;
	else
		*out = v;
	free(line);
	return rc;
}

/* --levels memcg (level.h): where the level's usage ends, from the
 * thresholds the cgroup holds. */
static int level_memcg(int level, const struct wl_env *env, struct level_plan *p, const char **why)
{
	static char buf[160];
	uint64_t ps = env->page_size, low = 0, high = 0, max = 0, end = 0;
	if (!env->cgroup || level_threshold(env->cgroup, "memory.max", &max) < 0 ||
	    level_threshold(env->cgroup, "memory.high", &high) < 0 ||
	    level_threshold(env->cgroup, "memory.low", &low) < 0) {
		*why = "--levels memcg needs the cgroup v2 memory controller (memory.low, memory.high): the memory "
		       "controller here is on cgroup v1, whose soft limit acts only when the whole host runs short";
		return -1;
	}
	if (max == UINT64_MAX)
		max = env->limit_bytes;
	bool need_low = level == LEVEL_FAST || level == LEVEL_LOW;
	bool need_high = level == LEVEL_LOW || level == LEVEL_MIN;
	if ((need_low && !low) || (need_high && high >= max)) {
		snprintf(buf, sizeof(buf), "--levels memcg: level %s needs %s, which the sandbox has not set (give %s)",
			 level_name(level), need_low && !low ? "memory.low" : "memory.high",
			 need_low && !low ? "--mem-low" : "--mem-high");
		*why = buf;
		return -1;
	}
	p->low_pages = low / ps;
	p->high_pages = high >= max ? max / ps : high / ps;
	p->limit_pages = max / ps;
	if (level == LEVEL_ZERO) {
		p->pages = (uint64_t)(level_factor[LEVEL_ZERO] * (double)p->limit_pages);
		return 0;
	}
	end = level == LEVEL_FAST ? p->low_pages
	    : level == LEVEL_LOW  ? (p->low_pages + p->high_pages) / 2 : (p->high_pages + p->limit_pages) / 2;
	if (end <= p->usage_pages) {
		snprintf(buf, sizeof(buf), "--levels memcg: level %s ends at %" PRIu64 " pages, and the cgroup "
			 "holds %" PRIu64 " already", level_name(level), end, p->usage_pages);
		*why = buf;
		return -1;
	}
	p->pages = end - p->usage_pages;
	p->free_limit = p->limit_pages - end;
	return 0;
}

int level_plan(int level, long pages_opt, const struct vmr_rsize *size_opt,
	       const struct wl_env *env, struct level_plan *p, const char **why)
{
	return level_plan_from(level, LEVELS_LIMIT, pages_opt, size_opt, env, p, why);
}

int level_plan_from(int level, int levels, long pages_opt, const struct vmr_rsize *size_opt,
		    const struct wl_env *env, struct level_plan *p, const char **why)
{
	uint64_t ps = env->page_size;
	memset(p, 0, sizeof(*p));
	p->base = levels;
	uint64_t base;
	if (levels == LEVELS_MEMCG && !env->sandboxed) {
		*why = "--levels memcg needs a sandbox, a cgroup with a cgroup v2 memory controller";
		return -1;
	}
	if (env->sandboxed) {
		p->limit_pages = env->limit_bytes / ps;
		p->usage_pages = level_cgroup_usage(env->cgroup) / ps;
		p->swap_pages = env->swap_bytes / ps;
		p->start_free = p->limit_pages > p->usage_pages ? p->limit_pages - p->usage_pages : 0;
		p->pages = (uint64_t)(level_factor[level] * (double)p->limit_pages);
		p->free_limit = p->limit_pages > p->pages ? p->limit_pages - p->pages : 0;
		if (levels == LEVELS_MEMCG && level_memcg(level, env, p, why) < 0)
			return -1;
		base = env->limit_bytes;
	} else {
		if (level_zones_read(&p->zones) < 0) {
			*why = "cannot read the zone watermarks from /proc/zoneinfo";
			return -1;
		}
		p->start_free = p->zones.free;
		level_watermarks(level, p);
		base = p->zones.size * ps;
	}
	p->overridden = pages_opt > 0 || (size_opt && (size_opt->factor || size_opt->bytes));
	if (pages_opt > 0)
		p->pages = (uint64_t)pages_opt;
	else if (size_opt && (size_opt->factor || size_opt->bytes))
		p->pages = units_rsize_bytes(size_opt, base) / ps;
	if (!p->pages) {
		*why = "the level leaves no pages to use (give --pages or --size)";
		return -1;
	}
	return 0;
}

void level_info(struct result *r, const struct level_plan *p, bool sandboxed, int level)
{
	result_info_set(r, "level", json_string(level_name(level)));
	bool memcg = p->base == LEVELS_MEMCG;
	result_info_set(r, "levels", json_string(memcg ? "memcg" : "limit"));
	result_info_set(r, "level_meaning", json_string(p->overridden ? "--pages or --size set the pages, not the level"
							: memcg ? level_meaning_memcg(level) : level_meaning(level, sandboxed)));
	json_t *start = sandboxed
		? json_pack("{sI sI sI sI}", "limit_pages", (json_int_t)p->limit_pages, "usage_pages",
			    (json_int_t)p->usage_pages, "free_pages", (json_int_t)p->start_free,
			    "swap_pages", (json_int_t)p->swap_pages)
		: json_pack("{sI sI sI sI sI}", "size", (json_int_t)p->zones.size, "free_pages",
			    (json_int_t)p->zones.free, "pages_high", (json_int_t)p->zones.high,
			    "pages_low", (json_int_t)p->zones.low, "pages_min", (json_int_t)p->zones.min);
	if (memcg && sandboxed) {
		json_object_set_new(start, "low_pages", json_integer((json_int_t)p->low_pages));
		json_object_set_new(start, "high_pages", json_integer((json_int_t)p->high_pages));
	}
	result_info_set(r, "sandboxed", json_boolean(sandboxed));
	result_info_set(r, "start", start);
	result_info_set(r, "starting_free", json_integer((json_int_t)p->start_free));
	result_info_set(r, "free_limit", json_integer((json_int_t)p->free_limit));
}
