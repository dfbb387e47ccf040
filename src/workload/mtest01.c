/* mtest01: LTP's mtest01, as run in the seed's kernel comparisons.
 * Children (LTP's rule: one per 3000 MiB; or --children) each allocate
 * their share in chunks until together they hold a percentage of the
 * sandbox's memory plus swap (or --bytes); with --write they write every
 * page as they go (LTP's -w).  That is LTP's work and what "time" times.
 * LTP never reads anything back; here, once every child holds its share,
 * a separate check phase (on by default, --check=no leaves it out) reads
 * it all back, timed and counted on its own, so that LTP's numbers stay
 * comparable.  Reports bytes allocated, the time, faults per phase. */
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
#include "probe/meminfo.h"
#include "workload/pattern.h"
#include "workload/workload.h"

struct mtest01_opts {
	long children;
	uint64_t chunk;
	long percent;
	uint64_t bytes;
	bool write;
	bool check;
	long corrupt_page;
};

static const struct opt mtest01_opts[] = {
	{ .name = "children", .type = OPT_INT, .off = offsetof(struct mtest01_opts, children), .def = "0",
	  .min = 0, .max = 1024, .metavar = "N", .help = "processes that allocate, sharing the total equally "
	  "(0: LTP's rule, one child per 3000 MiB, the last taking the rest)" },
	{ .name = "chunk", .type = OPT_SIZE, .off = offsetof(struct mtest01_opts, chunk), .def = "1M",
	  .min = 4096, .max = 1e12, .metavar = "SIZE", .help = "allocation size (LTP's -c)" },
	{ .name = "percent", .type = OPT_INT, .off = offsetof(struct mtest01_opts, percent), .def = "80",
	  .min = 1, .max = 1000, .metavar = "P", .help = "allocate P% of the sandbox's memory plus swap, LTP's -p "
	  "(without a sandbox: of available memory plus free swap)" },
	{ .name = "bytes", .type = OPT_SIZE, .off = offsetof(struct mtest01_opts, bytes), .def = "0",
	  .metavar = "SIZE", .help = "allocate this much in all instead of a percentage (what LTP's -b means)" },
	{ .name = "write", .type = OPT_FLAG, .off = offsetof(struct mtest01_opts, write),
	  .help = "write every page as it is allocated (LTP's -w)" },
	{ .name = "check", .type = OPT_FLAG, .off = offsetof(struct mtest01_opts, check), .def = "yes",
	  .help = "once every child holds its share, read it all back and check it (written pages their "
	  "pattern, unwritten ones zero), timed as its own phase; --check=no is LTP's mtest01 exactly" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct mtest01_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the first child before its check" },
	OPT_END,
};

enum { MT_BYTES, MT_TIME, MT_RATE, MT_MAJ, MT_MIN, MT_CHECK, MT_AMAJ, MT_CMAJ, MT_APSWPIN, MT_CPSWPIN, MT_NCHILD };
static const struct metric_def mtest01_metrics[] = {
	[MT_BYTES] = { "bytes-allocated", "bytes", BETTER_NONE, COMBINE_AMEAN, "what the children held together" },
	[MT_TIME] = { "time", "ns", BETTER_LOWER, COMBINE_AMEAN,
		      "from the first fork until every child held (and had written) its share: LTP's work", .headline = true },
	[MT_RATE] = { "alloc-byte-rate", "bytes/s", BETTER_HIGHER, COMBINE_HMEAN, "bytes allocated per second" },
	[MT_MAJ] = { "children-major-faults", "faults", BETTER_LOWER, COMBINE_AMEAN, "major faults of the children" },
	[MT_MIN] = { "children-minor-faults", "faults", BETTER_NONE, COMBINE_AMEAN, "minor faults of the children" },
	[MT_CHECK] = { "check-time", "ns", BETTER_NONE, COMBINE_AMEAN,
		       "the check phase: from the children's release until every child had checked its share" },
	[MT_AMAJ] = { "alloc-major-faults", "faults", BETTER_LOWER, COMBINE_AMEAN,
		      "major faults of the children while allocating (and writing)" },
	[MT_CMAJ] = { "check-major-faults", "faults", BETTER_NONE, COMBINE_AMEAN,
		      "major faults of the children's checks" },
	[MT_APSWPIN] = { "alloc-pswpin", "pages", BETTER_LOWER, COMBINE_AMEAN,
			 "pages swapped in while the children allocated (/proc/vmstat)" },
	[MT_CPSWPIN] = { "check-pswpin", "pages", BETTER_NONE, COMBINE_AMEAN,
			 "pages swapped in during the check phase (/proc/vmstat)" },
	[MT_NCHILD] = { "children", "processes", BETTER_NONE, COMBINE_AMEAN, "children that allocated" },
	{ .name = NULL },
};

/* LTP's per-child ceiling on 64-bit (ALLOC_THRESHOLD, 6 x 500 MiB; 2 x on
 * 32-bit): it forks one child per this much, the last taking the rest. */
#define MTEST01_LTP_CHILD_BYTES ((sizeof(void *) == 8 ? 6ull : 2ull) * 500 * 1024 * 1024)

/* What a child sends home, once after allocating and once after its
 * check; smaller than PIPE_BUF, so written at once. */
struct mtest01_report {
	uint64_t bytes, ns, majflt;
	int64_t bad_page;
	uint64_t found, expected;
};

struct mtest01_state {
	struct mtest01_opts o;
	uint64_t total, salt;
	long nchildren;
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

static uint64_t mtest01_pswpin(void)
{
	char *buf, *p;
	uint64_t v = 0;
	if (vmr_read_file("/proc/vmstat", &buf, NULL) < 0)
		return 0;
	if ((p = strstr(buf, "\npswpin ")))
		v = strtoull(p + 8, NULL, 10);
	free(buf);
	return v;
}

static uint64_t mtest01_total(const struct mtest01_opts *o, const struct wl_env *env)
{
	if (o->bytes)
		return o->bytes;
	uint64_t base = env->sandboxed ? env->limit_bytes + env->swap_bytes
				       : meminfo_now("MemAvailable") + meminfo_now("SwapFree");
	return base / 100 * (uint64_t)o->percent;
}

/* Child i's share: equal shares of --children, or LTP's rule. */
static uint64_t mtest01_share(const struct mtest01_state *st, long i)
{
	if (st->o.children)
		return st->total / (uint64_t)st->nchildren;
	uint64_t done = (uint64_t)i * MTEST01_LTP_CHILD_BYTES;
	return st->total - done < MTEST01_LTP_CHILD_BYTES ? st->total - done : MTEST01_LTP_CHILD_BYTES;
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
	st->salt = pattern_salt();
	st->nchildren = st->o.children ? st->o.children
				       : (long)((st->total + MTEST01_LTP_CHILD_BYTES - 1) / MTEST01_LTP_CHILD_BYTES);
	if (st->nchildren < 1)
		st->nchildren = 1;
	st->cgroup = env->cgroup;
	result_info_set(r, "target_bytes", json_integer((json_int_t)st->total));
	result_info_set(r, "children", json_integer(st->nchildren));
	result_info_set(r, "children_rule", json_string(st->o.children ? "--children" : "LTP's: one per 3000 MiB"));
	result_info_set(r, "mode", json_string(st->o.write ? (st->o.check ? "write, then check" : "write (LTP's -w)")
						       : (st->o.check ? "allocate, then check" : "allocate (LTP's default)")));
	return st;
}

/* The check phase of one child: written pages hold their pattern,
 * unwritten ones read zero in both words. */
static void mtest01_check(struct mtest01_state *st, char **chunks, size_t nchunks, long child,
			  struct mtest01_report *rep)
{
	size_t per = st->o.chunk / st->ps;
	uint64_t found, salt = st->salt + (uint64_t)child;
	if (child == 0 && st->o.corrupt_page >= 0 && (size_t)st->o.corrupt_page < nchunks * per)
		pattern_corrupt(chunks[st->o.corrupt_page / (long)per] + (st->o.corrupt_page % (long)per) * st->ps);
	for (size_t c = 0; c < nchunks; c++) {
		for (size_t i = 0; i < per; i++) {
			uint64_t idx = c * per + i;
			const char *p = chunks[c] + i * st->ps;
			bool ok;
			if (st->o.write) {
				ok = pattern_check(p, st->ps, idx, salt, &found);
			} else {
				found = ((const volatile uint64_t *)p)[0];
				ok = !found && !((const volatile uint64_t *)p)[st->ps / 8 - 1];
			}
			if (!ok) {
				rep->bad_page = (int64_t)idx;
				rep->found = found;
				rep->expected = st->o.write ? pattern_word(idx, salt) : 0;
				return;
			}
		}
	}
}

static void mtest01_send(int fd, const struct mtest01_report *rep, int *rc)
{
	if (write(fd, rep, sizeof(*rep)) != sizeof(*rep))
		*rc = 1;
	close(fd);
}

static void mtest01_wait_eof(int fd)
{
	char c;
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
	close(fd);
}

static uint64_t mtest01_majflt(void)
{
	struct rusage_counts c = { 0 };
	rusage_self(&c);
	return c.majflt;
}

/* One child: allocate the share chunk by chunk (writing it with --write),
 * report, wait until every child has done the same (EOF on go: the
 * children's memory is held at the same time, as LTP's are), check it all
 * with --check and report again, then hold it until the parent lets go
 * (EOF on hold). */
static __attribute__((noreturn)) void mtest01_child(struct mtest01_state *st, long child, uint64_t share,
						    const int fd[2], int go, int hold)
{
	struct mtest01_report rep = { .bad_page = -1 }, chk = { .bad_page = -1 };
	size_t per = st->o.chunk / st->ps, max = (size_t)(share / st->o.chunk) + 1, n = 0;
	char **chunks = xcalloc(max, sizeof(*chunks));
	uint64_t salt = st->salt + (uint64_t)child, maj0 = mtest01_majflt(), t0 = vmr_now_ns();
	int rc = 0;
	while (rep.bytes + st->o.chunk <= share && n < max) {
		char *p = mmap(NULL, st->o.chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		if (st->o.write)
			for (size_t i = 0; i < per; i++)
				pattern_stamp(p + i * st->ps, st->ps, n * per + i, salt);
		chunks[n++] = p;
		rep.bytes += st->o.chunk;
	}
	rep.ns = vmr_now_ns() - t0;
	rep.majflt = mtest01_majflt() - maj0;
	mtest01_send(fd[0], &rep, &rc);
	mtest01_wait_eof(go);
	if (st->o.check) {
		maj0 = mtest01_majflt();
		t0 = vmr_now_ns();
		mtest01_check(st, chunks, n, child, &chk);
		chk.ns = vmr_now_ns() - t0;
		chk.majflt = mtest01_majflt() - maj0;
		chk.bytes = rep.bytes;
	}
	mtest01_send(fd[1], &chk, &rc);
	mtest01_wait_eof(hold);
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

/* Read the children's reports of one phase until all n are in or every
 * child has closed its end. */
static void mtest01_collect(int fd, long n, struct result *r, uint64_t *bytes, uint64_t *majflt)
{
	struct mtest01_report rep = { 0 };
	for (long got = 0; got < n && read(fd, &rep, sizeof(rep)) == sizeof(rep); got++) {
		*bytes += rep.bytes;
		*majflt += rep.majflt;
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

/* The pipes between parent and children: reports of the two phases
 * (children to parent), go and hold (the parent's EOF releases them). */
enum { MP_ALLOC, MP_CHECK, MP_GO, MP_HOLD, MP_N };

static int mtest01_pipes(int p[MP_N][2], struct result *r)
{
	for (int i = 0; i < MP_N; i++) {
		if (pipe(p[i]) == 0)
			continue;
		result_set_outcome(r, OUTCOME_ERROR, "cannot make a pipe: %s", strerror(errno));
		while (i-- > 0) {
			close(p[i][0]);
			close(p[i][1]);
		}
		return -1;
	}
	return 0;
}

/* In a child: keep the write ends of the reports and the read ends of go
 * and hold. */
static void mtest01_child_fds(int p[MP_N][2], int fd[2])
{
	close(p[MP_ALLOC][0]);
	close(p[MP_CHECK][0]);
	close(p[MP_GO][1]);
	close(p[MP_HOLD][1]);
	fd[0] = p[MP_ALLOC][1];
	fd[1] = p[MP_CHECK][1];
}

static void mtest01_metrics_add(struct mtest01_state *st, struct result *r, const double *v)
{
	for (int i = 0; i < MT_NCHILD + 1; i++) {
		if ((i == MT_CHECK || i == MT_CMAJ || i == MT_CPSWPIN) && !st->o.check)
			continue;
		if (i == MT_RATE && !v[MT_TIME])
			continue;
		result_metric_def(r, &mtest01_metrics[i], v[i]);
	}
}

static int mtest01_run(void *state, struct result *r)
{
	struct mtest01_state *st = state;
	long n = st->nchildren;
	pid_t *pids = xcalloc((size_t)n, sizeof(*pids));
	int p[MP_N][2];
	uint64_t bytes = 0, checked = 0, amaj = 0, cmaj = 0;
	struct rusage_counts a, b, d;
	double v[MT_NCHILD + 1] = { 0 };
	if (mtest01_pipes(p, r) < 0) {
		free(pids);
		return 0;
	}
	struct rusage ru = { 0 };
	getrusage(RUSAGE_CHILDREN, &ru);
	rusage_from_sys(&ru, &a);
	struct mtest01_oom oom = { st->cgroup, mtest01_oom_kills(st->cgroup) };
	uint64_t in0 = mtest01_pswpin(), t0 = vmr_now_ns();
	for (long i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			int fd[2];
			mtest01_child_fds(p, fd);
			mtest01_child(st, i, mtest01_share(st, i), fd, p[MP_GO][0], p[MP_HOLD][0]);
		}
		if (pids[i] < 0)
			result_set_outcome(r, OUTCOME_ERROR, "cannot fork child %ld: %s", i, strerror(errno));
	}
	close(p[MP_ALLOC][1]);
	close(p[MP_CHECK][1]);
	close(p[MP_GO][0]);
	close(p[MP_HOLD][0]);
	/* every child has allocated or died (EOF): that is LTP's work */
	mtest01_collect(p[MP_ALLOC][0], n, r, &bytes, &amaj);
	uint64_t t1 = vmr_now_ns(), in1 = mtest01_pswpin();
	close(p[MP_GO][1]);
	mtest01_collect(p[MP_CHECK][0], n, r, &checked, &cmaj);
	uint64_t t2 = vmr_now_ns(), in2 = mtest01_pswpin();
	close(p[MP_ALLOC][0]);
	close(p[MP_CHECK][0]);
	close(p[MP_HOLD][1]);
	mtest01_reap(pids, n, mtest01_oom_rose, &oom, r);
	getrusage(RUSAGE_CHILDREN, &ru);
	rusage_from_sys(&ru, &b);
	rusage_delta(&a, &b, &d);
	v[MT_BYTES] = (double)bytes;
	v[MT_TIME] = (double)(t1 - t0);
	v[MT_RATE] = t1 > t0 ? (double)bytes / ((double)(t1 - t0) / 1e9) : 0;
	v[MT_MAJ] = (double)d.majflt;
	v[MT_MIN] = (double)d.minflt;
	v[MT_CHECK] = (double)(t2 - t1);
	v[MT_AMAJ] = (double)amaj;
	v[MT_CMAJ] = (double)cmaj;
	v[MT_APSWPIN] = (double)(in1 - in0);
	v[MT_CPSWPIN] = (double)(in2 - in1);
	v[MT_NCHILD] = (double)n;
	mtest01_metrics_add(st, r, v);
	free(pids);
	return 0;
}

static void mtest01_teardown(void *state, struct result *r) { free(state); }

const struct workload wl_mtest01 = {
	.name = "mtest01",
	.summary = "LTP's mtest01: children allocate (and write) a share of memory plus swap, then check it",
	.opts = mtest01_opts,
	.opts_size = sizeof(struct mtest01_opts),
	.metrics = mtest01_metrics,
	.needs_root = true,
	.supported = mtest01_supported,
	.setup = mtest01_setup,
	.run = mtest01_run,
	.teardown = mtest01_teardown,
};
