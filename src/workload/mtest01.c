/* mtest01: LTP's mtest01, as run in the seed's kernel comparisons.  N
 * children each allocate their share in chunks until together they hold a
 * percentage of the sandbox's memory plus swap (or --bytes); with --write
 * they write every page and check it all once allocated.  Reports bytes
 * allocated, the time it took and the faults. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/rusage.h"
#include "core/timer.h"
#include "core/util.h"
#include "workload/pattern.h"
#include "workload/workload.h"

struct mtest01_opts {
	long children;
	uint64_t chunk;
	long percent;
	uint64_t bytes;
	bool write;
	long corrupt_page;
};

static const struct opt mtest01_opts[] = {
	{ .name = "children", .type = OPT_INT, .off = offsetof(struct mtest01_opts, children), .def = "2",
	  .min = 1, .max = 1024, .metavar = "N", .help = "processes that allocate" },
	{ .name = "chunk", .type = OPT_SIZE, .off = offsetof(struct mtest01_opts, chunk), .def = "1M",
	  .min = 4096, .max = 1e12, .metavar = "SIZE", .help = "allocation size" },
	{ .name = "percent", .type = OPT_INT, .off = offsetof(struct mtest01_opts, percent), .def = "80",
	  .min = 1, .max = 1000, .metavar = "P", .help = "allocate P% of the sandbox's memory plus swap "
	  "(without a sandbox: of available memory plus free swap)" },
	{ .name = "bytes", .type = OPT_SIZE, .off = offsetof(struct mtest01_opts, bytes), .def = "0",
	  .metavar = "SIZE", .help = "allocate this much in all instead of a percentage" },
	{ .name = "write", .type = OPT_FLAG, .off = offsetof(struct mtest01_opts, write),
	  .help = "write every page (and check it all once allocated)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct mtest01_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the first child before its check" },
	OPT_END,
};

enum { MT_BYTES, MT_TIME, MT_RATE, MT_MAJ, MT_MIN };
static const struct metric_def mtest01_metrics[] = {
	[MT_BYTES] = { "bytes-allocated", "bytes", BETTER_NONE, COMBINE_AMEAN, "what the children held together" },
	[MT_TIME] = { "time", "ns", BETTER_LOWER, COMBINE_AMEAN, "from the first fork to the last child's exit", .headline = true },
	[MT_RATE] = { "alloc-rate", "bytes/s", BETTER_HIGHER, COMBINE_HMEAN, "bytes allocated per second" },
	[MT_MAJ] = { "children-major-faults", "faults", BETTER_LOWER, COMBINE_AMEAN, "major faults of the children" },
	[MT_MIN] = { "children-minor-faults", "faults", BETTER_NONE, COMBINE_AMEAN, "minor faults of the children" },
	{ .name = NULL },
};

/* What a child sends home; smaller than PIPE_BUF, so written at once. */
struct mtest01_report {
	uint64_t bytes, ns;
	int64_t bad_page;
	uint64_t found, expected;
};

struct mtest01_state {
	struct mtest01_opts o;
	uint64_t total;
	size_t ps;
	const char *cgroup;
};

/* OOM kills so far: the sandbox's (memory.events or v1 memory.oom_control),
 * else the host's (/proc/vmstat). */
static uint64_t mtest01_oom_kills(const char *cgroup)
{
	static const struct { const char *file, *key; } src[] = {
		{ "memory.events", "\noom_kill " }, { "memory.oom_control", "\noom_kill " },
	};
	for (size_t i = 0; cgroup && i < ARRAY_SIZE(src); i++) {
		char *buf, *p, *path = xasprintf("%s/%s", cgroup, src[i].file);
		int rc = vmr_read_file(path, &buf, NULL);
		free(path);
		if (rc < 0)
			continue;
		uint64_t v = (p = strstr(buf, src[i].key)) ? strtoull(p + strlen(src[i].key), NULL, 10) : 0;
		free(buf);
		return v;
	}
	char *buf, *p;
	uint64_t v = 0;
	if (vmr_read_file("/proc/vmstat", &buf, NULL) == 0) {
		if ((p = strstr(buf, "\noom_kill ")))
			v = strtoull(p + 10, NULL, 10);
		free(buf);
	}
	return v;
}

static uint64_t mtest01_meminfo(const char *key)
{
	char *buf, *p;
	uint64_t kb = 0;
	if (vmr_read_file("/proc/meminfo", &buf, NULL) < 0)
		return 0;
	if ((p = strstr(buf, key)))
		kb = strtoull(p + strlen(key), NULL, 10);
	free(buf);
	return kb * 1024;
}

static uint64_t mtest01_total(const struct mtest01_opts *o, const struct wl_env *env)
{
	if (o->bytes)
		return o->bytes;
	uint64_t base = env->sandboxed ? env->limit_bytes + env->swap_bytes
				       : mtest01_meminfo("MemAvailable:") + mtest01_meminfo("SwapFree:");
	return base / 100 * (uint64_t)o->percent;
}

static const char *mtest01_supported(const void *opts, const struct wl_env *env)
{
	const struct mtest01_opts *o = opts;
	if (!env->sandboxed && o->write && !env->force && o->percent > 90 && !o->bytes)
		return "writing more than 90% of the host's free memory needs a sandbox (--force to run anyway)";
	return NULL;
}

static void *mtest01_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct mtest01_state *st = xcalloc(1, sizeof(*st));
	st->o = *(const struct mtest01_opts *)opts;
	st->ps = env->page_size;
	st->total = mtest01_total(&st->o, env);
	st->cgroup = env->cgroup;
	result_info_set(r, "target_bytes", json_integer((json_int_t)st->total));
	return st;
}

static void mtest01_check(struct mtest01_state *st, char **chunks, size_t nchunks, long child,
			  struct mtest01_report *rep)
{
	size_t per = st->o.chunk / st->ps;
	uint64_t found;
	if (child == 0 && st->o.corrupt_page >= 0 && (size_t)st->o.corrupt_page < nchunks * per)
		pattern_corrupt(chunks[st->o.corrupt_page / (long)per] + (st->o.corrupt_page % (long)per) * st->ps);
	for (size_t c = 0; c < nchunks; c++) {
		for (size_t i = 0; i < per; i++) {
			uint64_t idx = c * per + i;
			if (!pattern_check(chunks[c] + i * st->ps, st->ps, idx, (uint64_t)child, &found)) {
				rep->bad_page = (int64_t)idx;
				rep->found = found;
				rep->expected = pattern_word(idx, (uint64_t)child);
				return;
			}
		}
	}
}

/* One child: allocate the share chunk by chunk, write it, check it, report,
 * then hold it all until the parent has every report (EOF on hold), as
 * LTP's children do: the children's memory is held at the same time. */
static __attribute__((noreturn)) void mtest01_child(struct mtest01_state *st, long child, uint64_t share,
						    int fd, int hold)
{
	struct mtest01_report rep = { .bad_page = -1 };
	size_t per = st->o.chunk / st->ps, max = (size_t)(share / st->o.chunk) + 1, n = 0;
	char **chunks = xcalloc(max, sizeof(*chunks));
	uint64_t t0 = timer_now_ns();
	while (rep.bytes + st->o.chunk <= share && n < max) {
		char *p = mmap(NULL, st->o.chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		if (st->o.write)
			for (size_t i = 0; i < per; i++)
				pattern_stamp(p + i * st->ps, st->ps, n * per + i, (uint64_t)child);
		chunks[n++] = p;
		rep.bytes += st->o.chunk;
	}
	rep.ns = timer_now_ns() - t0;
	if (st->o.write)
		mtest01_check(st, chunks, n, child, &rep);
	int rc = write(fd, &rep, sizeof(rep)) == sizeof(rep) ? 0 : 1;
	close(fd);
	char c;
	while (read(hold, &c, 1) < 0 && errno == EINTR)
		;
	_exit(rc);
}

/* Reap every child; the first one that died of a signal decides.  A
 * SIGKILL is the OOM killer's when the OOM-kill count rose meanwhile. */
static void mtest01_reap(pid_t *pids, long n, bool oom_rose_fn(void *), void *ctx, struct result *r)
{
	for (long i = 0; i < n; i++) {
		int status;
		if (pids[i] <= 0 || waitpid(pids[i], &status, 0) < 0)
			continue;
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && oom_rose_fn(ctx))
			result_set_outcome(r, OUTCOME_OOM, "child %ld was killed by the OOM killer", i);
		else if (WIFSIGNALED(status))
			result_set_outcome(r, OUTCOME_ERROR, "child %ld was killed by signal SIG%s", i,
					   sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
		else if (WEXITSTATUS(status))
			result_set_outcome(r, OUTCOME_ERROR, "child %ld exited with status %d", i, WEXITSTATUS(status));
	}
}

static void mtest01_collect(int fd, long n, struct result *r, uint64_t *bytes)
{
	struct mtest01_report rep;
	for (long got = 0; got < n && read(fd, &rep, sizeof(rep)) == sizeof(rep); got++) {
		*bytes += rep.bytes;
		if (rep.bad_page >= 0)
			result_set_outcome(r, OUTCOME_FAIL, "page %" PRId64 " of a child read back wrong data "
					   "(first word %#" PRIx64 ", expected %#" PRIx64 ")", rep.bad_page,
					   rep.found, rep.expected);
	}
}

struct mtest01_oom {
	const char *cgroup;
	uint64_t before;
};

static bool mtest01_oom_rose(void *ctx)
{
	struct mtest01_oom *o = ctx;
	return mtest01_oom_kills(o->cgroup) > o->before;
}

static int mtest01_run(void *state, struct result *r)
{
	struct mtest01_state *st = state;
	long n = st->o.children;
	pid_t *pids = xcalloc((size_t)n, sizeof(*pids));
	int fds[2], hold[2];
	uint64_t bytes = 0;
	struct rusage_counts a, b, d;
	if (pipe(fds) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot make a pipe: %s", strerror(errno));
		free(pids);
		return 0;
	}
	if (pipe(hold) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot make a pipe: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(pids);
		return 0;
	}
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	rusage_from_sys(&ru, &a);
	struct mtest01_oom oom = { st->cgroup, mtest01_oom_kills(st->cgroup) };
	uint64_t t0 = timer_now_ns();
	for (long i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			close(fds[0]);
			close(hold[1]);
			mtest01_child(st, i, st->total / (uint64_t)n, fds[1], hold[0]);
		}
		if (pids[i] < 0)
			result_set_outcome(r, OUTCOME_ERROR, "cannot fork child %ld: %s", i, strerror(errno));
	}
	close(fds[1]);
	close(hold[0]);
	/* every child has reported or died (EOF): let them go */
	mtest01_collect(fds[0], n, r, &bytes);
	close(fds[0]);
	close(hold[1]);
	mtest01_reap(pids, n, mtest01_oom_rose, &oom, r);
	uint64_t ns = timer_now_ns() - t0;
	getrusage(RUSAGE_CHILDREN, &ru);
	rusage_from_sys(&ru, &b);
	rusage_delta(&a, &b, &d);
	result_metric_def(r, &mtest01_metrics[MT_BYTES], (double)bytes);
	result_metric_def(r, &mtest01_metrics[MT_TIME], (double)ns);
	if (ns)
		result_metric_def(r, &mtest01_metrics[MT_RATE], (double)bytes / ((double)ns / 1e9));
	result_metric_def(r, &mtest01_metrics[MT_MAJ], (double)d.majflt);
	result_metric_def(r, &mtest01_metrics[MT_MIN], (double)d.minflt);
	free(pids);
	return 0;
}

static void mtest01_teardown(void *state, struct result *r) { free(state); }

const struct workload wl_mtest01 = {
	.name = "mtest01",
	.summary = "LTP's mtest01: children allocate (and write) a share of memory plus swap",
	.opts = mtest01_opts,
	.opts_size = sizeof(struct mtest01_opts),
	.metrics = mtest01_metrics,
	.needs_root = true,
	.supported = mtest01_supported,
	.setup = mtest01_setup,
	.run = mtest01_run,
	.teardown = mtest01_teardown,
};
