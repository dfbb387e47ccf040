/* mmap001: LTP's mmap001 (now mmap21), as run in the seed's kernel
 * comparisons.  Map a file of M pages MAP_SHARED, write every page,
 * msync(MS_SYNC), unmap, then map it again and check every page.  By
 * default the file's page cache is dropped before the check, so the
 * pattern comes back from the disk and the check reads what was written
 * back, not what stayed in memory. */
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
#include "workload/pattern.h"
#include "workload/workload.h"

struct mmap001_opts {
	long pages;
	long loops;
	bool drop_cache;
	long corrupt_page;
};

static const struct opt mmap001_opts[] = {
	{ .name = "pages", .type = OPT_INT, .off = offsetof(struct mmap001_opts, pages), .def = "10000",
	  .min = 1, .max = 1e10, .metavar = "M", .help = "pages in the file (LTP's -m)" },
	{ .name = "loops", .type = OPT_INT, .off = offsetof(struct mmap001_opts, loops), .def = "1",
	  .min = 1, .max = 100000, .metavar = "N", .help = "map, write, sync, unmap and check this many times" },
	{ .name = "drop-cache", .type = OPT_FLAG, .off = offsetof(struct mmap001_opts, drop_cache), .def = "yes",
	  .help = "drop the file's cached pages before the check, so it reads the disk (--drop-cache=no keeps them)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct mmap001_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e10, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the file between the write and the check" },
	OPT_END,
};

enum { MM_WRITE, MM_SYNC, MM_UNMAP, MM_CHECK, MM_TOTAL, MM_MAJ, MM_MIN, MM_RATE };
static const struct metric_def mmap001_metrics[] = {
	[MM_WRITE] = { "write-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "map and write every page" },
	[MM_SYNC] = { "msync-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "msync(MS_SYNC) of the mapping" },
	[MM_UNMAP] = { "munmap-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "unmap after the write" },
	[MM_CHECK] = { "check-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "map again and check every page" },
	[MM_TOTAL] = { "time", "ns", BETTER_LOWER, COMBINE_AMEAN, "all of it, every loop" },
	[MM_MAJ] = { "major-faults-check", "faults", BETTER_NONE, COMBINE_AMEAN, "major faults of the checks" },
	[MM_MIN] = { "minor-faults-write", "faults", BETTER_NONE, COMBINE_AMEAN, "minor faults of the writes" },
	[MM_RATE] = { "pages-per-sec", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, "pages written and checked per second", .headline = true },
	{ .name = NULL },
};

struct mmap001_state {
	struct mmap001_opts o;
	size_t ps, len;
	char *path;
	int fd;
};

static void *mmap001_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct mmap001_state *st = xcalloc(1, sizeof(*st));
	st->o = *(const struct mmap001_opts *)opts;
	st->ps = env->page_size;
	st->len = (size_t)st->o.pages * st->ps;
	if (st->o.corrupt_page >= st->o.pages) {
		result_set_outcome(r, OUTCOME_ERROR, "--corrupt-page %ld is beyond the file's %ld pages",
				   st->o.corrupt_page, st->o.pages);
		goto free_state;
	}
	st->path = xasprintf("%s/mmap001.%ld", env->workdir, (long)getpid());
	st->fd = open(st->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (st->fd < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot create %s: %s", st->path, strerror(errno));
		goto free_path;
	}
	int err = posix_fallocate(st->fd, 0, (off_t)st->len);
	if (err) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot size %s to %zu bytes: %s", st->path, st->len,
				   strerror(err));
		goto remove_file;
	}
	result_info_set(r, "file", json_string(st->path));
	result_info_set(r, "bytes", json_integer((json_int_t)st->len));
	return st;
remove_file:
	close(st->fd);
	unlink(st->path);
free_path:
	free(st->path);
free_state:
	free(st);
	return NULL;
}

static char *mmap001_map(struct mmap001_state *st, struct result *r)
{
	char *p = mmap(NULL, st->len, PROT_READ | PROT_WRITE, MAP_SHARED, st->fd, 0);
	if (p == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map %s: %s", st->path, strerror(errno));
		return NULL;
	}
	return p;
}

/* Between the write and the check: drop the cache, damage a page. */
static void mmap001_between(struct mmap001_state *st, struct result *r)
{
	if (st->o.corrupt_page >= 0) {
		uint64_t junk = 0xdeadbeefbadc0ffeull;
		if (pwrite(st->fd, &junk, sizeof(junk), (off_t)((size_t)st->o.corrupt_page * st->ps)) != sizeof(junk))
			result_set_outcome(r, OUTCOME_ERROR, "cannot damage page %ld: %s", st->o.corrupt_page,
					   strerror(errno));
	}
	if (st->o.drop_cache) {
		fdatasync(st->fd);
		posix_fadvise(st->fd, 0, (off_t)st->len, POSIX_FADV_DONTNEED);
	}
}

static int mmap001_check(struct mmap001_state *st, const char *p, long loop, struct result *r)
{
	uint64_t found;
	size_t n = st->len / st->ps;
	for (size_t i = 0; i < n; i++) {
		if (!pattern_check(p + i * st->ps, st->ps, i, (uint64_t)loop, &found)) {
			result_set_outcome(r, OUTCOME_FAIL, "page %zu of %zu read back wrong data in loop %ld "
					   "(first word %#" PRIx64 ", expected %#" PRIx64 ")", i, n, loop, found,
					   pattern_word(i, (uint64_t)loop));
			return -1;
		}
	}
	return 0;
}

static int mmap001_run(void *state, struct result *r)
{
	struct mmap001_state *st = state;
	double sum[MM_TOTAL] = { 0 }, maj = 0, min = 0;
	struct rusage_counts a, b, d;
	size_t n = st->len / st->ps;
	long loop;
	uint64_t start = timer_now_ns();
	for (loop = 0; loop < st->o.loops && r->outcome == OUTCOME_PASS; loop++) {
		uint64_t t[6];
		rusage_self(&a);
		t[0] = timer_now_ns();
		char *p = mmap001_map(st, r);
		if (!p)
			break;
		for (size_t i = 0; i < n; i++)
			pattern_stamp(p + i * st->ps, st->ps, i, (uint64_t)loop);
		t[1] = timer_now_ns();
		msync(p, st->len, MS_SYNC);
		t[2] = timer_now_ns();
		munmap(p, st->len);
		t[3] = timer_now_ns();
		rusage_self(&b);
		rusage_delta(&a, &b, &d);
		min += (double)d.minflt;
		mmap001_between(st, r);
		rusage_self(&a);
		t[4] = timer_now_ns();
		if (!(p = mmap001_map(st, r)))
			break;
		mmap001_check(st, p, loop, r);
		munmap(p, st->len);
		t[5] = timer_now_ns();
		rusage_self(&b);
		rusage_delta(&a, &b, &d);
		maj += (double)d.majflt;
		sum[MM_WRITE] += (double)(t[1] - t[0]);
		sum[MM_SYNC] += (double)(t[2] - t[1]);
		sum[MM_UNMAP] += (double)(t[3] - t[2]);
		sum[MM_CHECK] += (double)(t[5] - t[4]);
	}
	double total = (double)(timer_now_ns() - start);
	for (int i = MM_WRITE; i < MM_TOTAL; i++)
		result_metric_def(r, &mmap001_metrics[i], loop ? sum[i] / (double)loop : 0);
	result_metric_def(r, &mmap001_metrics[MM_TOTAL], total);
	result_metric_def(r, &mmap001_metrics[MM_MAJ], maj);
	result_metric_def(r, &mmap001_metrics[MM_MIN], min);
	if (total > 0)
		result_metric_def(r, &mmap001_metrics[MM_RATE], (double)n * (double)loop / (total / 1e9));
	return 0;
}

static void mmap001_teardown(void *state, struct result *r)
{
	struct mmap001_state *st = state;
	close(st->fd);
	unlink(st->path);
	free(st->path);
	free(st);
}

const struct workload wl_mmap001 = {
	.name = "mmap001",
	.summary = "LTP's mmap001: write a shared file mapping, msync, unmap, map again and check",
	.opts = mmap001_opts,
	.opts_size = sizeof(struct mmap001_opts),
	.metrics = mmap001_metrics,
	.setup = mmap001_setup,
	.run = mmap001_run,
	.teardown = mmap001_teardown,
};
