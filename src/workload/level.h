/* How many pages a test uses: the seed's levels fast|low|min|zero.
 *
 * In a sandbox the levels are fractions of its memory limit L:
 *   fast 0.80 L   low 0.95 L   min 1.00 L   zero 1.25 L
 * (fast fits, low is tight once the program's own pages are counted, min
 * must reclaim, zero must swap).  With --no-sandbox they come from the zone
 * watermarks summed over all populated zones, as the seed's alloc.o and
 * fault.o did; the "free page limit" is what should remain free:
 *   fast  limit = pages_high              N = free - limit
 *   low   limit = (pages_low+pages_min)/2 N = free - limit
 *   min   limit = pages_min / 2           N = free - limit
 *   zero  limit = 0                       N = (size + free) / 2
 * --pages N or --size SIZE|Fx override the level (F times L, or times the
 * zones' size without a sandbox).
 *
 * --levels memcg takes the levels from the thresholds a cgroup v2 memory
 * controller really has, read from the sandbox's cgroup (the sandbox sets
 * them: --mem-low, --mem-high, --mem), so that the usage U the workload
 * ends at, from the usage U0 when planned, is:
 *   fast  U = memory.low                     N = low - U0
 *         (all of it protected from reclaim; nothing reclaims it)
 *   low   U = (memory.low + memory.high) / 2 N = (low + high) / 2 - U0
 *         (unprotected, below the point where the kernel throttles)
 *   min   U = (memory.high + memory.max) / 2 N = (high + max) / 2 - U0
 *         (over memory.high: each allocation reclaims and is throttled,
 *         the memcg's direct reclaim)
 *   zero  N = 1.25 memory.max, as with --levels limit (swap takes the rest)
 * v1 has no such thresholds (its soft limit acts only when the whole host
 * runs short), so there --levels memcg is a SKIP with that reason. */
#ifndef VMR_LEVEL_H
#define VMR_LEVEL_H

#include <stdint.h>
#include <stdio.h>

#include "core/units.h"
#include "workload/workload.h"

enum level { LEVEL_FAST, LEVEL_LOW, LEVEL_MIN, LEVEL_ZERO };
#define LEVEL_CHOICES "fast|low|min|zero"
enum level_base { LEVELS_LIMIT, LEVELS_MEMCG };
#define LEVELS_CHOICES "limit|memcg"
#define LEVELS_HELP "what the levels are measured against: limit, fractions of the sandbox's limit (as --level " \
	"says); memcg, the cgroup v2 thresholds the sandbox sets (--mem-low, --mem-high): fast ends at memory.low, " \
	"low midway between memory.low and memory.high, min midway between memory.high and memory.max (reclaim " \
	"and throttling), zero 1.25x memory.max; needs a cgroup v2 memory controller"
#define LEVEL_HELP "pages relative to the sandbox limit L: fast 0.8L, low 0.95L, min 1.0L, zero 1.25L, " \
	"the sandbox's stand-ins for the seed's zone watermarks (fast: free stays above pages_high; low: " \
	"between 80% and 95% of the limit, pages_min..pages_low; min: below pages_min, reclaim must run; " \
	"zero: beyond what is free, swap takes the rest); with --no-sandbox from the zone watermarks " \
	"themselves: fast free-high, low free-(low+min)/2, min free-min/2, zero (size+free)/2"

/* The zones' pages summed over every populated zone (/proc/zoneinfo). */
struct level_zones {
	uint64_t size, free, high, low, min;   /* size = managed pages */
};

struct level_plan {
	uint64_t pages;        /* N */
	uint64_t free_limit;   /* pages meant to stay free */
	uint64_t start_free;   /* free pages when planned */
	struct level_zones zones;       /* unsandboxed only */
	uint64_t limit_pages, usage_pages, swap_pages;  /* sandboxed only */
	int base;              /* enum level_base */
	uint64_t low_pages, high_pages;  /* LEVELS_MEMCG: memory.low, memory.high */
	bool overridden;       /* --pages or --size set N, not the level */
};

const char *level_name(int level);
/* What the level means here, in one line for reports: in a sandbox the
 * fraction of the limit and the watermark range it stands in for ("level
 * low: between 80% and 95% of the limit, the sandbox's stand-in for
 * pages_min..pages_low"), without one the watermarks it is planned from. */
const char *level_meaning(int level, bool sandboxed);
/* Bytes charged to the sandbox's cgroup now (memory.current or
 * memory.usage_in_bytes); 0 when unknown. */
uint64_t level_cgroup_usage(const char *cgroup);
/* Free pages now: the sandbox's limit minus its usage, or the zones' free. */
uint64_t level_free_pages(const struct wl_env *env);
/* Plan N.  pages_opt (> 0) and size_opt (bytes or factor != 0) override
 * the level.  0, or -1 with *why set (static or in a static buffer). */
int level_plan(int level, long pages_opt, const struct vmr_rsize *size_opt,
	       const struct wl_env *env, struct level_plan *p, const char **why);
/* The same against base (enum level_base); LEVELS_MEMCG fails with the
 * reason where there is no cgroup v2 memory controller or the level's
 * thresholds are not set. */
int level_plan_from(int level, int base, long pages_opt, const struct vmr_rsize *size_opt,
		    const struct wl_env *env, struct level_plan *p, const char **why);

/* Put the plan's starting information into r->info ("start", "sandboxed",
 * "starting_free", "free_limit", "level", "levels", "level_meaning"). */
void level_info(struct result *r, const struct level_plan *p, bool sandboxed, int level);

#endif
