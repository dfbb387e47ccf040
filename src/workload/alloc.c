/* alloc: the seed's alloc.o in user space.  Each pass allocates N pages
 * (mmap and touch, or MAP_POPULATE; --lock mlocks them so they cannot be
 * reclaimed), checks the pattern written into them, and frees them, timing
 * the allocation and the free apart as the seed's "Allocations per pass"
 * and free times. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/timer.h"
#include "core/util.h"
#include "workload/level.h"
#include "workload/pattern.h"
#include "workload/workload.h"

struct alloc_opts {
	int level;
	int levels;
	long pages;
	struct vmr_rsize size;
	long passes;
	bool populate;
	bool lock;
	long corrupt_page;
};

static const struct opt alloc_opts[] = {
	{ .name = "level", .type = OPT_ENUM, .off = offsetof(struct alloc_opts, level), .def = "fast",
	  .choices = LEVEL_CHOICES, .help = LEVEL_HELP },
	{ .name = "levels", .type = OPT_ENUM, .off = offsetof(struct alloc_opts, levels), .def = "limit",
	  .choices = LEVELS_CHOICES, .help = LEVELS_HELP },
	{ .name = "pages", .type = OPT_INT, .off = offsetof(struct alloc_opts, pages), .def = "0",
	  .min = 0, .max = 1e12, .metavar = "N", .help = "allocate N pages per pass instead of the level's number" },
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct alloc_opts, size), .def = "0",
	  .metavar = "SIZE", .help = "allocate SIZE per pass (5850p, 64M, or 1.5x the sandbox limit)" },
	{ .name = "passes", .type = OPT_INT, .off = offsetof(struct alloc_opts, passes), .def = "5",
	  .min = 1, .max = 100000, .metavar = "P", .help = "allocate and free this many times" },
	{ .name = "populate", .type = OPT_FLAG, .off = offsetof(struct alloc_opts, populate),
	  .help = "allocate with MAP_POPULATE instead of touching each page" },
	{ .name = "lock", .type = OPT_FLAG, .off = offsetof(struct alloc_opts, lock),
	  .help = "mlock the pages, so that they cannot be reclaimed" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct alloc_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of pass 0 before the check, to prove the check catches it" },
	OPT_END,
};

enum { AM_PAGES, AM_ALLOC, AM_FREE, AM_RATE };
static const struct metric_def alloc_metrics[] = {
	[AM_PAGES] = { "pages", "pages", BETTER_NONE, COMBINE_AMEAN, "pages allocated per pass" },
	[AM_ALLOC] = { "alloc-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "mean time to allocate a pass's pages" },
	[AM_FREE] = { "free-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "mean time to free them" },
	[AM_RATE] = { "alloc-rate", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, "pages allocated per second", .headline = true },
	{ .name = NULL },
};

struct alloc_state {
	struct alloc_opts o;
	struct wl_env env;
	struct level_plan plan;
	size_t npages, ps;
	uint64_t failed;
};

static const char *alloc_supported(const void *opts, const struct wl_env *env)
{
	static char why[200];
	const struct alloc_opts *o = opts;
	struct level_plan p = { 0 };
	const char *reason;
	if (level_plan_from(o->level, o->levels, o->pages, &o->size, env, &p, &reason) < 0)
		return reason;
	if (!env->sandboxed && p.pages > p.zones.free && !env->force) {
		snprintf(why, sizeof(why), "%" PRIu64 " pages is more than the %" PRIu64 " free pages "
			 "(--force to run anyway)", p.pages, p.zones.free);
		return why;
	}
	return NULL;
}

static void *alloc_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct alloc_state *st = xcalloc(1, sizeof(*st));
	const char *why;
	st->o = *(const struct alloc_opts *)opts;
	st->env = *env;
	st->ps = env->page_size;
	if (level_plan_from(st->o.level, st->o.levels, st->o.pages, &st->o.size, env, &st->plan, &why) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "%s", why);
		free(st);
		return NULL;
	}
	st->npages = st->plan.pages;
	if (st->o.corrupt_page >= (long)st->npages) {
		result_set_outcome(r, OUTCOME_ERROR, "--corrupt-page %ld is beyond the %zu pages",
				   st->o.corrupt_page, st->npages);
		free(st);
		return NULL;
	}
	level_info(r, &st->plan, env->sandboxed, st->o.level);
	result_info_set(r, "title", json_sprintf("test_alloc_%s", level_name(st->o.level)));
	result_info_set(r, "pages", json_integer((json_int_t)st->npages));
	result_info_set(r, "passes", json_integer(st->o.passes));
	return st;
}

/* Allocate one pass's pages: the timed part. */
static char *alloc_pages(struct alloc_state *st, long pass, struct result *r)
{
	size_t len = st->npages * st->ps;
	/* MAP_LOCKED as well as mlock(): sanitizers turn mlock() into a no-op. */
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | (st->o.populate ? MAP_POPULATE : 0) |
		    (st->o.lock ? MAP_LOCKED : 0);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED) {
		st->failed++;
		result_set_outcome(r, OUTCOME_ERROR, "pass %ld: cannot map %zu pages: %s", pass, st->npages,
				   strerror(errno));
		return NULL;
	}
	madvise(p, len, MADV_NOHUGEPAGE);
	if (st->o.lock && mlock(p, len) < 0) {
		st->failed++;
		result_set_outcome(r, OUTCOME_ERROR, "pass %ld: cannot lock %zu pages: %s", pass, st->npages,
				   strerror(errno));
		munmap(p, len);
		return NULL;
	}
	if (!st->o.populate)
		for (size_t i = 0; i < st->npages; i++)
			pattern_stamp(p + i * st->ps, st->ps, i, (uint64_t)pass);
	return p;
}

static bool alloc_check(struct alloc_state *st, const char *p, long pass, struct result *r)
{
	uint64_t found;
	if (st->o.populate)   /* populated pages are zero: write the pattern now */
		for (size_t i = 0; i < st->npages; i++)
			pattern_stamp((char *)p + i * st->ps, st->ps, i, (uint64_t)pass);
	if (pass == 0 && st->o.corrupt_page >= 0)
		pattern_corrupt((char *)p + (size_t)st->o.corrupt_page * st->ps);
	for (size_t i = 0; i < st->npages; i++) {
		if (!pattern_check(p + i * st->ps, st->ps, i, (uint64_t)pass, &found)) {
			result_set_outcome(r, OUTCOME_FAIL, "page %zu of %zu read back wrong data in pass %ld "
					   "(first word %#" PRIx64 ", expected %#" PRIx64 ")", i, st->npages,
					   pass, found, pattern_word(i, (uint64_t)pass));
			return false;
		}
	}
	return true;
}

static const char *const alloc_cols[] = { "pass", "alloc_ns", "free_ns" };

static int alloc_run(void *state, struct result *r)
{
	struct alloc_state *st = state;
	struct table *t = result_table(r, "passes", ARRAY_SIZE(alloc_cols), alloc_cols);
	double alloc_sum = 0, free_sum = 0;
	long pass;
	for (pass = 0; pass < st->o.passes; pass++) {
		uint64_t t0 = vmr_now_ns();
		char *p = alloc_pages(st, pass, r);
		uint64_t t1 = vmr_now_ns();
		if (!p)
			break;
		bool ok = alloc_check(st, p, pass, r);
		uint64_t t2 = vmr_now_ns();
		munmap(p, st->npages * st->ps);
		uint64_t t3 = vmr_now_ns();
		double row[] = { (double)pass, (double)(t1 - t0), (double)(t3 - t2) };
		table_add_row(t, row);
		alloc_sum += row[1];
		free_sum += row[2];
		if (!ok)
			break;
	}
	result_info_set(r, "finishing_free", json_integer((json_int_t)level_free_pages(&st->env)));
	result_info_set(r, "failed_allocations", json_integer((json_int_t)st->failed));
	if (t->nrows) {
		double n = (double)t->nrows;
		result_metric_def(r, &alloc_metrics[AM_PAGES], (double)st->npages);
		result_metric_def(r, &alloc_metrics[AM_ALLOC], alloc_sum / n);
		result_metric_def(r, &alloc_metrics[AM_FREE], free_sum / n);
		if (alloc_sum > 0)
			result_metric_def(r, &alloc_metrics[AM_RATE], (double)st->npages * n / (alloc_sum / 1e9));
	}
	return 0;
}

static void alloc_teardown(void *state, struct result *r) { free(state); }

const struct workload wl_alloc = {
	.name = "alloc",
	.summary = "the seed's alloc.o: allocate N pages and free them, timing both, each pass",
	.opts = alloc_opts,
	.opts_size = sizeof(struct alloc_opts),
	.metrics = alloc_metrics,
	.needs_root = true,
	.supported = alloc_supported,
	.setup = alloc_setup,
	.run = alloc_run,
	.teardown = alloc_teardown,
};
