/* The tracefs session: one tracing instance per session, saved and
 * restored settings, and a reader thread on the instance's trace_pipe
 * (tracefs itself is found or mounted by trace/tracefs.c). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/owner.h"
#include "core/signals.h"
#include "core/util.h"
#include "trace/perf.h"
#include "trace/trace.h"
#include "trace/tracefs.h"

#define TRACE_BUFFER_KB "4096"     /* per CPU: seconds of reclaim events */
#define TRACE_READ_PERIOD_MS 100

/* ---- the session ---- */

struct trace_undo {
	char *path;      /* relative to the instance */
	char *value;     /* what to write back, in the file's input syntax */
};

struct trace_session {
	int root_fd;            /* tracefs */
	int inst_fd;            /* instances/<name> */
	int on_fd;              /* its tracing_on, open for the signal handler */
	char *inst_name;
	unsigned kinds;
	struct trace_resolved *res;
	size_t nres;
	struct trace_undo *undo;
	size_t nundo;
	char *err;              /* the first failure of the call under way */
	char *left;             /* what could not be put back, "; " between */
	/* while tracing */
	pthread_t reader;
	bool reader_running;
	atomic_bool stopping;
	int pipe_fd;
	struct trace_stats *stats;
	uint64_t lost_at_start;
};

/* A file's current value in the syntax it accepts back.  Files that list
 * choices show the current one in brackets ("[local] global mono"); filters
 * read "none" when unset and are cleared by writing "0"; buffer_size_kb
 * reads "7 (expanded: 1408)". */
static char *tfs_value_to_input(const char *path, char *raw)
{
	char *lb = strchr(raw, '['), *rb = lb ? strchr(lb, ']') : NULL;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (!strcmp(base, "trace_clock") && lb && rb) {
		*rb = '\0';
		return xstrdup(lb + 1);
	}
	size_t len = strlen(raw);
	while (len && isspace((unsigned char)raw[len - 1]))
		raw[--len] = '\0';
	if (!strcmp(base, "filter") && !strcmp(raw, "none"))
		return xstrdup("0");
	if (!strcmp(base, "buffer_size_kb"))
		raw[strspn(raw, "0123456789")] = '\0';
	return xstrdup(raw);
}

/* The session never prints: a failing call keeps its first reason (taking
 * why, malloc'd) for the public call to hand back, and returns -1. */
static int session_fail(struct trace_session *ts, char *why)
{
	if (ts->err)
		free(why);
	else
		ts->err = why;
	return -1;
}

/* "a; b", taking both (malloc'd, either may be NULL). */
static char *reasons_join(char *a, char *b)
{
	if (!a || !b)
		return a ? a : b;
	char *both = xasprintf("%s; %s", a, b);
	free(a);
	free(b);
	return both;
}

/* Something that could not be undone (taking what, malloc'd): not a
 * failure of the call, but the caller must hear of it. */
static void session_left(struct trace_session *ts, char *what)
{
	ts->left = reasons_join(ts->left, what);
}

/* Hand a malloc'd reason over to *why (or drop it when why is NULL). */
static void session_hand(char **reason, char **why)
{
	if (why)
		*why = *reason;
	else
		free(*reason);
	*reason = NULL;
}

/* Write a setting of the instance, saving its value first (once). */
static int session_set(struct trace_session *ts, const char *path, const char *val)
{
	bool saved = false;
	for (size_t i = 0; i < ts->nundo && !saved; i++)
		saved = !strcmp(ts->undo[i].path, path);
	if (!saved) {
		char *raw;
		int e = tracefs_read(ts->inst_fd, path, &raw);
		if (e < 0)
			return session_fail(ts, xasprintf("cannot read tracefs %s: %s", path, strerror(-e)));
		ts->undo = xrealloc(ts->undo, (ts->nundo + 1) * sizeof(*ts->undo));
		ts->undo[ts->nundo++] = (struct trace_undo){ xstrdup(path), tfs_value_to_input(path, raw) };
		free(raw);
	}
	int e = tracefs_write(ts->inst_fd, path, val, false);
	if (e < 0)
		return session_fail(ts, xasprintf("cannot set tracefs %s to '%s': %s", path, val, strerror(-e)));
	return 0;
}

/* set_event_pid takes one pid per write; restoring writes each back. */
static void session_restore_one(struct trace_session *ts, const struct trace_undo *u)
{
	const char *base = strrchr(u->path, '/') ? strrchr(u->path, '/') + 1 : u->path;
	int e;
	if (!strcmp(base, "set_event_pid")) {
		e = tracefs_write(ts->inst_fd, u->path, "", false);
		char *copy = xstrdup(u->value), *save = NULL;
		for (char *pid = strtok_r(copy, " \n", &save); pid && e == 0; pid = strtok_r(NULL, " \n", &save))
			e = tracefs_write(ts->inst_fd, u->path, pid, true);
		free(copy);
	} else {
		e = tracefs_write(ts->inst_fd, u->path, u->value, false);
	}
	if (e < 0)
		session_left(ts, xasprintf("cannot restore tracefs %s to '%s': %s", u->path, u->value, strerror(-e)));
}

static void session_restore(struct trace_session *ts)
{
	while (ts->nundo) {
		struct trace_undo *u = &ts->undo[--ts->nundo];
		session_restore_one(ts, u);
		free(u->path);
		free(u->value);
	}
	free(ts->undo);
	ts->undo = NULL;
}

/* Named like everything else vmregress makes on the host, after its owner
 * and the owner's start time, so cleanup never mistakes a reused PID. */
static int session_make_instance(struct trace_session *ts)
{
	static int seq;
	struct owner self = { 0 };
	char name[64];
	int e = owner_self(&self);
	if (e < 0)
		return e;
	owner_name(name, sizeof(name), &self, seq++);
	ts->inst_name = xasprintf("instances/%s", name);
	if (mkdirat(ts->root_fd, ts->inst_name, 0700) < 0 && errno != EEXIST)
		return -errno;
	ts->inst_fd = openat(ts->root_fd, ts->inst_name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return ts->inst_fd < 0 ? -errno : 0;
}

/* ---- signals ----
 *
 * A signal that ends vmregress (core/signals.h) must not leave an
 * instance tracing: the handler turns each open session's tracing off,
 * closes its files and removes its instance, with async-signal-safe calls
 * only, then hands the signal on to the handler that was there before (the
 * sandbox's, which undoes the sandbox and re-raises).  While this thread
 * holds files of an instance open (setting it up or tearing it down) the
 * signal waits for the section to end, because an open file keeps the
 * instance from being removed; the reader thread's trace_pipe is closed by
 * the handler and let go within one poll period.  An instance that is still
 * busy after that stays, with tracing off, for `vmregress cleanup`. */

#define TRACE_MAX_SESSIONS 8
static int trace_sigs[SIGNALS_MAX];
static size_t trace_nsigs;
static struct trace_session *volatile trace_live[TRACE_MAX_SESSIONS];
static struct sigaction trace_old_sa[SIGNALS_MAX];
static pid_t trace_handler_pid;
static int trace_busy;
static volatile sig_atomic_t trace_pending;

static void trace_on_signal(int sig);

static void trace_enter(void)
{
	__atomic_add_fetch(&trace_busy, 1, __ATOMIC_SEQ_CST);
}

static void trace_leave(void)
{
	if (__atomic_sub_fetch(&trace_busy, 1, __ATOMIC_SEQ_CST) == 0 && trace_pending)
		trace_on_signal(trace_pending);
}

static void trace_undo_signal_safe(struct trace_session *ts)
{
	int on = ts->on_fd, pipe = ts->pipe_fd;
	ts->on_fd = ts->pipe_fd = -1;
	if (on >= 0) {
		(void)!write(on, "0", 1);
		close(on);
	}
	if (pipe >= 0)
		close(pipe);
	/* open files of the instance hold it; its O_PATH descriptor does not */
	for (int tries = 0; tries < 40; tries++) {
		if (unlinkat(ts->root_fd, ts->inst_name, AT_REMOVEDIR) == 0 || errno != EBUSY)
			break;
		struct timespec pause = { 0, 5000000 };
		nanosleep(&pause, NULL);
	}
}

static void trace_on_signal(int sig)
{
	size_t k = 0;
	while (k < trace_nsigs && trace_sigs[k] != sig)
		k++;
	if (getpid() == trace_handler_pid && __atomic_load_n(&trace_busy, __ATOMIC_SEQ_CST) > 0) {
		trace_pending = sig;
		return;
	}
	trace_pending = 0;
	if (getpid() == trace_handler_pid)
		for (int i = 0; i < TRACE_MAX_SESSIONS; i++) {
			struct trace_session *ts = __atomic_exchange_n(&trace_live[i], NULL, __ATOMIC_SEQ_CST);
			if (ts)
				trace_undo_signal_safe(ts);
		}
	const struct sigaction *old = k < trace_nsigs ? &trace_old_sa[k] : NULL;
	if (old && old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN && !(old->sa_flags & SA_SIGINFO)) {
		old->sa_handler(sig);
		return;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Install the handler once per process, keeping whatever was there. */
static void trace_install_signal_handler(void)
{
	if (trace_handler_pid == getpid())
		return;
	struct sigaction sa = { .sa_handler = trace_on_signal };
	trace_nsigs = signals_fatal(trace_sigs);
	signals_fatal_set(&sa.sa_mask);
	for (size_t i = 0; i < trace_nsigs; i++)
		sigaction(trace_sigs[i], &sa, &trace_old_sa[i]);
	trace_handler_pid = getpid();
}

static void trace_register(struct trace_session *ts, bool add)
{
	for (int i = 0; i < TRACE_MAX_SESSIONS; i++) {
		struct trace_session *want = add ? NULL : ts;
		if (__atomic_compare_exchange_n(&trace_live[i], &want, add ? ts : NULL, false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return;
	}
}

static int session_open(struct trace_session **out, unsigned kinds, char **why)
{
	*out = NULL;
	*why = NULL;
	if (!vmr_is_root()) {
		*why = xstrdup("tracing needs root");
		return -2;
	}
	struct trace_session *ts = xcalloc(1, sizeof(*ts));
	ts->inst_fd = ts->pipe_fd = ts->on_fd = -1;
	ts->kinds = kinds;
	ts->root_fd = tracefs_open();
	if (ts->root_fd < 0) {
		*why = xasprintf("cannot find or mount tracefs: %s", strerror(errno));
		goto free_ts;
	}
	int e = session_make_instance(ts);
	if (e < 0) {
		*why = xasprintf("cannot create a tracing instance: %s", strerror(-e));
		goto close_root;
	}
	ts->on_fd = openat(ts->inst_fd, "tracing_on", O_WRONLY | O_CLOEXEC);
	trace_install_signal_handler();
	trace_register(ts, true);
	int evfd = openat(ts->inst_fd, "events", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (evfd < 0) {
		*why = xasprintf("tracing instance has no events directory: %s", strerror(errno));
		goto rm_instance;
	}
	ts->res = trace_resolve_events(evfd, kinds, &ts->nres);
	close(evfd);
	*out = ts;
	/* a setting that fails leaves the session to trace_session_close,
	 * which puts back what was written and says what it could not */
	if (session_set(ts, "tracing_on", "0") < 0 || session_set(ts, "buffer_size_kb", TRACE_BUFFER_KB) < 0 ||
	    session_set(ts, "trace_clock", "mono") < 0 || session_set(ts, "options/event-fork", "1") < 0) {
		session_hand(&ts->err, why);
		return -1;
	}
	return 0;
rm_instance:
	trace_register(ts, false);
	if (ts->on_fd >= 0)
		close(ts->on_fd);
	if (ts->inst_fd >= 0)
		close(ts->inst_fd);
	if (unlinkat(ts->root_fd, ts->inst_name, AT_REMOVEDIR) < 0)  /* why it failed, then what it left */
		*why = reasons_join(*why, xasprintf("cannot remove tracing instance %s: %s", ts->inst_name,
						    strerror(errno)));
close_root:
	close(ts->root_fd);
free_ts:
	free(ts->inst_name);
	free(ts);
	return -2;
}

const struct trace_resolved *trace_session_resolved(const struct trace_session *ts, size_t *n)
{
	*n = ts->nres;
	return ts->res;
}

/* The instance's trace_clock is "mono": CLOCK_MONOTONIC, vmr_now_ns's. */
uint64_t trace_clock_now_ns(void)
{
	return vmr_now_ns();
}

/* Sum of "overrun" and "dropped events" over the instance's CPUs. */
static uint64_t session_lost_events(struct trace_session *ts)
{
	uint64_t lost = 0;
	for (int cpu = 0;; cpu++) {
		char *path = xasprintf("per_cpu/cpu%d/stats", cpu), *buf;
		int e = tracefs_read(ts->inst_fd, path, &buf);
		free(path);
		if (e < 0)
			break;
		char *save = NULL;
		for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			unsigned long long v;
			if (sscanf(line, "overrun: %llu", &v) == 1 || sscanf(line, "dropped events: %llu", &v) == 1)
				lost += v;
		}
		free(buf);
	}
	return lost;
}

/* Kernel threads whose comm starts with prefix (kswapd0, kcompactd0). */
static size_t find_kthreads(const char *prefix, pid_t *out, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0;
	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		char *path = xasprintf("/proc/%s/comm", de->d_name), *comm = NULL;
		if (vmr_read_line(path, &comm) == 0 && !strncmp(comm, prefix, strlen(prefix)))
			out[n++] = (pid_t)atoi(de->d_name);
		free(comm);
		free(path);
	}
	closedir(d);
	return n;
}

/* Read what the buffer holds now, until it is empty.  False on EOF or an
 * error other than "empty". */
static bool reader_drain(struct trace_session *ts, char *buf, size_t cap, size_t *len)
{
	for (;;) {
		ssize_t n = read(ts->pipe_fd, buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 && errno == EAGAIN;
		*len += (size_t)n;
		size_t used = trace_stats_feed(ts->stats, buf, *len);
		memmove(buf, buf + used, *len - used);
		*len -= used;
		if (*len == cap) /* a line longer than the buffer: drop it */
			*len = 0;
	}
}

/* Drain the buffer every TRACE_READ_PERIOD_MS rather than on every event:
 * waking on each event would put a context switch beside each one, on the
 * CPUs the workload runs on.  The period is short next to what the
 * per-CPU buffers hold (TRACE_BUFFER_KB), and the kernel's dropped-event
 * count says if it ever was not. */
static void *trace_reader(void *arg)
{
	struct trace_session *ts = arg;
	size_t cap = 1 << 16, len = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		bool stopping = atomic_load(&ts->stopping);
		reader_drain(ts, buf, cap, &len);
		if (stopping) /* the last drain after tracing stopped */
			break;
		for (int i = 0; i < TRACE_READ_PERIOD_MS / 10 && !atomic_load(&ts->stopping); i++)
			usleep(10000);
	}
	free(buf);
	return NULL;
}

static int session_set_pids(struct trace_session *ts, const pid_t *pids, size_t npids)
{
	pid_t k[TRACE_MAX_NODES * 2];
	size_t nk = find_kthreads("kswapd", k, TRACE_MAX_NODES);
	ts->stats->nkswapd_pids = nk;
	for (size_t i = 0; i < nk; i++)
		ts->stats->kswapd_pids[i] = k[i];
	if (ts->kinds & TRACE_COMPACTION)
		nk += find_kthreads("kcompactd", k + nk, TRACE_MAX_NODES);
	if (session_set(ts, "set_event_pid", "") < 0)
		return -1;
	for (size_t i = 0; i < npids + nk; i++) {
		char num[24];
		snprintf(num, sizeof(num), "%d", (int)(i < npids ? pids[i] : k[i - npids]));
		int e = tracefs_write(ts->inst_fd, "set_event_pid", num, true);
		if (e < 0 && e != -ESRCH)
			return session_fail(ts, xasprintf("cannot add pid %s to tracefs set_event_pid: %s", num,
							  strerror(-e)));
	}
	return 0;
}

static int session_enable_events(struct trace_session *ts, const char *on)
{
	for (size_t i = 0; i < ts->nres; i++) {
		if (!ts->res[i].event)
			continue;
		char *path = xasprintf("events/%s/enable", ts->res[i].event);
		int r = session_set(ts, path, on);
		free(path);
		if (r < 0)
			return -1;
	}
	return 0;
}

static int session_stop(struct trace_session *ts, uint64_t *dropped);

static int session_start(struct trace_session *ts, const pid_t *pids, size_t npids, struct trace_stats *stats)
{
	ts->stats = stats;
	atomic_store(&ts->stopping, false);
	if (session_set(ts, "tracing_on", "0") < 0)
		return -1;
	int e = tracefs_write(ts->inst_fd, "trace", "", false);
	if (e < 0)
		return session_fail(ts, xasprintf("cannot empty tracefs %s/trace: %s", ts->inst_name, strerror(-e)));
	if (session_set_pids(ts, pids, npids) < 0 || session_enable_events(ts, "1") < 0)
		goto disable;
	ts->lost_at_start = session_lost_events(ts);
	ts->pipe_fd = openat(ts->inst_fd, "trace_pipe", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (ts->pipe_fd < 0) {
		session_fail(ts, xasprintf("cannot open tracefs %s/trace_pipe: %s", ts->inst_name, strerror(errno)));
		goto disable;
	}
	e = pthread_create(&ts->reader, NULL, trace_reader, ts);
	if (e) {
		session_fail(ts, xasprintf("cannot start the trace reader: %s", strerror(e)));
		goto close_pipe;
	}
	ts->reader_running = true;
	if (session_set(ts, "tracing_on", "1") < 0) {
		session_stop(ts, NULL);
		return -1;
	}
	return 0;
close_pipe:
	close(ts->pipe_fd);
	ts->pipe_fd = -1;
disable:
	session_enable_events(ts, "0");
	return -1;
}

static int session_stop(struct trace_session *ts, uint64_t *dropped)
{
	int rc = 0, e = tracefs_write(ts->inst_fd, "tracing_on", "0", false);
	if (e < 0)
		rc = session_fail(ts, xasprintf("cannot set tracefs tracing_on to '0': %s", strerror(-e)));
	if (ts->reader_running) {
		atomic_store(&ts->stopping, true);
		pthread_join(ts->reader, NULL);
		ts->reader_running = false;
	}
	if (ts->pipe_fd >= 0) {
		close(ts->pipe_fd);
		ts->pipe_fd = -1;
	}
	if (dropped)
		*dropped = session_lost_events(ts) - ts->lost_at_start;
	if (session_enable_events(ts, "0") < 0)
		rc = -1;
	ts->stats = NULL;
	return rc;
}

static int session_close(struct trace_session *ts, char **why)
{
	if (ts->reader_running && session_stop(ts, NULL) < 0)
		session_left(ts, ts->err);  /* it was tracing still: that it could not stop is left */
	ts->err = NULL;
	trace_register(ts, false);
	session_restore(ts);
	if (ts->on_fd >= 0)
		close(ts->on_fd);
	close(ts->inst_fd);
	if (unlinkat(ts->root_fd, ts->inst_name, AT_REMOVEDIR) < 0)
		session_left(ts, xasprintf("cannot remove tracing instance %s: %s", ts->inst_name, strerror(errno)));
	close(ts->root_fd);
	trace_resolved_free(ts->res, ts->nres);
	int rc = ts->left ? -1 : 0;
	session_hand(&ts->left, why);
	free(ts->inst_name);
	free(ts);
	return rc;
}

/* The public calls hold the instance's files open: signals wait for them.
 * Each starts with no reason kept and hands back the one it got. */
int trace_session_open(struct trace_session **out, unsigned kinds, char **why)
{
	trace_enter();
	int rc = session_open(out, kinds, why);
	trace_leave();
	return rc;
}

int trace_session_start(struct trace_session *ts, const pid_t *pids, size_t npids, struct trace_stats *stats,
			char **why)
{
	*why = NULL;
	trace_enter();
	int rc = session_start(ts, pids, npids, stats);
	trace_leave();
	session_hand(&ts->err, why);
	return rc;
}

int trace_session_stop(struct trace_session *ts, uint64_t *dropped, char **why)
{
	if (why)
		*why = NULL;
	trace_enter();
	int rc = session_stop(ts, dropped);
	trace_leave();
	session_hand(&ts->err, why);
	return rc;
}

int trace_session_close(struct trace_session *ts, char **why)
{
	if (why)
		*why = NULL;
	if (!ts)
		return 0;
	trace_enter();
	int rc = session_close(ts, why);
	trace_leave();
	return rc;
}
