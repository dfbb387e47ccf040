/* mmap001: LTP's mmap001 (now mmap21), as run in the seed's kernel
 * comparisons.  The measured loop is LTP's: a sparse file (lseek past its
 * end, one byte written) of M pages, mapped PROT_WRITE and MAP_SHARED,
 * every byte written, msync(MS_SYNC), munmap, each phase timed as LTP
 * reports them.  Each byte holds its offset, as LTP's array[i] = (char)i;
 * only the first and last 8 bytes of each page hold vmregress's pattern
 * instead, so that a page can be told from any other.
 *
 * LTP checks nothing.  vmregress's verify phase (on by default, timed
 * apart as check-time; --verify=no leaves it out) syncs the file, drops
 * its cached pages (unless --drop-cache=no) so that the data comes back
 * from the disk, maps it again read-only and checks every byte: the
 * pattern words and LTP's bytes, so a page that the loop did not write in
 * full fails too. */
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
	bool verify;
	bool drop_cache;
	long corrupt_page;
};

static const struct opt mmap001_opts[] = {
	{ .name = "pages", .type = OPT_INT, .off = offsetof(struct mmap001_opts, pages), .def = "10000",
	  .min = 1, .max = 1e10, .metavar = "M", .help = "pages in the file (LTP's -m)" },
	{ .name = "loops", .type = OPT_INT, .off = offsetof(struct mmap001_opts, loops), .def = "1",
	  .min = 1, .max = 100000, .metavar = "N", .help = "map, write, sync and unmap (and verify) this many times "
	  "(LTP's -i)" },
	{ .name = "verify", .type = OPT_FLAG, .off = offsetof(struct mmap001_opts, verify), .def = "yes",
	  .help = "after each loop, sync the file, map it again and check every byte, timed apart as check-time "
	  "(--verify=no: LTP's mmap001 alone)" },
	{ .name = "drop-cache", .type = OPT_FLAG, .off = offsetof(struct mmap001_opts, drop_cache), .def = "yes",
	  .help = "drop the file's cached pages before the verify phase, so it reads the disk (--drop-cache=no keeps them)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct mmap001_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e10, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the file between the write and the check" },
	OPT_END,
};

enum { MM_WRITE, MM_SYNC, MM_UNMAP, MM_CHECK, MM_TOTAL, MM_MAJ, MM_MIN, MM_RATE, MM_LTP, MM_WBYTES, MM_MAP };
static const struct metric_def mmap001_metrics[] = {
	[MM_WRITE] = { "write-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "map the file and write every byte (per loop)" },
	[MM_SYNC] = { "msync-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "msync(MS_SYNC) of the mapping (per loop)" },
	[MM_UNMAP] = { "munmap-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "unmap after the write (per loop)" },
	[MM_CHECK] = { "check-time", "ns", BETTER_NONE, COMBINE_AMEAN,
		       "the verify phase: sync, drop the cache, map again and check every byte (per loop)" },
	[MM_TOTAL] = { "time", "ns", BETTER_LOWER, COMBINE_AMEAN, "all of it, every loop" },
	[MM_MAJ] = { "major-faults-check", "faults", BETTER_NONE, COMBINE_AMEAN, "major faults of the verify phases" },
	[MM_MIN] = { "minor-faults-write", "faults", BETTER_NONE, COMBINE_AMEAN, "minor faults of the writes" },
	[MM_RATE] = { "pages-per-sec", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, "pages written per second of LTP's loop", .headline = true },
	[MM_LTP] = { "ltp-time", "ns", BETTER_LOWER, COMBINE_AMEAN,
		     "LTP's loop: map, write every byte, msync, munmap, every loop (no verify phase)" },
	[MM_WBYTES] = { "ltp-write-bytes", "bytes", BETTER_NONE, COMBINE_AMEAN,
			"bytes this process sent to storage during LTP's loop (/proc/self/io write_bytes)" },
	[MM_MAP] = { "mmap-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "the mmap call alone (per loop)" },
	{ .name = NULL },
};

struct mmap001_state {
	struct mmap001_opts o;
	size_t ps, len;
	char *path;
	int fd;
	uint64_t salt;
	char *ref;     /* one page of LTP's bytes: (char)offset */
};

/* LTP's file: sparse, made by seeking past the end and writing one byte. */
static int mmap001_make_file(struct mmap001_state *st)
{
	if (lseek(st->fd, (off_t)st->len, SEEK_SET) != (off_t)st->len)
		return -1;
	return write(st->fd, "", 1) == 1 ? 0 : -1;
}

static void *mmap001_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct mmap001_state *st = xcalloc(1, sizeof(*st));
	st->o = *(const struct mmap001_opts *)opts;
	st->ps = env->page_size;
	st->len = (size_t)st->o.pages * st->ps;
	st->salt = pattern_salt();
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
	if (mmap001_make_file(st) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot size %s to %zu bytes: %s", st->path, st->len + 1,
				   strerror(errno));
		goto remove_file;
	}
	st->ref = xmalloc(st->ps);
	for (size_t i = 0; i < st->ps; i++)
		st->ref[i] = (char)i;
	result_info_set(r, "file", json_string(st->path));
	result_info_set(r, "bytes", json_integer((json_int_t)st->len));
	result_info_set(r, "verify", json_string(st->o.verify ? (st->o.drop_cache ? "every byte, from the disk"
									       : "every byte, from the page cache")
							     : "none (LTP's mmap001 alone)"));
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

static char *mmap001_map(struct mmap001_state *st, int prot, struct result *r)
{
	char *p = mmap(NULL, st->len, prot, MAP_SHARED, st->fd, 0);
	if (p == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map %s: %s", st->path, strerror(errno));
		return NULL;
	}
	return p;
}

/* LTP's touch loop, a page at a time: every byte its offset, then the
 * page's pattern words over its first and last 8 bytes. */
static void mmap001_write(struct mmap001_state *st, char *p, uint64_t salt)
{
	size_t n = st->len / st->ps, ps = st->ps;
	for (size_t i = 0; i < n; i++) {
		char *page = p + i * ps;
		for (size_t b = 0; b < ps; b++)
			page[b] = (char)b;   /* (char)(i * ps + b): ps is a multiple of 256 */
		pattern_stamp(page, ps, i, salt);
	}
}

/* Between the write and the check: damage a page, sync, drop the cache. */
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

static int mmap001_check(struct mmap001_state *st, const char *p, long loop, uint64_t salt, struct result *r)
{
	uint64_t found;
	size_t n = st->len / st->ps, ps = st->ps;
	for (size_t i = 0; i < n; i++) {
		const char *page = p + i * ps;
		if (!pattern_check(page, ps, i, salt, &found)) {
			result_set_outcome(r, OUTCOME_FAIL, "page %zu of %zu read back wrong data in loop %ld "
					   "(first word %#" PRIx64 ", expected %#" PRIx64 ")", i, n, loop, found,
					   pattern_word(i, salt));
			return -1;
		}
		if (memcmp(page + 8, st->ref + 8, ps - 16)) {
			size_t b = 8;
			while (page[b] == st->ref[b])
				b++;
			result_set_outcome(r, OUTCOME_FAIL, "page %zu of %zu read back wrong data in loop %ld "
					   "(byte %zu is %#x, expected %#x: LTP's loop did not write it)", i, n, loop,
					   b, (unsigned)(unsigned char)page[b], (unsigned)(unsigned char)st->ref[b]);
			return -1;
		}
	}
	return 0;
}

/* Bytes this process has caused to be written to storage. */
static uint64_t mmap001_write_bytes(void)
{
	char *buf, *p;
	uint64_t v = 0;
	if (vmr_read_file("/proc/self/io", &buf, NULL) < 0)
		return 0;
	if ((p = strstr(buf, "\nwrite_bytes: ")))
		v = strtoull(p + 14, NULL, 10);
	free(buf);
	return v;
}

/* The verify phase of one loop; adds its time and major faults. */
static void mmap001_verify(struct mmap001_state *st, long loop, uint64_t salt, double *ns, double *maj,
			   struct result *r)
{
	struct rusage_counts a, b, d;
	rusage_self(&a);
	uint64_t t0 = vmr_now_ns();
	mmap001_between(st, r);
	char *p = mmap001_map(st, PROT_READ, r);
	if (p) {
		mmap001_check(st, p, loop, salt, r);
		munmap(p, st->len);
	}
	*ns += (double)(vmr_now_ns() - t0);
	rusage_self(&b);
	rusage_delta(&a, &b, &d);
	*maj += (double)d.majflt;
}

static int mmap001_run(void *state, struct result *r)
{
	struct mmap001_state *st = state;
	double sum[MM_TOTAL] = { 0 }, maj = 0, min = 0, map_ns = 0, ltp = 0;
	struct rusage_counts a, b, d;
	size_t n = st->len / st->ps;
	long loop;
	uint64_t wb = 0, start = vmr_now_ns();
	for (loop = 0; loop < st->o.loops && r->outcome == OUTCOME_PASS; loop++) {
		uint64_t t[5], salt = st->salt + (uint64_t)loop, wb0 = mmap001_write_bytes();
		rusage_self(&a);
		t[0] = vmr_now_ns();
		char *p = mmap001_map(st, PROT_WRITE, r);
		if (!p)
			break;
		t[1] = vmr_now_ns();
		mmap001_write(st, p, salt);
		t[2] = vmr_now_ns();
		msync(p, st->len, MS_SYNC);
		t[3] = vmr_now_ns();
		munmap(p, st->len);
		t[4] = vmr_now_ns();
		rusage_self(&b);
		wb += mmap001_write_bytes() - wb0;
		rusage_delta(&a, &b, &d);
		min += (double)d.minflt;
		map_ns += (double)(t[1] - t[0]);
		sum[MM_WRITE] += (double)(t[2] - t[0]);
		sum[MM_SYNC] += (double)(t[3] - t[2]);
		sum[MM_UNMAP] += (double)(t[4] - t[3]);
		ltp += (double)(t[4] - t[0]);
		if (st->o.verify)
			mmap001_verify(st, loop, salt, &sum[MM_CHECK], &maj, r);
	}
	double total = (double)(vmr_now_ns() - start);
	for (int i = MM_WRITE; i < MM_TOTAL; i++)
		if (i != MM_CHECK || st->o.verify)
			result_metric_def(r, &mmap001_metrics[i], loop ? sum[i] / (double)loop : 0);
	result_metric_def(r, &mmap001_metrics[MM_MAP], loop ? map_ns / (double)loop : 0);
	result_metric_def(r, &mmap001_metrics[MM_TOTAL], total);
	result_metric_def(r, &mmap001_metrics[MM_LTP], ltp);
	result_metric_def(r, &mmap001_metrics[MM_WBYTES], (double)wb);
	if (st->o.verify)
		result_metric_def(r, &mmap001_metrics[MM_MAJ], maj);
	result_metric_def(r, &mmap001_metrics[MM_MIN], min);
	if (ltp > 0)
		result_metric_def(r, &mmap001_metrics[MM_RATE], (double)n * (double)loop / (ltp / 1e9));
	return 0;
}

static void mmap001_teardown(void *state, struct result *r)
{
	struct mmap001_state *st = state;
	close(st->fd);
	unlink(st->path);
	free(st->path);
	free(st->ref);
	free(st);
}

const struct workload wl_mmap001 = {
	.name = "mmap001",
	.summary = "LTP's mmap001: write every byte of a shared file mapping, msync, unmap; then verify apart",
	.opts = mmap001_opts,
	.opts_size = sizeof(struct mmap001_opts),
	.metrics = mmap001_metrics,
	.setup = mmap001_setup,
	.run = mmap001_run,
	.teardown = mmap001_teardown,
};
