/* mmap: the seed's bench_mmap.  Map a region of a trace's page count,
 * anonymous or backed by a file, and replay the trace's references in
 * order, reading or writing one word per reference, timed in batches of
 * --timing-batch references (refs/replay.h says how; 1 times every access).
 * Reads check each page's first word in the timed loop, as cheaply as a
 * bare loop reads it; after the replay a separately timed verify phase
 * reads every referenced page back, first and last word (the pattern and
 * its complement; after a write replay the pattern and the untouched zero).
 * Over a user's --file, whose contents are unknown, a digest of every
 * referenced page is taken with pread before the replay (bringing the file
 * into the page cache, as the prefill does for a temporary file) and
 * checked against the mapping after it.  The report has the seed's
 * page-access-time data: the time of every slow access (or batch) by
 * reference index, an access-time histogram, and per-page reference and
 * fault counts. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "refs/replay.h"
#include "refs/trace.h"
#include "workload/pattern.h"
#include "workload/workload.h"

#define MMAP_MAX_PAGE_ROWS 1000000 /* per-page table only for regions up to this */

struct mmap_opts {
	char *refs;
	bool anon, file_backed, write;
	char *file;
	long passes;
	uint64_t slow_ns;
	long max_slow;
	long batch, batch_max;
	long corrupt_page;
};

static const struct opt mmap_opts[] = {
	{ .name = "refs", .type = OPT_STR, .off = offsetof(struct mmap_opts, refs), .metavar = "FILE",
	  .help = "the reference trace to replay (vmregress refs generate)" },
	{ .name = "anon", .type = OPT_FLAG, .off = offsetof(struct mmap_opts, anon),
	  .help = "replay over anonymous memory (the default)" },
	{ .name = "file-backed", .type = OPT_FLAG, .off = offsetof(struct mmap_opts, file_backed),
	  .help = "replay over a MAP_SHARED file that vmregress creates and removes" },
	{ .name = "file", .type = OPT_STR, .off = offsetof(struct mmap_opts, file), .metavar = "PATH",
	  .help = "replay over this existing file, MAP_SHARED (written with --write, never removed)" },
	{ .name = "write", .type = OPT_FLAG, .off = offsetof(struct mmap_opts, write),
	  .help = "write one word per reference instead of reading it" },
	{ .name = "passes", .type = OPT_INT, .off = offsetof(struct mmap_opts, passes), .def = "1", .min = 1,
	  .max = 1000000, .metavar = "N", .help = "replay the trace this many times" },
	{ .name = "slow", .type = OPT_TIME, .off = offsetof(struct mmap_opts, slow_ns), .def = "2us", .min = 1,
	  .max = 60e9, .metavar = "TIME",
	  .help = "keep accesses at least this slow (batches: this much slower than their resident time; see "
		  "--timing-batch) with their faults" },
	{ .name = "max-slow", .type = OPT_INT, .off = offsetof(struct mmap_opts, max_slow), .def = "50000",
	  .min = 0, .max = 1e8, .metavar = "N", .help = "keep at most this many slow accesses (batches)" },
	{ .name = "timing-batch", .type = OPT_INT, .off = offsetof(struct mmap_opts, batch), .def = "32", .min = 1,
	  .max = 4096, .metavar = "N",
	  .help = "read the cycle counter once per batch of references, so that resident accesses overlap as in "
		  "a bare loop: a pass starts with batches of N, every quick batch doubles the next one up to "
		  "--timing-batch-max, a slow one sets it back to N.  1 times every access exactly.  A batch of k "
		  "references is slow when it takes at least --slow plus k running-average resident accesses, and "
		  "at least twice those k accesses; a "
		  "quick batch adds k samples of its average to the histogram, a slow one is kept as one slow "
		  "access (its first reference and page, refs = k, the whole batch's time, its faults) and adds one "
		  "sample of its time less k-1 average accesses (at least 0) and k-1 samples of that average.  "
		  "Count and mean stay exact; the histogram's tail and the slow-access list are then per batch" },
	{ .name = "timing-batch-max", .type = OPT_INT, .off = offsetof(struct mmap_opts, batch_max), .def = "1024",
	  .min = 1, .max = 65536, .metavar = "M",
	  .help = "the longest batch quick batches grow to (below --timing-batch: batches stay at --timing-batch)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct mmap_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N (one the trace references) before a read replay, after a write replay" },
	OPT_END,
};

enum { MT_TIME, MT_RATE, MT_MIN, MT_MAJ, MT_MEAN, MT_P50, MT_P99, MT_P999, MT_MAX, MT_SLOW, MT_PREFILL,
       MT_VERIFY };
static const struct metric_def mmap_metrics[] = {
	[MT_TIME] = { "time", "ns", BETTER_LOWER, COMBINE_AMEAN, "replaying every pass" },
	[MT_RATE] = { "refs-per-sec", "refs/s", BETTER_HIGHER, COMBINE_HMEAN, "references replayed per second", .headline = true },
	[MT_MIN] = { "replay-minor-faults", "faults", BETTER_LOWER, COMBINE_AMEAN, "minor faults of the replay alone" },
	[MT_MAJ] = { "replay-major-faults", "faults", BETTER_LOWER, COMBINE_AMEAN, "major faults of the replay alone" },
	[MT_MEAN] = { "access-mean", "ns", BETTER_LOWER, COMBINE_AMEAN, "mean time of one reference" },
	[MT_P50] = { "access-p50", "ns", BETTER_LOWER, COMBINE_AMEAN, "median time of one reference" },
	[MT_P99] = { "access-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, "99th percentile of the same", .headline = true },
	[MT_P999] = { "access-p99.9", "ns", BETTER_LOWER, COMBINE_AMEAN, "99.9th percentile of the same" },
	[MT_MAX] = { "access-max", "ns", BETTER_LOWER, COMBINE_AMEAN, "the slowest reference" },
	[MT_SLOW] = { "slow-accesses", "refs", BETTER_LOWER, COMBINE_AMEAN, "accesses (batches) at least --slow longer than resident" },
	[MT_PREFILL] = { "prefill-time", "ns", BETTER_NONE, COMBINE_AMEAN, "writing the pattern before a read replay" },
	[MT_VERIFY] = { "verify-time", "ns", BETTER_NONE, COMBINE_AMEAN,
			"the verify phase after the replay: every referenced page's first and last word (or digest)" },
	{ .name = NULL },
};

struct mmap_state {
	struct mmap_opts o;
	struct refs_trace t;
	size_t ps, len;
	char *region;
	int fd;
	char *tmp_path;
	uint64_t salt, prefill_ns;
	bool verify_reads;
	uint64_t *digest;      /* --file: per page, of what pread saw before the replay */
	uint8_t *seen;         /* per page: referenced by the trace */
};

static int mmap_validate(const void *opts)
{
	const struct mmap_opts *o = opts;
	if (!o->refs || !*o->refs) {
		vmr_wl_err("mmap", "needs --refs FILE (make one with vmregress refs generate)");
		return -1;
	}
	if ((o->anon != 0) + (o->file_backed != 0) + (o->file != NULL) > 1) {
		vmr_wl_err("mmap", "--anon, --file-backed and --file: choose one kind of memory");
		return -1;
	}
	if (o->file && !*o->file) {
		vmr_wl_err("mmap", "--file: '' is not a path");
		return -1;
	}
	struct refs_trace t = { 0 };
	if (refs_open(&t, o->refs) < 0)
		return -1;
	uint64_t pages = t.h.pages, refs = t.h.references;
	bool referenced = false;
	for (uint64_t i = 0; o->corrupt_page >= 0 && i < refs && !referenced; i++)
		referenced = refs_at(t.refs, i) == (uint64_t)o->corrupt_page;
	refs_close(&t);
	if (o->corrupt_page >= 0 && !referenced) {
		vmr_wl_err("mmap", "--corrupt-page %ld: the trace never references that page", o->corrupt_page);
		return -1;
	}
	if (!refs) {
		vmr_wl_err("mmap", "--refs %s: the trace holds no references", o->refs);
		return -1;
	}
	if (pages > (UINT64_MAX >> 1) / vmr_page_size() || pages * vmr_page_size() > ((uint64_t)1 << 46)) {
		vmr_wl_err("mmap", "--refs %s: a region of %" PRIu64 " pages is too large to map", o->refs, pages);
		return -1;
	}
	if (o->file) {
		struct stat st = { 0 };
		if (stat(o->file, &st) < 0) {
			vmr_wl_errno("mmap", "--file %s", o->file);
			return -1;
		}
		if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size < pages * vmr_page_size()) {
			vmr_wl_err("mmap", "--file %s: not a regular file of at least %" PRIu64 " bytes (the trace's %" PRIu64
				" pages)", o->file, pages * vmr_page_size(), pages);
			return -1;
		}
	}
	return 0;
}

static const char *mmap_supported(const void *opts, const struct wl_env *env)
{
	return NULL;
}

static int mmap_fill_file(int fd, uint64_t pages, size_t ps, uint64_t salt)
{
	size_t chunk_pages = (1u << 20) / ps ? (1u << 20) / ps : 1;
	char *buf = xcalloc(chunk_pages, ps);
	int rc = 0;
	for (uint64_t p = 0; p < pages && !rc; p += chunk_pages) {
		size_t n = pages - p < chunk_pages ? (size_t)(pages - p) : chunk_pages;
		for (size_t i = 0; i < n; i++) {
			uint64_t w = replay_word((uint32_t)(p + i), salt), c = ~w;
			memcpy(buf + i * ps, &w, 8);
			memcpy(buf + (i + 1) * ps - 8, &c, 8);
		}
		if (pwrite(fd, buf, n * ps, (off_t)(p * ps)) != (ssize_t)(n * ps))
			rc = -1;
	}
	free(buf);
	return rc;
}

/* A digest of bytes [from, page_size) of one page. */
static uint64_t mmap_page_digest(const char *page, size_t ps, size_t from)
{
	uint64_t h = 0xcbf29ce484222325ull, w;
	for (size_t off = from; off < ps; off += 8) {
		memcpy(&w, page + off, 8);
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 32;
	}
	return h;
}

/* The digest of every referenced page of the user's file, through pread
 * (not the mapping).  A write replay stores the first word, so its digest
 * leaves that word out. */
static int mmap_take_digest(struct mmap_state *st)
{
	char *buf = xmalloc(st->ps);
	size_t from = st->o.write ? 8 : 0;
	st->digest = xcalloc(st->t.h.pages, sizeof(*st->digest));
	for (uint64_t p = 0; p < st->t.h.pages; p++) {
		if (!st->seen[p])
			continue;
		if (pread(st->fd, buf, st->ps, (off_t)(p * st->ps)) != (ssize_t)st->ps) {
			free(buf);
			return -1;
		}
		st->digest[p] = mmap_page_digest(buf, st->ps, from);
	}
	free(buf);
	return 0;
}

/* The file behind the region: the user's, or a temporary one, unlinked at
 * once so that it goes away whatever happens to this process. */
static int mmap_open_file(struct mmap_state *st, const struct wl_env *env, struct result *r)
{
	if (st->o.file) {
		st->fd = open(st->o.file, (st->o.write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
		if (st->fd < 0) {
			result_set_outcome(r, OUTCOME_ERROR, "cannot open --file %s: %s", st->o.file, strerror(errno));
			return -1;
		}
		if (mmap_take_digest(st) < 0) {
			result_set_outcome(r, OUTCOME_ERROR, "cannot read --file %s: %s", st->o.file,
					   errno ? strerror(errno) : "short read");
			return -1;
		}
		return 0;
	}
	st->tmp_path = xasprintf("%s/mmap-region.%ld", env->workdir, (long)getpid());
	st->fd = open(st->tmp_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (st->fd < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot create %s: %s", st->tmp_path, strerror(errno));
		return -1;
	}
	unlink(st->tmp_path);
	int e = 0;
	if (st->o.write) {
		if (ftruncate(st->fd, (off_t)st->len) < 0)
			e = errno;
	} else {
		uint64_t t0 = vmr_now_ns();
		if (mmap_fill_file(st->fd, st->t.h.pages, st->ps, st->salt) < 0)
			e = errno ? errno : EIO;
		st->prefill_ns = vmr_now_ns() - t0;
	}
	if (e) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot size %s to %zu bytes: %s", st->tmp_path, st->len, strerror(e));
		return -1;
	}
	return 0;
}

static int mmap_map(struct mmap_state *st, const struct wl_env *env, struct result *r)
{
	int prot = PROT_READ | (st->o.write || !st->o.file ? PROT_WRITE : 0);
	bool file = st->o.file || st->o.file_backed;
	if (file && mmap_open_file(st, env, r) < 0)
		return -1;
	st->region = mmap(NULL, st->len, prot, file ? MAP_SHARED : MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			  file ? st->fd : -1, 0);
	if (st->region == MAP_FAILED) {
		st->region = NULL;
		result_set_outcome(r, OUTCOME_ERROR, "cannot map %zu bytes: %s", st->len, strerror(errno));
		return -1;
	}
	if (!file && !st->o.write) {
		uint64_t t0 = vmr_now_ns();
		replay_fill(st->region, st->t.h.pages, st->ps, st->salt);
		st->prefill_ns = vmr_now_ns() - t0;
	}
	return 0;
}

static void mmap_info(struct mmap_state *st, struct result *r)
{
	result_info_set(r, "refs", json_string(st->t.path));
	result_info_set(r, "refs_description", json_string(st->t.h.desc));
	result_info_set(r, "refs_sampled", json_boolean(st->t.h.flags & REFS_FLAG_SAMPLED));
	result_info_set(r, "refs_page_size", json_integer(st->t.h.page_size));
	/* With the description, pages and references: which trace this was,
	 * wherever its file lay (vmregress compare goes by these, not the path). */
	result_info_set(r, "refs_seed", json_integer((json_int_t)st->t.h.seed));
	result_info_set(r, "refs_checksum", json_integer(st->t.h.checksum));
	result_info_set(r, "pages", json_integer((json_int_t)st->t.h.pages));
	result_info_set(r, "references", json_integer((json_int_t)st->t.h.references));
	result_info_set(r, "passes", json_integer(st->o.passes));
	result_info_set(r, "region_bytes", json_integer((json_int_t)st->len));
	result_info_set(r, "memory", json_string(st->o.file ? "file" : st->o.file_backed ? "file (temporary)" : "anon"));
	if (st->o.file)
		result_info_set(r, "file", json_string(st->o.file));
	result_info_set(r, "mode", json_string(st->o.write ? "write" : "read"));
	result_info_set(r, "verify", json_string(st->o.file ? "a digest of every referenced page, taken before the replay "
							  "and checked after it" : st->o.write ? "after the replay"
							  : "every read, and after the replay"));
	result_info_set(r, "address", json_sprintf("%p", (void *)st->region));
}

static void *mmap_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct mmap_state *st = xcalloc(1, sizeof(*st));
	st->o = *(const struct mmap_opts *)opts;
	st->fd = -1;
	st->ps = env->page_size ? env->page_size : vmr_page_size();
	st->salt = vmr_now_ns() ^ ((uint64_t)getpid() << 40);
	if (refs_open(&st->t, st->o.refs) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot read the trace %s", st->o.refs);
		free(st);
		return NULL;
	}
	st->len = (size_t)st->t.h.pages * st->ps;
	st->verify_reads = !st->o.write && !st->o.file;
	st->seen = xcalloc(st->t.h.pages, 1);
	for (uint64_t i = 0; i < st->t.h.references; i++)
		st->seen[refs_at(st->t.refs, i)] = 1;
	if (mmap_map(st, env, r) < 0) {
		mmap_info(st, r);
		if (st->fd >= 0)
			close(st->fd);
		free(st->tmp_path);
		free(st->digest);
		free(st->seen);
		refs_close(&st->t);
		free(st);
		return NULL;
	}
	mmap_info(st, r);
	return st;
}

static void mmap_tables(struct mmap_state *st, const struct replay *rp, struct result *r)
{
	static const char *const slow_cols[] = { "ref", "pass", "page", "refs", "time_ns", "minflt", "majflt" };
	struct table *t = result_table(r, "slow-accesses", 7, slow_cols);
	uint64_t n = st->t.h.references;
	for (size_t i = 0; i < rp->nslow; i++) {
		const struct replay_slow *s = &rp->slow[i];
		double row[7] = { (double)s->ref, (double)(s->ref / n), s->page, s->refs, (double)s->ticks, s->minflt,
				  s->majflt };
		table_add_row(t, row);
	}
	if (st->t.h.pages > MMAP_MAX_PAGE_ROWS)
		return;
	static const char *const page_cols[] = { "page", "refs", "minflt", "majflt" };
	uint64_t *count = xcalloc(st->t.h.pages, sizeof(*count));
	for (uint64_t i = 0; i < n; i++)
		count[refs_at(st->t.refs, i)] += (uint64_t)st->o.passes;
	t = result_table(r, "pages", 4, page_cols);
	for (uint64_t p = 0; p < st->t.h.pages; p++) {
		if (!count[p] && !rp->page_minflt[p] && !rp->page_majflt[p])
			continue;
		double row[4] = { (double)p, (double)count[p], rp->page_minflt[p], rp->page_majflt[p] };
		table_add_row(t, row);
	}
	free(count);
}

static void mmap_metrics_add(struct mmap_state *st, const struct replay *rp, const struct hist *h,
			     struct result *r)
{
	result_metric_def(r, &mmap_metrics[MT_TIME], (double)rp->ns);
	result_metric_def(r, &mmap_metrics[MT_RATE], rp->ns ? (double)rp->refs / ((double)rp->ns / 1e9) : 0);
	result_metric_def(r, &mmap_metrics[MT_MIN], (double)rp->minflt);
	result_metric_def(r, &mmap_metrics[MT_MAJ], (double)rp->majflt);
	result_metric_def(r, &mmap_metrics[MT_MEAN], hist_mean(h));
	result_metric_def(r, &mmap_metrics[MT_P50], hist_percentile(h, 50));
	result_metric_def(r, &mmap_metrics[MT_P99], hist_percentile(h, 99));
	result_metric_def(r, &mmap_metrics[MT_P999], hist_percentile(h, 99.9));
	result_metric_def(r, &mmap_metrics[MT_MAX], (double)h->max);
	result_metric_def(r, &mmap_metrics[MT_SLOW], (double)(rp->nslow + rp->slow_dropped));
	if (!st->o.write)
		result_metric_def(r, &mmap_metrics[MT_PREFILL], (double)st->prefill_ns);
	result_info_set(r, "slow_threshold_ns", json_integer((json_int_t)st->o.slow_ns));
	result_info_set(r, "timing_batch", json_integer(st->o.batch));
	result_info_set(r, "timing_batch_max", json_integer(rp->cfg.batch_max));
	result_info_set(r, "timing_batches", json_integer((json_int_t)rp->batches));
	result_info_set(r, "slow_dropped", json_integer((json_int_t)rp->slow_dropped));
	result_info_set(r, "faults_unattributed", json_pack("{s:I,s:I}", "minor", (json_int_t)rp->unattr_minflt,
							     "major", (json_int_t)rp->unattr_majflt));
	result_info_set(r, "timer", json_pack("{s:s,s:f,s:f}", "kind", REPLAY_TIMER, "ns_per_tick", rp->ns_per_tick,
					       "read_ns", rp->timer_cost_ns));
}

/* Damage the first word of --corrupt-page behind the replay's back: through
 * /proc/self/mem where the mapping is writable, else through the file. */
static void mmap_corrupt(struct mmap_state *st, struct result *r)
{
	char *addr = st->region + (size_t)st->o.corrupt_page * st->ps;
	int err = 0;
	if (st->o.file && !st->o.write) {
		uint64_t junk = 0xdeadbeefbadc0ffeull;
		int fd = open(st->o.file, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || pwrite(fd, &junk, sizeof(junk), (off_t)((size_t)st->o.corrupt_page * st->ps)) !=
				      (ssize_t)sizeof(junk))
			err = -(errno ? errno : EIO);
		if (fd >= 0)
			close(fd);
	} else {
		err = pattern_corrupt(addr);
	}
	if (err)
		result_set_outcome(r, OUTCOME_ERROR, "cannot damage page %ld: %s", st->o.corrupt_page, strerror(-err));
}

/* --file: every referenced page of the mapping against its digest (and,
 * after a write replay, its first word against the last pass's pattern). */
static uint64_t mmap_check_digest(struct mmap_state *st, uint64_t salt, uint32_t *bad_page, uint64_t *found)
{
	uint64_t bad = 0;
	size_t from = st->o.write ? 8 : 0;
	for (uint64_t p = 0; p < st->t.h.pages; p++) {
		if (!st->seen[p])
			continue;
		const char *page = st->region + p * st->ps;
		uint64_t w;
		memcpy(&w, page, 8);
		bool ok = mmap_page_digest(page, st->ps, from) == st->digest[p] &&
			  (!st->o.write || w == replay_word((uint32_t)p, salt));
		if (!ok && !bad++) {
			*bad_page = (uint32_t)p;
			*found = w;
		}
	}
	return bad;
}

/* The verify phase, timed apart from the replay. */
static void mmap_verify(struct mmap_state *st, const struct replay_cfg *cfg, struct result *r)
{
	uint64_t salt = replay_pass_salt(cfg, (unsigned)(st->o.passes - 1));
	uint32_t page = 0;
	uint64_t found = 0, bad, t0 = vmr_now_ns();
	if (st->o.file)
		bad = mmap_check_digest(st, salt, &page, &found);
	else
		bad = replay_verify(st->t.refs, st->t.h.references, st->t.h.pages, st->region, st->ps, salt,
				    st->o.write ? REPLAY_TAIL_ZERO : REPLAY_TAIL_COMPLEMENT, &page, &found);
	result_metric_def(r, &mmap_metrics[MT_VERIFY], (double)(vmr_now_ns() - t0));
	if (!bad || r->outcome != OUTCOME_PASS)
		return;
	if (st->o.file)
		result_set_outcome(r, OUTCOME_FAIL, "page %" PRIu32 " of --file %s changed during the %s replay "
				   "(first word now %#" PRIx64 "; %" PRIu64 " bad pages)", page, st->o.file,
				   st->o.write ? "write" : "read", found, bad);
	else
		result_set_outcome(r, OUTCOME_FAIL, "page %" PRIu32 " read back %#" PRIx64 " after the %s replay, not "
				   "its pattern %#" PRIx64 " and %s (%" PRIu64 " bad pages)", page, found,
				   st->o.write ? "write" : "read", replay_word(page, salt),
				   st->o.write ? "a zero last word" : "its complement", bad);
}

static int mmap_run(void *state, struct result *r)
{
	struct mmap_state *st = state;
	struct replay_cfg cfg = { .write = st->o.write, .verify = st->verify_reads, .salt = st->salt,
				  .slow_ns = st->o.slow_ns, .max_slow = (size_t)st->o.max_slow,
				  .batch = (uint32_t)st->o.batch, .batch_max = (uint32_t)st->o.batch_max };
	struct replay rp = { 0 };
	replay_init(&rp, st->t.h.pages, &cfg);
	static const char *const cols[] = { "pass", "time_ns", "refs_per_sec", "minflt", "majflt", "slow" };
	struct table *t = result_table(r, "passes", 6, cols);
	if (st->o.corrupt_page >= 0 && !st->o.write)
		mmap_corrupt(st, r);
	for (long pass = 0; pass < st->o.passes; pass++) {
		struct replay_pass p = { 0 };
		replay_run_pass(&rp, st->t.refs, st->t.h.references, st->region, st->ps, (unsigned)pass, &p);
		double row[6] = { (double)pass, (double)p.ns, p.ns ? (double)st->t.h.references / ((double)p.ns / 1e9) : 0,
				  (double)p.minflt, (double)p.majflt, (double)p.slow };
		table_add_row(t, row);
	}
	struct hist *h = replay_finish(&rp);
	mmap_metrics_add(st, &rp, h, r);
	mmap_tables(st, &rp, r);
	result_hist(r, "access-time", "ns", h);
	if (rp.bad) {
		result_set_outcome(r, OUTCOME_FAIL, "page %" PRIu32 " read back %#" PRIx64 " at reference %" PRIu64
				   ", not its pattern %#" PRIx64 " (%" PRIu64 " bad reads)", rp.bad_page, rp.bad_found,
				   rp.bad_ref, replay_word(rp.bad_page, st->salt), rp.bad);
	}
	if (st->o.corrupt_page >= 0 && st->o.write)
		mmap_corrupt(st, r);
	mmap_verify(st, &cfg, r);
	replay_free(&rp);
	return 0;
}

static void mmap_teardown(void *state, struct result *r)
{
	struct mmap_state *st = state;
	if (!st)
		return;
	if (st->region)
		munmap(st->region, st->len);
	if (st->fd >= 0)
		close(st->fd);
	free(st->tmp_path);
	free(st->digest);
	free(st->seen);
	refs_close(&st->t);
	free(st);
}

const struct workload wl_mmap = {
	.name = "mmap",
	.summary = "the seed's bench_mmap: replay a reference trace over anonymous or file memory, timing its accesses",
	.opts = mmap_opts,
	.opts_size = sizeof(struct mmap_opts),
	.metrics = mmap_metrics,
	.validate = mmap_validate,
	.supported = mmap_supported,
	.setup = mmap_setup,
	.run = mmap_run,
	.teardown = mmap_teardown,
};
