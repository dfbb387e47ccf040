/* thpchallenge: mmtests' thpchallenge.  Fragment the machine's memory with
 * many small file pages (--fragment of small files, then every other one
 * deleted, so that free memory is holes between cached pages), then fault
 * THP-sized regions in --threads threads and see how many the kernel could
 * back with a huge page, at what latency, and how much compaction it took.
 *
 * Per 2M region: the first write is its fault, then every page of it is
 * written with the page pattern (the original memsets it): the latency is
 * both, as the original's.  Whether it got a huge page is read from pagemap
 * and kpageflags (the original asks mincore, which cannot tell).  Every page
 * is read back and checked before the region is unmapped.
 *
 * Fragmentation is the whole machine's, whatever the sandbox: a cgroup
 * bounds what a program holds, not where its pages lie.  So it runs only
 * where the machine may be disturbed: in a matrix guest, or with
 * --no-sandbox --force. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/hist.h"
#include "core/timer.h"
#include "core/units.h"
#include "core/util.h"
#include "probe/pagemap.h"
#include "probe/thp.h"
#include "probe/vmstat.h"
#include "workload/pattern.h"
#include "workload/tasks.h"
#include "workload/workload.h"

#define THPC_HPAGE (2u << 20)
#define THPC_MAX_THREADS 256

struct thpc_opts {
	struct vmr_rsize fragment;
	uint64_t file_size;
	struct vmr_rsize size;
	long threads;
	bool madvise;
	long corrupt_page;
};

static const struct opt thpc_opts[] = {
	{ .name = "fragment", .type = OPT_RSIZE, .off = offsetof(struct thpc_opts, fragment), .def = "0.8x",
	  .metavar = "SIZE", .help = "small files written before half are deleted (relative: of the memory there is)" },
	{ .name = "file-size", .type = OPT_SIZE, .off = offsetof(struct thpc_opts, file_size), .def = "16K",
	  .min = 4096, .max = 1048576, .metavar = "SIZE", .help = "the size of each small file" },
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct thpc_opts, size), .def = "0.25x",
	  .metavar = "SIZE", .help = "THP-sized regions faulted, all threads (relative: of the memory there is)" },
	{ .name = "threads", .type = OPT_INT, .off = offsetof(struct thpc_opts, threads), .def = "1",
	  .min = 1, .max = THPC_MAX_THREADS, .metavar = "N", .help = "threads faulting their share at once" },
	{ .name = "madvise", .type = OPT_FLAG, .off = offsetof(struct thpc_opts, madvise), .def = "yes",
	  .help = "MADV_HUGEPAGE the regions (--madvise=no: the THP policy alone decides)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct thpc_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the first thread's regions before it is checked" },
	OPT_END,
};

enum { TM_RATE, TM_P50, TM_P99, TM_MAX, TM_REGIONS, TM_HUGE, TM_STALL, TM_CSUCCESS, TM_CFAIL, TM_ALLOC,
       TM_FALLBACK, TM_FILES, TM_N };
static const struct metric_def thpc_metrics[] = {
	[TM_RATE] = { "thp-success-rate", "%", BETTER_HIGHER, COMBINE_AMEAN,
		      "regions backed by a huge page (pagemap), of all faulted", .headline = true },
	[TM_P50] = { "fault-latency-p50", "ns", BETTER_LOWER, COMBINE_AMEAN,
		     "a 2M region's fault and fill, median", .headline = true },
	[TM_P99] = { "fault-latency-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, "99th percentile of the same" },
	[TM_MAX] = { "fault-latency-max", "ns", BETTER_LOWER, COMBINE_AMEAN, "the slowest" },
	[TM_REGIONS] = { "regions", "regions", BETTER_NONE, COMBINE_AMEAN, "2M regions faulted" },
	[TM_HUGE] = { "huge-regions", "regions", BETTER_HIGHER, COMBINE_AMEAN, "regions backed by a huge page" },
	[TM_STALL] = { "compact-stall", "events", BETTER_NONE, COMBINE_AMEAN,
		       "direct compactions while faulting (vmstat compact_stall)" },
	[TM_CSUCCESS] = { "compact-success", "events", BETTER_NONE, COMBINE_AMEAN,
			  "of them, those that made a huge page (compact_success)" },
	[TM_CFAIL] = { "compact-fail", "events", BETTER_LOWER, COMBINE_AMEAN, "those that did not (compact_fail)" },
	[TM_ALLOC] = { "thp-fault-alloc", "events", BETTER_NONE, COMBINE_AMEAN, "vmstat thp_fault_alloc while faulting" },
	[TM_FALLBACK] = { "thp-fault-fallback", "events", BETTER_LOWER, COMBINE_AMEAN,
			  "vmstat thp_fault_fallback while faulting" },
	[TM_FILES] = { "files-kept", "files", BETTER_NONE, COMBINE_AMEAN, "small files left in the page cache" },
	{ .name = NULL },
};

static const char *thpc_supported(const void *opts, const struct wl_env *env)
{
	const struct thpc_opts *o = opts;
	if (env->sandboxed || !env->force)
		return "fragments the whole machine's memory, which no sandbox bounds: it runs only with --no-sandbox "
		       "--force, in a matrix guest (a suite with no-sandbox = yes, force = yes) or on a machine "
		       "that may be disturbed";
	/* 2M folios need the PMD size's policy at madvise (with --madvise) or
	 * always; Debian's cloud kernels boot with never */
	char pol[32] = "", err[PROBE_ERR_MAX] = "";
	if (thp_anon_policy(NULL, THPC_HPAGE / 1024, pol, sizeof(pol), err) < 0)
		return "this kernel has no 2M transparent huge pages for anonymous memory";
	if (!strcmp(pol, "never") || (!strcmp(pol, "madvise") && !o->madvise))
		return o->madvise ? "thp.enabled is never here: run with --set thp.enabled=madvise"
				  : "thp.enabled is not always here: run with --set thp.enabled=always, or without --madvise=no";
	return NULL;
}

struct thpc_thread {
	struct hist *lat;
	uint64_t regions, huge;
	int64_t bad_page;
	uint64_t found;
	int err;
	const char *what;
};

struct thpc_state {
	struct thpc_opts o;
	size_t ps;
	uint64_t fragment, size, salt, nfiles;
	const char *workdir;
	struct thpc_thread t[THPC_MAX_THREADS];
	struct tasks_round round;
};

static uint64_t thpc_base(void)
{
	return (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
}

static char *thpc_path(const struct thpc_state *st, uint64_t i)
{
	return xasprintf("%s/frag.%" PRIu64, st->workdir, i);
}

/* Write the small files, then delete every other one.  0, or -errno. */
static int thpc_fragment(struct thpc_state *st)
{
	char *buf = xcalloc(1, st->o.file_size);
	uint64_t n = st->fragment / st->o.file_size;
	int err = 0;
	memset(buf, 0x5a, st->o.file_size);
	for (uint64_t i = 0; i < n && !err; i++) {
		char *p = thpc_path(st, i);
		int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0 || write(fd, buf, st->o.file_size) != (ssize_t)st->o.file_size)
			err = errno ? -errno : -EIO;
		if (fd >= 0)
			close(fd);
		free(p);
	}
	for (uint64_t i = 1; i < n && !err; i += 2) {   /* the partial free */
		char *p = thpc_path(st, i);
		unlink(p);
		free(p);
	}
	st->nfiles = (n + 1) / 2;
	free(buf);
	return err;
}

/* One region: fault it, fill it, and whether a huge page backs it. */
static void thpc_region(struct thpc_state *st, struct thpc_thread *t, struct pagemap *pm, char *r, uint64_t first)
{
	size_t ps = st->ps, n = THPC_HPAGE / ps;
	uint64_t t0 = vmr_now_ns();
	for (size_t i = 0; i < n; i++)
		pattern_stamp(r + i * ps, ps, first + i, st->salt);
	hist_add(t->lat, vmr_now_ns() - t0);
	struct pagemap_counts c = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (pagemap_scan(pm, (uintptr_t)r, (uintptr_t)r + THPC_HPAGE, &c, NULL, err) == 0 && c.thp == n)
		t->huge++;
	t->regions++;
}

static void thpc_work(void *arg, long idx)
{
	struct thpc_state *st = arg;
	struct thpc_thread *t = &st->t[idx];
	uint64_t share = st->size / (uint64_t)st->o.threads / THPC_HPAGE * THPC_HPAGE;
	size_t ps = st->ps;
	struct pagemap pm = { .fd = -1 };
	char err[PROBE_ERR_MAX] = "";
	char *map = mmap(NULL, share + THPC_HPAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		t->err = errno;
		t->what = "mmap";
		return;
	}
	char *r = (char *)(((uintptr_t)map + THPC_HPAGE - 1) & ~(uintptr_t)(THPC_HPAGE - 1));
	if (st->o.madvise && madvise(r, share, MADV_HUGEPAGE) < 0) {
		t->err = errno;
		t->what = "madvise";
	} else if (pagemap_open(&pm, 0, true, err) < 0) {
		t->err = errno;
		t->what = "opening pagemap";
	} else if (pm.kpf_fd < 0) {   /* without it no page reads as huge */
		t->err = EACCES;
		t->what = "opening /proc/kpageflags (as root)";
		pagemap_close(&pm);
	} else {
		uint64_t base = (uint64_t)idx * (share / ps);
		for (uint64_t off = 0; off < share; off += THPC_HPAGE)
			thpc_region(st, t, &pm, r + off, base + off / ps);
		pagemap_close(&pm);
		if (idx == 0 && st->o.corrupt_page >= 0 && (uint64_t)st->o.corrupt_page < share / ps)
			pattern_corrupt(r + (size_t)st->o.corrupt_page * ps);
		for (uint64_t i = 0; i < share / ps && t->bad_page < 0; i++)
			if (!pattern_check(r + i * ps, ps, base + i, st->salt, &t->found))
				t->bad_page = (int64_t)i;
	}
	munmap(map, share + THPC_HPAGE);
}

static void *thpc_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct thpc_state *st = xcalloc(1, sizeof(*st));
	st->o = *(const struct thpc_opts *)opts;
	st->ps = env->page_size;
	st->workdir = env->workdir;
	st->fragment = units_rsize_bytes(&st->o.fragment, thpc_base());
	st->size = units_rsize_bytes(&st->o.size, thpc_base());
	st->salt = pattern_salt();
	if (st->size / (uint64_t)st->o.threads < THPC_HPAGE) {
		result_set_outcome(r, OUTCOME_ERROR, "--size gives each of %ld threads less than one 2M region",
				   st->o.threads);
		return st;
	}
	int e = thpc_fragment(st);
	if (e < 0)
		result_set_outcome(r, OUTCOME_ERROR, "cannot write the small files in %s: %s", st->workdir, strerror(-e));
	char sz[32];
	result_info_set(r, "fragment", json_string(units_format_size(sz, sizeof(sz), st->fragment)));
	result_info_set(r, "size", json_string(units_format_size(sz, sizeof(sz), st->size)));
	return st;
}

/* The vmstat counters around the faults: compact_stall, compact_success,
 * compact_fail, thp_fault_alloc, thp_fault_fallback. */
static const char *const thpc_counters[] = { "compact_stall", "compact_success", "compact_fail", "thp_fault_alloc",
					      "thp_fault_fallback" };

static void thpc_counts(uint64_t *v)
{
	struct vmstat s;
	char err[PROBE_ERR_MAX] = "";
	vmstat_init(&s);
	bool ok = vmstat_read(&s, NULL, err) == 0;
	for (size_t i = 0; i < ARRAY_SIZE(thpc_counters); i++)
		if (!ok || vmstat_get(&s, thpc_counters[i], &v[i]) < 0)
			v[i] = 0;
	vmstat_free(&s);
}

static int thpc_run(void *state, struct result *r)
{
	struct thpc_state *st = state;
	if (r->outcome != OUTCOME_PASS)
		return 0;
	long n = st->o.threads;
	uint64_t before[ARRAY_SIZE(thpc_counters)] = { 0 }, after[ARRAY_SIZE(thpc_counters)] = { 0 };
	for (long i = 0; i < n; i++)
		st->t[i] = (struct thpc_thread){ .lat = hist_new(), .bad_page = -1 };
	thpc_counts(before);
	int started = tasks_run(&st->round, n, true, thpc_work, st);
	thpc_counts(after);
	struct hist *all = hist_new();
	uint64_t regions = 0, huge = 0;
	for (long i = 0; i < n; i++) {
		struct thpc_thread *t = &st->t[i];
		if (r->outcome == OUTCOME_PASS && t->bad_page >= 0)
			result_set_outcome(r, OUTCOME_FAIL, "page %" PRId64 " of thread %ld read back wrong data "
					   "(first word %#" PRIx64 ")", t->bad_page, i, t->found);
		else if (r->outcome == OUTCOME_PASS && t->err)
			result_set_outcome(r, OUTCOME_ERROR, "thread %ld: %s failed: %s", i, t->what, strerror(t->err));
		hist_merge(all, t->lat);
		regions += t->regions;
		huge += t->huge;
		free(t->lat);
	}
	if (started < 0 && r->outcome == OUTCOME_PASS)
		result_set_outcome(r, OUTCOME_ERROR, "cannot start %ld threads", n);
	double v[TM_N] = {
		[TM_RATE] = regions ? 100.0 * (double)huge / (double)regions : 0,
		[TM_P50] = hist_percentile(all, 50), [TM_P99] = hist_percentile(all, 99), [TM_MAX] = (double)all->max,
		[TM_REGIONS] = (double)regions, [TM_HUGE] = (double)huge, [TM_FILES] = (double)st->nfiles,
	};
	for (size_t i = 0; i < ARRAY_SIZE(thpc_counters); i++)
		v[TM_STALL + i] = (double)(after[i] - before[i]);
	for (int m = 0; m < TM_N; m++)
		result_metric_def(r, &thpc_metrics[m], v[m]);
	result_hist(r, "fault-latency", "ns", all);
	return 0;
}

static void thpc_teardown(void *state, struct result *r)
{
	(void)r;
	free(state);   /* the small files go with the work directory */
}

const struct workload wl_thpchallenge = {
	.name = "thpchallenge",
	.summary = "mmtests' thpchallenge: THP faults after memory is fragmented by small file pages",
	.opts = thpc_opts,
	.opts_size = sizeof(struct thpc_opts),
	.metrics = thpc_metrics,
	.supported = thpc_supported,
	.setup = thpc_setup,
	.run = thpc_run,
	.teardown = thpc_teardown,
};
