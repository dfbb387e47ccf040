/* fault: the seed's fault.o.  Map N pages, write a pattern to each (pass 0),
 * then walk the region P more times touching every page that is not
 * present, which forces it back in from swap or the file, and check every
 * page's pattern on the way.  Per pass: Refd (pages not present before the
 * pass, brought in by it), Present (resident after it), Time, faults, and
 * the latency of each page that had to be brought in.  Only those pages are
 * timed, so a resident pass costs what a bare loop over the pages costs.
 * The pattern's salt is new for every run, so a page that comes back from
 * an earlier iteration's (or run's) swap slot is caught; the passes after
 * pass 0 only read, as the seed's did, so within a run there is no older
 * version of a page to mistake for the current one. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/rusage.h"
#include "core/timer.h"
#include "core/util.h"
#include "workload/level.h"
#include "workload/pages.h"
#include "workload/pattern.h"
#include "workload/workload.h"

struct fault_opts {
	int level;
	int levels;
	long pages;
	struct vmr_rsize size;
	long passes;
	char *file;
	bool shmem;
	long corrupt_page;
};

static const struct opt fault_opts[] = {
	{ .name = "level", .type = OPT_ENUM, .off = offsetof(struct fault_opts, level), .def = "fast",
	  .choices = LEVEL_CHOICES, .help = LEVEL_HELP },
	{ .name = "levels", .type = OPT_ENUM, .off = offsetof(struct fault_opts, levels), .def = "limit",
	  .choices = LEVELS_CHOICES, .help = LEVELS_HELP },
	{ .name = "pages", .type = OPT_INT, .off = offsetof(struct fault_opts, pages), .def = "0",
	  .min = 0, .max = 1e12, .metavar = "N", .help = "map N pages instead of the level's number" },
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct fault_opts, size), .def = "0",
	  .metavar = "SIZE", .help = "map SIZE (5850p, 64M, or 1.5x the sandbox limit) instead of the level" },
	{ .name = "passes", .type = OPT_INT, .off = offsetof(struct fault_opts, passes), .def = "5",
	  .min = 1, .max = 100000, .metavar = "P", .help = "passes over the region after pass 0 maps it" },
	{ .name = "file", .type = OPT_STR, .off = offsetof(struct fault_opts, file), .metavar = "PATH",
	  .help = "map this file MAP_SHARED (created, sized and removed) instead of anonymous memory" },
	{ .name = "shmem", .type = OPT_FLAG, .off = offsetof(struct fault_opts, shmem),
	  .help = "map shared anonymous memory (shmem) instead of private" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct fault_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N after pass 0, to prove the check catches it" },
	OPT_END,
};

enum { FM_PAGES, FM_TIME0, FM_TIME, FM_REFD, FM_MAJ, FM_RATE, FM_P50, FM_P99 };
static const struct metric_def fault_metrics[] = {
	[FM_PAGES] = { "pages", "pages", BETTER_NONE, COMBINE_AMEAN, "pages in the region (N)" },
	[FM_TIME0] = { "time-pass0", "ns", BETTER_LOWER, COMBINE_AMEAN, "pass 0: map and first touch" },
	[FM_TIME] = { "time-passes", "ns", BETTER_LOWER, COMBINE_AMEAN, "passes 1..P together", .headline = true },
	[FM_REFD] = { "refd", "pages", BETTER_LOWER, COMBINE_AMEAN, "pages brought back in, passes 1..P" },
	[FM_MAJ] = { "major-faults-passes", "faults", BETTER_LOWER, COMBINE_AMEAN, "major faults, passes 1..P" },
	[FM_RATE] = { "refault-rate", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, "pages brought back in per second", .headline = true },
	[FM_P50] = { "fault-latency-p50", "ns", BETTER_LOWER, COMBINE_AMEAN, "median time to bring a page back" },
	[FM_P99] = { "fault-latency-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, "99th percentile of the same" },
	{ .name = NULL },
};

struct fault_state {
	struct fault_opts o;
	struct wl_env env;
	struct level_plan plan;
	char *addr;
	size_t npages, ps;
	int fd;
	struct pages_map pm;
	char *file;
	char *pre, *post;          /* page states before and after a pass */
	uint64_t failed_mappings;
	uint64_t bad_pages, first_bad, first_bad_found;
	long first_bad_pass;
	uint64_t salt;             /* pattern_salt(), once per run */
};

static int fault_validate(const void *opts)
{
	const struct fault_opts *o = opts;
	if (o->file && o->shmem) {
		vmr_wl_err("fault", "--file and --shmem: choose one kind of memory");
		return -1;
	}
	if (o->file && !*o->file) {
		vmr_wl_err("fault", "--file: '' is not a path");
		return -1;
	}
	return 0;
}

static const char *fault_supported(const void *opts, const struct wl_env *env)
{
	static char why[200];
	const struct fault_opts *o = opts;
	struct level_plan p = { 0 };
	const char *reason;
	if (level_plan_from(o->level, o->levels, o->pages, &o->size, env, &p, &reason) < 0)
		return reason;
	if (env->sandboxed && p.pages * env->page_size > env->limit_bytes + env->swap_bytes &&
	    !o->file) {
		snprintf(why, sizeof(why), "%" PRIu64 " pages do not fit in the sandbox's memory and swap "
			 "(%" PRIu64 " pages): give it more --swap", p.pages,
			 (env->limit_bytes + env->swap_bytes) / env->page_size);
		return why;
	}
	if (!env->sandboxed && p.pages > p.zones.free && !env->force) {
		snprintf(why, sizeof(why), "%" PRIu64 " pages is more than the %" PRIu64 " free pages "
			 "(--force to run anyway)", p.pages, p.zones.free);
		return why;
	}
	return NULL;
}

static size_t fault_pagemap(struct fault_state *st, char *state, size_t *swapped)
{
	return pages_state(&st->pm, st->addr, st->npages, state, swapped);
}

static int fault_map_file(struct fault_state *st, size_t len, struct result *r)
{
	st->file = xstrdup(st->o.file);
	st->fd = open(st->file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (st->fd < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot create %s: %s", st->file, strerror(errno));
		free(st->file);
		st->file = NULL;
		return -1;
	}
	int err = posix_fallocate(st->fd, 0, (off_t)len);
	if (err) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot size %s to %zu bytes: %s", st->file, len,
				   strerror(err));
		return -1;
	}
	return 0;
}

static int fault_map(struct fault_state *st, struct result *r)
{
	size_t len = st->npages * st->ps;
	int flags = st->o.shmem || st->o.file ? MAP_SHARED : MAP_PRIVATE;
	st->fd = -1;
	if (st->o.file && fault_map_file(st, len, r) < 0)
		return -1;
	if (!st->o.file)
		flags |= MAP_ANONYMOUS;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, st->fd, 0);
	if (p == MAP_FAILED) {
		st->failed_mappings++;
		result_set_outcome(r, OUTCOME_ERROR, "cannot map %zu pages: %s", st->npages, strerror(errno));
		return -1;
	}
	st->addr = p;
	/* The seed faulted base pages one at a time; keep it that way. */
	madvise(p, len, MADV_NOHUGEPAGE);
	return 0;
}

static void fault_start_info(struct fault_state *st, struct result *r)
{
	char addr[32];
	snprintf(addr, sizeof(addr), "%p", (void *)st->addr);
	level_info(r, &st->plan, st->env.sandboxed, st->o.level);
	result_info_set(r, "title", json_sprintf("test_fault_%s", level_name(st->o.level)));
	result_info_set(r, "memory", json_string(st->o.file ? "file" : st->o.shmem ? "shmem" : "anonymous"));
	result_info_set(r, "address", json_string(addr));
	result_info_set(r, "length", json_integer((json_int_t)(st->npages * st->ps)));
	result_info_set(r, "pages", json_integer((json_int_t)st->npages));
	result_info_set(r, "passes", json_integer(st->o.passes));
	result_info_set(r, "references", json_integer((json_int_t)st->npages));
}

static void *fault_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct fault_state *st = xcalloc(1, sizeof(*st));
	const char *why;
	st->o = *(const struct fault_opts *)opts;
	st->env = *env;
	st->ps = env->page_size;
	st->fd = -1;
	st->salt = pattern_salt();
	if (level_plan_from(st->o.level, st->o.levels, st->o.pages, &st->o.size, env, &st->plan, &why) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "%s", why);
		goto free_state;
	}
	st->npages = st->plan.pages;
	if (st->o.corrupt_page >= (long)st->npages) {
		result_set_outcome(r, OUTCOME_ERROR, "--corrupt-page %ld is beyond the region's %zu pages",
				   st->o.corrupt_page, st->npages);
		goto free_state;
	}
	int err = pages_open(&st->pm);
	if (err) {
		result_set_outcome(r, OUTCOME_SKIP, "cannot open /proc/self/pagemap: %s", strerror(-err));
		goto free_state;
	}
	st->pm.private_anon = !st->o.file && !st->o.shmem;
	st->pre = xmalloc(st->npages + 1);
	st->post = xmalloc(st->npages + 1);
	if (fault_map(st, r) < 0)
		goto remove_file;
	fault_start_info(st, r);
	return st;
remove_file:
	if (st->fd >= 0)
		close(st->fd);
	if (st->file)
		unlink(st->file);
	free(st->file);
	free(st->pre);
	free(st->post);
	pages_close(&st->pm);
free_state:
	free(st);
	return NULL;
}

static void fault_bad(struct fault_state *st, size_t i, uint64_t found, long pass)
{
	if (!st->bad_pages++) {
		st->first_bad = i;
		st->first_bad_found = found;
		st->first_bad_pass = pass;
	}
}

/* Pass 0: write the pattern, timing each page that was not present. */
static size_t fault_pass0(struct fault_state *st, struct hist *h)
{
	size_t refd = 0, ps = st->ps;
	uint64_t salt = st->salt;
	char *a = st->addr;
	for (size_t i = 0; i < st->npages; i++) {
		if (st->pre[i] != '#') {
			uint64_t t = vmr_now_ns();
			pattern_stamp(a + i * ps, ps, i, salt);
			hist_add(h, vmr_now_ns() - t);
			refd++;
		} else {
			pattern_stamp(a + i * ps, ps, i, salt);
		}
	}
	return refd;
}

#define FAULT_BLOCK 64

/* True when all FAULT_BLOCK pages from state on were present. */
static inline bool fault_block_present(const char *state)
{
	const uint64_t all = 0x2323232323232323ull;   /* "########" */
	uint64_t acc = 0;
	for (size_t k = 0; k < FAULT_BLOCK; k += 8) {
		uint64_t w;
		memcpy(&w, state + k, 8);
		acc |= w ^ all;
	}
	return !acc;
}

/* Check pages [i, end) that were all present: the bare loop, untimed. */
static void fault_check_present(struct fault_state *st, size_t i, size_t end, long pass)
{
	const char *a = st->addr;
	size_t ps = st->ps;
	uint64_t found, salt = st->salt;
	for (; i < end; i++)
		if (__builtin_expect(!pattern_check(a + i * ps, ps, i, salt, &found), 0))
			fault_bad(st, i, found, pass);
}

/* Check pages [i, end), timing each one that was not present. */
static size_t fault_check_timed(struct fault_state *st, struct hist *h, size_t i, size_t end, long pass)
{
	const char *a = st->addr;
	size_t refd = 0, ps = st->ps;
	uint64_t found, salt = st->salt;
	for (; i < end; i++) {
		bool ok;
		if (st->pre[i] != '#') {
			uint64_t t = vmr_now_ns();
			ok = pattern_check(a + i * ps, ps, i, salt, &found);
			hist_add(h, vmr_now_ns() - t);
			refd++;
		} else {
			ok = pattern_check(a + i * ps, ps, i, salt, &found);
		}
		if (__builtin_expect(!ok, 0))
			fault_bad(st, i, found, pass);
	}
	return refd;
}

/* Later passes: check every page, timing the ones that were not present.
 * Runs of present pages take the plain loop, so a resident pass costs what
 * a bare loop over the same pages costs. */
static size_t fault_pass(struct fault_state *st, struct hist *h, long pass)
{
	size_t refd = 0, n = st->npages;
	for (size_t i = 0; i < n; i += FAULT_BLOCK) {
		size_t end = n - i > FAULT_BLOCK ? i + FAULT_BLOCK : n;
		if (end - i == FAULT_BLOCK && fault_block_present(st->pre + i))
			fault_check_present(st, i, end, pass);
		else
			refd += fault_check_timed(st, h, i, end, pass);
	}
	return refd;
}

/* The "passes" table, one row a pass: its columns indexed by an enum, as
 * the metrics are, so that a row is written and read back by name here;
 * other readers look the columns up by name (table_get).  start_ns is
 * CLOCK_MONOTONIC, the clock the tracer uses, so reclaim stalls can be
 * attributed to the pass they fell in. */
enum fault_col { FC_PASS, FC_REFD, FC_PRESENT, FC_SWAPPED, FC_TIME, FC_MAJ, FC_MIN, FC_START, FC_N };
static const char *const fault_cols[FC_N] = {
	[FC_PASS] = "pass", [FC_REFD] = "refd", [FC_PRESENT] = "present", [FC_SWAPPED] = "swapped",
	[FC_TIME] = "time_ns", [FC_MAJ] = "major_faults", [FC_MIN] = "minor_faults", [FC_START] = "start_ns",
};

static void fault_corrupt(struct fault_state *st, struct result *r)
{
	int err = pattern_corrupt(st->addr + (size_t)st->o.corrupt_page * st->ps);
	if (err)
		result_set_outcome(r, OUTCOME_ERROR, "cannot damage page %ld: %s", st->o.corrupt_page,
				   strerror(-err));
}

static void fault_metrics_add(struct fault_state *st, struct result *r, const struct table *t,
			      const struct hist *lat)
{
	double time_rest = 0, refd = 0, maj = 0;
	for (size_t i = 1; i < t->nrows; i++) {
		const double *row = t->cells + i * t->ncols;
		refd += row[FC_REFD];
		time_rest += row[FC_TIME];
		maj += row[FC_MAJ];
	}
	result_metric_def(r, &fault_metrics[FM_PAGES], (double)st->npages);
	result_metric_def(r, &fault_metrics[FM_TIME0], t->cells[FC_TIME]);
	result_metric_def(r, &fault_metrics[FM_TIME], time_rest);
	result_metric_def(r, &fault_metrics[FM_REFD], refd);
	result_metric_def(r, &fault_metrics[FM_MAJ], maj);
	if (refd > 0 && time_rest > 0)
		result_metric_def(r, &fault_metrics[FM_RATE], refd / (time_rest / 1e9));
	if (lat->count) {
		result_metric_def(r, &fault_metrics[FM_P50], hist_percentile(lat, 50));
		result_metric_def(r, &fault_metrics[FM_P99], hist_percentile(lat, 99));
	}
}

static int fault_run(void *state, struct result *r)
{
	struct fault_state *st = state;
	struct table *t = result_table(r, "passes", ARRAY_SIZE(fault_cols), fault_cols);
	struct hist *first = hist_new(), *lat = hist_new();
	struct rusage_counts start, end, a, b, d;
	size_t swapped;
	rusage_self(&start);
	/* One pagemap scan between passes: what was present after a pass is
	 * what the next one starts from.  A second scan would only stir the
	 * caches the next pass is timed in. */
	fault_pagemap(st, st->pre, &swapped);
	for (long pass = 0; pass <= st->o.passes; pass++) {
		rusage_self(&a);
		uint64_t t0 = vmr_now_ns();
		size_t refd = pass ? fault_pass(st, lat, pass) : fault_pass0(st, first);
		uint64_t t1 = vmr_now_ns();
		rusage_self(&b);
		rusage_delta(&a, &b, &d);
		size_t present = fault_pagemap(st, st->post, &swapped);
		char name[32];
		snprintf(name, sizeof(name), "pass%ld", pass);
		result_map(r, name, st->post, st->npages);
		double row[FC_N] = { [FC_PASS] = (double)pass, [FC_REFD] = (double)refd,
				     [FC_PRESENT] = (double)present, [FC_SWAPPED] = (double)swapped,
				     [FC_TIME] = (double)(t1 - t0), [FC_MAJ] = (double)d.majflt,
				     [FC_MIN] = (double)d.minflt, [FC_START] = (double)t0 };
		table_add_row(t, row);
		if (pass == 0 && st->o.corrupt_page >= 0)
			fault_corrupt(st, r);
		char *tmp = st->pre;
		st->pre = st->post;
		st->post = tmp;
	}
	rusage_self(&end);
	rusage_delta(&start, &end, &d);
	fault_metrics_add(st, r, t, lat);
	result_hist(r, "first-touch-latency", "ns", first);
	result_hist(r, "fault-latency", "ns", lat);
	result_info_set(r, "finishing_free", json_integer((json_int_t)level_free_pages(&st->env)));
	result_info_set(r, "schedule_calls", json_integer((json_int_t)(d.nvcsw + d.nivcsw)));
	result_info_set(r, "failed_mappings", json_integer((json_int_t)st->failed_mappings));
	result_info_set(r, "bad_pages", json_integer((json_int_t)st->bad_pages));
	if (st->bad_pages)
		result_set_outcome(r, OUTCOME_FAIL, "page %" PRIu64 " of %zu read back wrong data in pass %ld "
				   "(first word %#" PRIx64 ", expected %#" PRIx64 "; %" PRIu64 " bad reads in all passes)",
				   st->first_bad, st->npages, st->first_bad_pass, st->first_bad_found,
				   pattern_word(st->first_bad, st->salt), st->bad_pages);
	return 0;
}

static void fault_teardown(void *state, struct result *r)
{
	struct fault_state *st = state;
	munmap(st->addr, st->npages * st->ps);
	if (st->fd >= 0)
		close(st->fd);
	if (st->file)
		unlink(st->file);
	pages_close(&st->pm);
	free(st->file);
	free(st->pre);
	free(st->post);
	free(st);
}

const struct workload wl_fault = {
	.name = "fault",
	.summary = "the seed's fault.o: map N pages, then passes that force every absent page back in",
	.opts = fault_opts,
	.opts_size = sizeof(struct fault_opts),
	.metrics = fault_metrics,
	.needs_root = true,
	.validate = fault_validate,
	.supported = fault_supported,
	.setup = fault_setup,
	.run = fault_run,
	.teardown = fault_teardown,
};
