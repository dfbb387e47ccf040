/* stutter: mmtests' stutterp.  A latency probe maps a small anonymous
 * region every --interval, writes each page of it (one fault each, each
 * timed) and unmaps it, while, in the same sandbox, anonymous memory hogs
 * write their regions over and over, file writers write 1M blocks at random
 * offsets of their files with buffered write(2) (dirty page cache that
 * reclaim and the flusher must write back), and a reader reads 4K pages of
 * its own file at random.  Hogs and writers together hold --size, more than
 * the sandbox's limit, split by --file-percent.  Each --threads count T is
 * one step, split as stutterp splits it: one probe, one reader,
 * max(1, (T - 2) / 2) writers, the rest (at least one) hogs.
 *
 * The probe's fault latency (p50, p99, max, and the share of faults that
 * stalled 1 ms or more) is what a user feels as the desktop stuttering; the writers' throughput says what the kernel gave the
 * writers meanwhile.  Everything that writes data checks it: the hogs each
 * page of the previous pass before writing the next, the reader every page
 * it reads, the writers every page of their files once the step ends (a
 * page written holds its pattern, one never written reads zero), the probe
 * each page it faulted. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/hist.h"
#include "core/timer.h"
#include "core/units.h"
#include "core/util.h"
#include "refs/prng.h"
#include "workload/pattern.h"
#include "workload/tasks.h"
#include "workload/workload.h"

#define STUTTER_BLOCK (1u << 20)    /* the writers' block, as stutterp's fio job */
#define STUTTER_MAX_WORKERS 256
#define STUTTER_STALL_NS 1000000    /* a fault this slow is a stall (a normal one takes microseconds) */

struct stutter_opts {
	struct vmr_rsize size;
	long file_percent;
	char *threads;
	long writers;
	uint64_t duration_ns;
	uint64_t warmup_ns;
	uint64_t probe_size;
	uint64_t interval_ns;
	struct vmr_rsize reader_size;
	long corrupt_page;
};

static const struct opt stutter_opts[] = {
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct stutter_opts, size), .def = "1.5x",
	  .metavar = "SIZE", .help = "what the hogs and writers hold together (relative: of the sandbox's limit)" },
	{ .name = "file-percent", .type = OPT_INT, .off = offsetof(struct stutter_opts, file_percent), .def = "50",
	  .min = 0, .max = 100, .metavar = "P", .help = "the writers' share of --size; the hogs hold the rest" },
	{ .name = "threads", .type = OPT_STR, .off = offsetof(struct stutter_opts, threads), .def = "4,8",
	  .metavar = "LIST", .help = "workers per step (probe, reader, writers, hogs): 4,8 or 4-8; cpus: the CPUs it may run on" },
	{ .name = "writers", .type = OPT_INT, .off = offsetof(struct stutter_opts, writers), .def = "0",
	  .min = 0, .max = STUTTER_MAX_WORKERS - 3, .metavar = "N",
	  .help = "writers in every step, the hogs taking the rest of --threads (0: stutterp's split)" },
	{ .name = "duration", .type = OPT_TIME, .off = offsetof(struct stutter_opts, duration_ns), .def = "3s",
	  .min = 1e7, .max = 3600e9, .metavar = "TIME", .help = "how long the probe measures in each step" },
	{ .name = "warmup", .type = OPT_TIME, .off = offsetof(struct stutter_opts, warmup_ns), .def = "1s",
	  .min = 0, .max = 3600e9, .metavar = "TIME", .help = "writers and reader alone first, so that writeback has begun" },
	{ .name = "probe-size", .type = OPT_SIZE, .off = offsetof(struct stutter_opts, probe_size), .def = "1M",
	  .min = 4096, .max = 1e10, .metavar = "SIZE", .help = "the region the probe maps, faults and unmaps each time" },
	{ .name = "interval", .type = OPT_TIME, .off = offsetof(struct stutter_opts, interval_ns), .def = "5ms",
	  .min = 0, .max = 60e9, .metavar = "TIME", .help = "the probe's sleep between two rounds (stutterp's 5ms)" },
	{ .name = "reader-size", .type = OPT_RSIZE, .off = offsetof(struct stutter_opts, reader_size), .def = "0.25x",
	  .metavar = "SIZE", .help = "the file the reader reads at random (relative: of the sandbox's limit)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct stutter_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the first hog's region before it is checked" },
	OPT_END,
};

/* Each step T gets its own copy of these, named "...-tT". */
enum { SM_P50, SM_P99, SM_MAX, SM_WRITE, SM_READ, SM_CYCLE, SM_HOG, SM_FAULTS, SM_STALLED };
static const struct metric_def stutter_metrics[] = {
	[SM_P50] = { "fault-latency-p50", "ns", BETTER_LOWER, COMBINE_AMEAN, "the probe's median fault", .headline = true },
	[SM_P99] = { "fault-latency-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, "99th percentile of the probe's faults",
		     .headline = true },
	/* one sample: shown and stored, but no verdict is drawn on it */
	[SM_MAX] = { "fault-latency-max", "ns", BETTER_LOWER, COMBINE_AMEAN, "the probe's slowest fault" },
	[SM_WRITE] = { "write-byte-rate", "bytes/s", BETTER_HIGHER, COMBINE_HMEAN,
		       "what the writers wrote per second, all of them", .headline = true },
	[SM_READ] = { "read-byte-rate", "bytes/s", BETTER_HIGHER, COMBINE_HMEAN, "what the reader read per second" },
	[SM_CYCLE] = { "probe-round-p99", "ns", BETTER_LOWER, COMBINE_AMEAN,
		       "99th percentile of a whole map, fault, unmap round (stutterp's figure)" },
	[SM_HOG] = { "hog-page-rate", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, "pages the hogs wrote per second" },
	[SM_FAULTS] = { "probe-faults", "faults", BETTER_NONE, COMBINE_AMEAN, "faults the probe timed" },
	/* Reclaim stalls a charge now and then, not every fault: where about
	 * 1% of the faults stall, p99 jumps between the fast faults and the
	 * stalls from run to run, while this share moves smoothly. */
	[SM_STALLED] = { "stalled-faults", "%", BETTER_LOWER, COMBINE_AMEAN,
			 "the share of the probe's faults that took 1 ms or more" },
	{ .name = NULL },
};

enum stutter_role { ROLE_READER, ROLE_WRITER, ROLE_HOG };

/* What a worker did; in MAP_SHARED memory. */
struct stutter_worker {
	enum stutter_role role;
	long index;              /* among its role */
	uint64_t bytes, pages, ns;
	int64_t bad_page;
	uint64_t found;
	int err;
	const char *what;
};

struct stutter_shared {
	atomic_int stop, go;
	struct stutter_worker w[STUTTER_MAX_WORKERS];
};

struct stutter_state {
	struct stutter_opts o;
	long counts[TASKS_MAX];
	size_t ncounts;
	size_t ps;
	uint64_t size, reader_bytes, salt;
	const char *workdir;
	int reader_fd;
	struct stutter_shared *sh;
};

static const char *stutter_role_name(enum stutter_role r)
{
	return r == ROLE_READER ? "reader" : r == ROLE_WRITER ? "writer" : "hog";
}

static uint64_t stutter_base(const struct wl_env *env)
{
	return env->sandboxed ? env->limit_bytes : (uint64_t)sysconf(_SC_PHYS_PAGES) * env->page_size;
}

static int stutter_validate(const void *opts)
{
	const struct stutter_opts *o = opts;
	long counts[TASKS_MAX];
	size_t n;
	const char *why;
	if (tasks_parse(o->threads, counts, &n, &why) < 0) {
		vmr_err("--threads: '%s' %s", o->threads ? o->threads : "", why);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (counts[i] + (o->writers > counts[i] - 3 ? o->writers - counts[i] + 3 : 0) > STUTTER_MAX_WORKERS) {
			vmr_err("--threads: %ld is more than %d workers", counts[i], STUTTER_MAX_WORKERS);
			return -1;
		}
	return 0;
}

static const char *stutter_supported(const void *opts, const struct wl_env *env)
{
	(void)opts;
	if (!env->sandboxed)
		return "needs a sandbox: the hogs and writers are sized over its limit";
	return NULL;
}

static int stutter_open(struct stutter_state *st, const char *what, long idx, uint64_t size)
{
	char *path = xasprintf("%s/stutter-%s.%ld.%ld", st->workdir, what, (long)getpid(), idx);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0 && ftruncate(fd, (off_t)size)) {
		close(fd);
		fd = -1;
	}
	unlink(path);
	free(path);
	return fd;
}

/* Write the pattern into every page of fd through buf (one block). */
static int stutter_fill(int fd, uint64_t size, size_t ps, uint64_t salt, char *buf)
{
	for (uint64_t off = 0; off < size; off += STUTTER_BLOCK) {
		size_t len = size - off < STUTTER_BLOCK ? (size_t)(size - off) : STUTTER_BLOCK;
		for (size_t i = 0; i < len; i += ps)
			pattern_stamp(buf + i, ps, (off + i) / ps, salt);
		if (pwrite(fd, buf, len, (off_t)off) != (ssize_t)len)
			return -1;
	}
	return 0;
}


static void stutter_bad(struct stutter_worker *w, uint64_t page, uint64_t found)
{
	if (w->bad_page < 0) {
		w->bad_page = (int64_t)page;
		w->found = found;
	}
}

/* 4K pages of the reader's file at random, each checked. */
static void stutter_reader(struct stutter_state *st, struct stutter_worker *w, struct prng *rng)
{
	size_t ps = st->ps;
	uint64_t pages = st->reader_bytes / ps;
	char *buf = xmalloc(ps);
	posix_fadvise(st->reader_fd, 0, 0, POSIX_FADV_RANDOM);
	while (!atomic_load(&st->sh->stop) && w->bad_page < 0) {
		uint64_t i = prng_below(rng, pages), found;
		if (pread(st->reader_fd, buf, ps, (off_t)(i * ps)) != (ssize_t)ps) {
			w->err = errno ? errno : EIO;
			w->what = "pread";
			break;
		}
		if (!pattern_check(buf, ps, i, st->salt, &found))
			stutter_bad(w, i, found);
		w->bytes += ps;
	}
	free(buf);
}

/* A page of a writer's file: its pattern where its block was written,
 * zeroes where it never was. */
static void stutter_writer_check(struct stutter_state *st, struct stutter_worker *w, int fd, const bool *written,
				 uint64_t nblocks, char *buf)
{
	size_t ps = st->ps;
	for (uint64_t b = 0; b < nblocks && w->bad_page < 0; b++) {
		if (pread(fd, buf, STUTTER_BLOCK, (off_t)(b * STUTTER_BLOCK)) != STUTTER_BLOCK) {
			w->err = errno ? errno : EIO;
			w->what = "pread";
			return;
		}
		for (size_t i = 0; i < STUTTER_BLOCK; i += ps) {
			uint64_t page = (b * STUTTER_BLOCK + i) / ps, found = ((uint64_t *)(buf + i))[0];
			bool good = written[b] ? pattern_check(buf + i, ps, page, st->salt ^ (uint64_t)w->index, &found)
					       : !found && !((uint64_t *)(buf + i))[ps / 8 - 1];
			if (!good) {
				stutter_bad(w, page, found);
				break;
			}
		}
	}
}

/* 1M blocks at random offsets, buffered, until told to stop; then every
 * page of the file is read back and checked. */
static void stutter_writer(struct stutter_state *st, struct stutter_worker *w, uint64_t bytes, struct prng *rng)
{
	size_t ps = st->ps;
	uint64_t nblocks = bytes / STUTTER_BLOCK, salt = st->salt ^ (uint64_t)w->index;
	int fd = stutter_open(st, "writer", w->index, nblocks * STUTTER_BLOCK);
	if (fd < 0) {
		w->err = errno;
		w->what = "creating its file";
		return;
	}
	bool *written = xcalloc(nblocks, sizeof(*written));
	char *buf = xmalloc(STUTTER_BLOCK);
	uint64_t t0 = vmr_now_ns();
	while (!atomic_load(&st->sh->stop)) {
		uint64_t b = prng_below(rng, nblocks);
		for (size_t i = 0; i < STUTTER_BLOCK; i += ps)
			pattern_stamp(buf + i, ps, (b * STUTTER_BLOCK + i) / ps, salt);
		if (pwrite(fd, buf, STUTTER_BLOCK, (off_t)(b * STUTTER_BLOCK)) != STUTTER_BLOCK) {
			w->err = errno ? errno : EIO;
			w->what = "pwrite";
			break;
		}
		written[b] = true;
		w->bytes += STUTTER_BLOCK;
	}
	w->ns = vmr_now_ns() - t0;
	if (!w->err)
		stutter_writer_check(st, w, fd, written, nblocks, buf);
	free(buf);
	free(written);
	close(fd);
}

/* A page of a hog's region after it stopped at page `done` of pass `pass`. */
static bool stutter_hog_good(const char *pg, size_t ps, uint64_t i, uint64_t salt, uint64_t pass, size_t done,
			     uint64_t *found)
{
	if (i < done)
		return pattern_check(pg, ps, i, salt + pass, found);
	if (pass)
		return pattern_check(pg, ps, i, salt + pass - 1, found);
	*found = ((const uint64_t *)pg)[0];
	return !*found && !((const uint64_t *)pg)[ps / 8 - 1];
}

/* Write every page of the region, pass after pass, checking what the last
 * pass left in each page first; when told to stop, check the whole region. */
static void stutter_hog(struct stutter_state *st, struct stutter_worker *w, uint64_t bytes)
{
	size_t ps = st->ps, n = bytes / ps, i = 0;
	uint64_t pass = 0, found, t0 = vmr_now_ns();
	char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		w->err = errno;
		w->what = "mmap";
		return;
	}
	bool damage = w->index == 0 && st->o.corrupt_page >= 0 && (size_t)st->o.corrupt_page < n;
	for (; !atomic_load(&st->sh->stop) && w->bad_page < 0; pass++) {
		/* the first hog goes on until the damage --corrupt-page asks
		 * for is done, however early it is told to stop */
		for (i = 0; i < n && (!atomic_load(&st->sh->stop) || (damage && !pass && i <= (size_t)st->o.corrupt_page)); i++) {
			if (pass && !pattern_check(p + i * ps, ps, i, st->salt + pass - 1, &found)) {
				stutter_bad(w, i, found);
				break;
			}
			pattern_stamp(p + i * ps, ps, i, st->salt + pass);
			if (damage && i == (size_t)st->o.corrupt_page && !pass)
				pattern_corrupt(p + i * ps);
			w->pages++;
		}
		if (i < n)
			break;
	}
	w->ns = vmr_now_ns() - t0;
	if (i == n)   /* stopped between passes: the last one is complete */
		pass--;
	for (size_t k = 0; k < n && w->bad_page < 0; k++)
		if (!stutter_hog_good(p + k * ps, ps, k, st->salt, pass, i, &found))
			stutter_bad(w, k, found);
	munmap(p, n * ps);
}

static pid_t stutter_start(struct stutter_state *st, struct stutter_worker *w, uint64_t bytes)
{
	pid_t pid = fork();
	if (pid)
		return pid;
	struct prng rng;
	prng_seed(&rng, st->salt ^ ((uint64_t)w->role << 32 | (uint64_t)w->index));
	while (!atomic_load(&st->sh->go))
		usleep(1000);
	uint64_t t0 = vmr_now_ns();
	if (w->role == ROLE_READER)
		stutter_reader(st, w, &rng);
	else if (w->role == ROLE_WRITER)
		stutter_writer(st, w, bytes, &rng);
	else
		stutter_hog(st, w, bytes);
	if (!w->ns)
		w->ns = vmr_now_ns() - t0;
	_exit(0);
}

struct stutter_probe {
	struct hist *fault, *round;
	int64_t bad_page;
	uint64_t found;
	int err;
};

/* The probe, in this process: map, fault every page timing each, check,
 * unmap, sleep; for the step's duration. */
static void stutter_probe_run(struct stutter_state *st, struct stutter_probe *pr)
{
	size_t ps = st->ps, n = st->o.probe_size / ps;
	struct timespec pause = { .tv_sec = (time_t)(st->o.interval_ns / 1000000000ull),
				  .tv_nsec = (long)(st->o.interval_ns % 1000000000ull) };
	uint64_t start = vmr_now_ns();
	for (uint64_t round = 0; vmr_now_ns() - start < st->o.duration_ns && pr->bad_page < 0; round++) {
		nanosleep(&pause, NULL);
		uint64_t t0 = vmr_now_ns(), salt = st->salt + round;
		char *p = mmap(NULL, n * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			pr->err = errno;
			return;
		}
		for (size_t i = 0; i < n; i++) {
			uint64_t t = vmr_now_ns();
			pattern_stamp(p + i * ps, ps, i, salt);
			hist_add(pr->fault, vmr_now_ns() - t);
		}
		uint64_t faulted = vmr_now_ns();
		for (size_t i = 0; i < n && pr->bad_page < 0; i++)
			if (!pattern_check(p + i * ps, ps, i, salt, &pr->found))
				pr->bad_page = (int64_t)i;
		uint64_t checked = vmr_now_ns();
		munmap(p, n * ps);
		hist_add(pr->round, vmr_now_ns() - checked + faulted - t0);
	}
}

/* What went wrong in a step: 0, or -1 after setting the outcome. */
static int stutter_step_outcome(struct stutter_state *st, long nw, const struct stutter_probe *pr,
				const int *status, struct result *r)
{
	if (pr->err) {
		result_set_outcome(r, OUTCOME_ERROR, "the probe cannot map its region: %s", strerror(pr->err));
		return -1;
	}
	if (pr->bad_page >= 0) {
		result_set_outcome(r, OUTCOME_FAIL, "page %" PRId64 " of the probe read back wrong data (first word %#" PRIx64 ")",
				   pr->bad_page, pr->found);
		return -1;
	}
	for (long k = 0; k < nw; k++) {
		const struct stutter_worker *w = &st->sh->w[k];
		const char *role = stutter_role_name(w->role);
		if (w->bad_page >= 0) {
			result_set_outcome(r, OUTCOME_FAIL, "page %" PRId64 " of %s %ld read back wrong data (first word %#" PRIx64 ")",
					   w->bad_page, role, w->index, w->found);
			return -1;
		}
		if (WIFSIGNALED(status[k])) {
			result_set_outcome(r, WTERMSIG(status[k]) == SIGKILL ? OUTCOME_OOM : OUTCOME_ERROR,
					   "%s %ld was killed by signal %d", role, w->index, WTERMSIG(status[k]));
			return -1;
		}
		if (w->err) {
			result_set_outcome(r, OUTCOME_ERROR, "%s %ld: %s failed: %s", role, w->index,
					   w->what ? w->what : "a call", strerror(w->err));
			return -1;
		}
	}
	return 0;
}

static void stutter_step_metrics(struct stutter_state *st, long T, long nw, struct stutter_probe *pr,
				 struct table *tab, struct result *r)
{
	double wrate = 0, rrate = 0, hrate = 0;
	long writers = 0;
	for (long k = 0; k < nw; k++) {
		const struct stutter_worker *w = &st->sh->w[k];
		double s = w->ns ? (double)w->ns / 1e9 : 0;
		if (s <= 0)
			continue;
		if (w->role == ROLE_WRITER) {
			wrate += (double)w->bytes / s;
			writers++;
		} else if (w->role == ROLE_READER) {
			rrate += (double)w->bytes / s;
		} else {
			hrate += (double)w->pages / s;
		}
	}
	const double v[] = {
		[SM_P50] = hist_percentile(pr->fault, 50), [SM_P99] = hist_percentile(pr->fault, 99),
		[SM_MAX] = (double)pr->fault->max, [SM_WRITE] = wrate, [SM_READ] = rrate,
		[SM_CYCLE] = hist_percentile(pr->round, 99), [SM_HOG] = hrate, [SM_FAULTS] = (double)pr->fault->count,
		[SM_STALLED] = hist_share_from(pr->fault, STUTTER_STALL_NS),
	};
	for (size_t m = 0; m < ARRAY_SIZE(v); m++) {
		char name[64];
		snprintf(name, sizeof(name), "%s-t%ld", stutter_metrics[m].name, T);
		result_metric(r, name, stutter_metrics[m].unit, stutter_metrics[m].better, stutter_metrics[m].combine, v[m]);
	}
	double row[] = { (double)T, (double)writers, (double)(nw - 1 - writers), v[SM_P50], v[SM_P99], v[SM_MAX], wrate,
			 v[SM_STALLED] };
	table_add_row(tab, row);
	char name[64];
	snprintf(name, sizeof(name), "fault-latency-t%ld", T);
	result_hist(r, name, "ns", pr->fault);
	pr->fault = NULL;
}

/* One step: T workers as stutterp splits them. */
static int stutter_step(struct stutter_state *st, long T, struct table *tab, struct result *r)
{
	long writers = st->o.writers ? st->o.writers : (T - 2) / 2 > 1 ? (T - 2) / 2 : 1;
	long hogs = T - writers - 2 > 1 ? T - writers - 2 : 1;
	uint64_t file = st->size / 100 * (uint64_t)st->o.file_percent, anon = st->size - file;
	writers = file >= STUTTER_BLOCK ? writers : 0;
	hogs = anon >= st->ps ? hogs : 0;
	long nw = 1 + writers + hogs;
	pid_t pids[STUTTER_MAX_WORKERS] = { 0 };
	int status[STUTTER_MAX_WORKERS] = { 0 };
	struct stutter_probe pr = { .fault = hist_new(), .round = hist_new(), .bad_page = -1 };
	memset(st->sh, 0, sizeof(*st->sh));
	for (long k = 0; k < nw; k++) {
		struct stutter_worker *w = &st->sh->w[k];
		w->role = k == 0 ? ROLE_READER : k <= writers ? ROLE_WRITER : ROLE_HOG;
		w->index = k == 0 ? 0 : k <= writers ? k - 1 : k - 1 - writers;
		w->bad_page = -1;
	}
	long started = 0;
	int ret = 0;
	/* the reader and writers first: writeback has begun when the hogs come */
	for (; started < 1 + writers; started++)
		if ((pids[started] = stutter_start(st, &st->sh->w[started], writers ? file / (uint64_t)writers : 0)) < 0)
			goto stop;
	atomic_store(&st->sh->go, 1);
	usleep((useconds_t)(st->o.warmup_ns / 1000));
	for (; started < nw; started++)
		if ((pids[started] = stutter_start(st, &st->sh->w[started], anon / (uint64_t)hogs)) < 0)
			goto stop;
	stutter_probe_run(st, &pr);
stop:
	atomic_store(&st->sh->stop, 1);
	for (long k = 0; k < started; k++)
		waitpid(pids[k], &status[k], 0);
	if (started < nw) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot start %ld workers: %s", nw, strerror(errno));
		ret = -1;
	} else if ((ret = stutter_step_outcome(st, nw, &pr, status, r)) == 0) {
		stutter_step_metrics(st, T, nw, &pr, tab, r);
	}
	free(pr.fault);
	free(pr.round);
	return ret;
}

static const char *const stutter_cols[] = { "threads", "writers", "hogs", "fault_p50_ns", "fault_p99_ns",
					     "fault_max_ns", "write_bytes_per_sec", "stalled_faults_pct" };

static int stutter_run(void *state, struct result *r)
{
	struct stutter_state *st = state;
	if (r->outcome != OUTCOME_PASS)
		return 0;
	struct table *tab = result_table(r, "steps", ARRAY_SIZE(stutter_cols), stutter_cols);
	for (size_t c = 0; c < st->ncounts; c++)
		if (stutter_step(st, st->counts[c], tab, r) < 0)
			break;
	return 0;
}

static void *stutter_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct stutter_state *st = xcalloc(1, sizeof(*st));
	const char *why;
	st->o = *(const struct stutter_opts *)opts;
	st->o.threads = NULL;   /* the caller's string; parsed now */
	tasks_parse(((const struct stutter_opts *)opts)->threads, st->counts, &st->ncounts, &why);
	st->ps = env->page_size;
	st->workdir = env->workdir;
	st->size = units_rsize_bytes(&st->o.size, stutter_base(env));
	st->reader_bytes = units_rsize_bytes(&st->o.reader_size, stutter_base(env)) / STUTTER_BLOCK * STUTTER_BLOCK;
	if (st->reader_bytes < STUTTER_BLOCK)
		st->reader_bytes = STUTTER_BLOCK;
	st->salt = pattern_salt();
	st->reader_fd = -1;
	st->sh = mmap(NULL, sizeof(*st->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st->sh == MAP_FAILED) {
		st->sh = NULL;
		result_set_outcome(r, OUTCOME_ERROR, "cannot map shared memory: %s", strerror(errno));
		return st;
	}
	char *buf = xmalloc(STUTTER_BLOCK);
	st->reader_fd = stutter_open(st, "reader", 0, st->reader_bytes);
	if (st->reader_fd < 0 || stutter_fill(st->reader_fd, st->reader_bytes, st->ps, st->salt, buf) < 0 ||
	    fdatasync(st->reader_fd) < 0)
		result_set_outcome(r, OUTCOME_ERROR, "cannot write the reader's %s file in %s: %s",
				   units_format_size((char[32]){ 0 }, 32, st->reader_bytes), st->workdir, strerror(errno));
	else   /* so that its reads come from the disk, not the cache it was written through */
		posix_fadvise(st->reader_fd, 0, 0, POSIX_FADV_DONTNEED);
	free(buf);
	char sz[32];
	result_info_set(r, "size", json_string(units_format_size(sz, sizeof(sz), st->size)));
	result_info_set(r, "reader_size", json_string(units_format_size(sz, sizeof(sz), st->reader_bytes)));
	return st;
}

static void stutter_teardown(void *state, struct result *r)
{
	struct stutter_state *st = state;
	(void)r;
	if (st->reader_fd >= 0)
		close(st->reader_fd);
	if (st->sh)
		munmap(st->sh, sizeof(*st->sh));
	free(st);
}

const struct workload wl_stutter = {
	.name = "stutter",
	.summary = "mmtests' stutterp: a fault-latency probe beside hogs, writers and a reader over the limit",
	.opts = stutter_opts,
	.opts_size = sizeof(struct stutter_opts),
	.metrics = stutter_metrics,
	.needs_root = true,
	.validate = stutter_validate,
	.supported = stutter_supported,
	.setup = stutter_setup,
	.run = stutter_run,
	.teardown = stutter_teardown,
};
