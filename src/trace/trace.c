/* The tracefs session: find or privately mount tracefs, one tracing
 * instance per session, saved and restored settings, and a reader thread on
 * the instance's trace_pipe. */
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

#define TRACE_BUFFER_KB "4096"     /* per CPU: seconds of reclaim events */
#define TRACE_READ_PERIOD_MS 100
#define TRACE_MNT_PREFIX "vmregress-tracefs-"

/* ---- the events wanted, by role ---- */

#define CANDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static const struct trace_event_want trace_wants[] = {
	{ "direct-reclaim-begin", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_direct_reclaim_begin") },
	{ "direct-reclaim-end", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_direct_reclaim_end") },
	{ "memcg-reclaim-begin", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_memcg_reclaim_begin") },
	{ "memcg-reclaim-end", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_memcg_reclaim_end") },
	{ "kswapd-wake", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_kswapd_wake") },
	{ "kswapd-sleep", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_kswapd_sleep") },
	{ "wakeup-kswapd", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_wakeup_kswapd") },
	{ "lru-shrink-inactive", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_lru_shrink_inactive") },
	{ "writeback", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_write_folio", "vmscan/mm_vmscan_writepage") },
	/* Not exceptions/page_fault_user: an event per fault costs more than
	 * the fault, and perf's page-fault counters (--profile) count them. */
	{ "filemap-add", TRACE_FAULTS, CANDS("filemap/mm_filemap_add_to_page_cache") },
	{ "filemap-delete", TRACE_FAULTS, CANDS("filemap/mm_filemap_delete_from_page_cache") },
	{ "filemap-fault", TRACE_FAULTS, CANDS("filemap/mm_filemap_fault") },
	{ "compaction-begin", TRACE_COMPACTION, CANDS("compaction/mm_compaction_begin") },
	{ "compaction-end", TRACE_COMPACTION, CANDS("compaction/mm_compaction_end") },
	{ "direct-compaction", TRACE_COMPACTION, CANDS("compaction/mm_compaction_try_to_compact_pages") },
	{ "kcompactd-wake", TRACE_COMPACTION, CANDS("compaction/mm_compaction_kcompactd_wake") },
};

struct trace_resolved *trace_resolve_events(int events_dirfd, unsigned kinds, size_t *n)
{
	struct trace_resolved *r = xcalloc(ARRAY_SIZE(trace_wants), sizeof(*r));
	size_t k = 0;
	for (size_t i = 0; i < ARRAY_SIZE(trace_wants); i++) {
		const struct trace_event_want *w = &trace_wants[i];
		if (!(w->kind & kinds))
			continue;
		r[k].role = w->role;
		for (const char *const *c = w->cands; *c && !r[k].event; c++) {
			char *enable = xasprintf("%s/enable", *c);
			if (faccessat(events_dirfd, enable, W_OK, 0) == 0)
				r[k].event = *c;
			free(enable);
		}
		if (!r[k].event) {
			size_t len = 0;
			for (const char *const *c = w->cands; *c; c++)
				len += strlen(*c) + 4;
			char *list = xcalloc(1, len + 1);
			for (const char *const *c = w->cands; *c; c++) {
				if (c != w->cands)
					strcat(list, " or ");
				strcat(list, *c);
			}
			r[k].reason = xasprintf("no tracepoint %s on this kernel", list);
			free(list);
		}
		k++;
	}
	*n = k;
	return r;
}

void trace_resolved_free(struct trace_resolved *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		free(r[i].reason);
	free(r);
}

/* ---- finding tracefs ---- */

/* The mount point of a tracefs already mounted, or NULL. */
static char *tracefs_find_mounted(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], *found = NULL;
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mountpoint opts... - fstype source super */
		char *sep = strstr(line, " - ");
		char mnt[1024];
		if (!sep || strncmp(sep + 3, "tracefs ", 8))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %1023s", mnt) == 1 && !strstr(mnt, TRACE_MNT_PREFIX))
			found = xstrdup(mnt);
	}
	fclose(f);
	return found;
}

/* Mount tracefs on a private directory, keep a descriptor of it, and detach
 * it at once: the mount lives as long as the descriptor and is never
 * visible in the host's mount table afterwards, whatever happens to us. */
static int tracefs_mount_detached(void)
{
	char *dir = xasprintf("/tmp/" TRACE_MNT_PREFIX "%d-XXXXXX", (int)getpid());
	int fd = -1;
	if (!mkdtemp(dir))
		goto free_dir;
	if (mount("nodev", dir, "tracefs", 0, NULL) < 0)
		goto rm_dir;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	umount2(dir, MNT_DETACH);
rm_dir:
	rmdir(dir);
free_dir:
	free(dir);
	return fd;
}

/* A descriptor of tracefs's root, or -1 with errno set. */
static int tracefs_open(void)
{
	char *mnt = tracefs_find_mounted();
	if (mnt) {
		int fd = open(mnt, O_PATH | O_DIRECTORY | O_CLOEXEC);
		free(mnt);
		if (fd >= 0 && faccessat(fd, "instances", F_OK, 0) == 0)
			return fd;
		if (fd >= 0)
			close(fd);
	}
	return tracefs_mount_detached();
}

/* ---- reading and writing tracefs files ---- */

static int tfs_read(int dirfd, const char *path, char **out)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t cap = 4096, len = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (len + 1 >= cap)
			buf = xrealloc(buf, cap *= 2);
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = -errno;
			close(fd);
			free(buf);
			return e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static int tfs_write(int dirfd, const char *path, const char *val, bool append)
{
	int fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return -errno;
	size_t len = strlen(val);
	ssize_t n = write(fd, val, len);
	int e = n < 0 ? -errno : (size_t)n == len ? 0 : -EIO;
	close(fd);
	return e;
}

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

/* Write a setting of the instance, saving its value first (once). */
static int session_set(struct trace_session *ts, const char *path, const char *val)
{
	bool saved = false;
	for (size_t i = 0; i < ts->nundo && !saved; i++)
		saved = !strcmp(ts->undo[i].path, path);
	if (!saved) {
		char *raw;
		int e = tfs_read(ts->inst_fd, path, &raw);
		if (e < 0) {
			vmr_err("cannot read tracefs %s: %s", path, strerror(-e));
			return -1;
		}
		ts->undo = xrealloc(ts->undo, (ts->nundo + 1) * sizeof(*ts->undo));
		ts->undo[ts->nundo++] = (struct trace_undo){ xstrdup(path), tfs_value_to_input(path, raw) };
		free(raw);
	}
	int e = tfs_write(ts->inst_fd, path, val, false);
	if (e < 0) {
		vmr_err("cannot set tracefs %s to '%s': %s", path, val, strerror(-e));
		return -1;
	}
	return 0;
}

/* set_event_pid takes one pid per write; restoring writes each back. */
static void session_restore_one(struct trace_session *ts, const struct trace_undo *u)
{
	const char *base = strrchr(u->path, '/') ? strrchr(u->path, '/') + 1 : u->path;
	int e;
	if (!strcmp(base, "set_event_pid")) {
		e = tfs_write(ts->inst_fd, u->path, "", false);
		char *copy = xstrdup(u->value), *save = NULL;
		for (char *pid = strtok_r(copy, " \n", &save); pid && e == 0; pid = strtok_r(NULL, " \n", &save))
			e = tfs_write(ts->inst_fd, u->path, pid, true);
		free(copy);
	} else {
		e = tfs_write(ts->inst_fd, u->path, u->value, false);
	}
	if (e < 0)
		vmr_warn("cannot restore tracefs %s to '%s': %s", u->path, u->value, strerror(-e));
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
	if (session_set(ts, "tracing_on", "0") < 0 || session_set(ts, "buffer_size_kb", TRACE_BUFFER_KB) < 0 ||
	    session_set(ts, "trace_clock", "mono") < 0 || session_set(ts, "options/event-fork", "1") < 0) {
		*why = xstrdup("cannot configure the tracing instance");
		goto restore;
	}
	*out = ts;
	return 0;
restore:
	session_restore(ts);
	trace_resolved_free(ts->res, ts->nres);
rm_instance:
	trace_register(ts, false);
	if (ts->on_fd >= 0)
		close(ts->on_fd);
	if (ts->inst_fd >= 0)
		close(ts->inst_fd);
	unlinkat(ts->root_fd, ts->inst_name, AT_REMOVEDIR);
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

uint64_t trace_clock_now_ns(void)
{
	struct timespec t = { 0 };
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* Sum of "overrun" and "dropped events" over the instance's CPUs. */
static uint64_t session_lost_events(struct trace_session *ts)
{
	uint64_t lost = 0;
	for (int cpu = 0;; cpu++) {
		char *path = xasprintf("per_cpu/cpu%d/stats", cpu), *buf;
		int e = tfs_read(ts->inst_fd, path, &buf);
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
		int e = tfs_write(ts->inst_fd, "set_event_pid", num, true);
		if (e < 0 && e != -ESRCH) {
			vmr_err("cannot add pid %s to tracefs set_event_pid: %s", num, strerror(-e));
			return -1;
		}
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
	if (session_set(ts, "tracing_on", "0") < 0 || tfs_write(ts->inst_fd, "trace", "", false) < 0)
		return -1;
	if (session_set_pids(ts, pids, npids) < 0 || session_enable_events(ts, "1") < 0)
		goto disable;
	ts->lost_at_start = session_lost_events(ts);
	ts->pipe_fd = openat(ts->inst_fd, "trace_pipe", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (ts->pipe_fd < 0) {
		vmr_errno("cannot open tracefs %s/trace_pipe", ts->inst_name);
		goto disable;
	}
	int e = pthread_create(&ts->reader, NULL, trace_reader, ts);
	if (e) {
		vmr_err("cannot start the trace reader: %s", strerror(e));
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
	int rc = 0;
	if (tfs_write(ts->inst_fd, "tracing_on", "0", false) < 0)
		rc = -1;
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

static void session_close(struct trace_session *ts)
{
	if (!ts)
		return;
	if (ts->reader_running)
		session_stop(ts, NULL);
	trace_register(ts, false);
	session_restore(ts);
	if (ts->on_fd >= 0)
		close(ts->on_fd);
	close(ts->inst_fd);
	if (unlinkat(ts->root_fd, ts->inst_name, AT_REMOVEDIR) < 0)
		vmr_warn("cannot remove tracing instance %s: %s", ts->inst_name, strerror(errno));
	close(ts->root_fd);
	trace_resolved_free(ts->res, ts->nres);
	free(ts->inst_name);
	free(ts);
}

/* The public calls hold the instance's files open: signals wait for them. */
int trace_session_open(struct trace_session **out, unsigned kinds, char **why)
{
	trace_enter();
	int rc = session_open(out, kinds, why);
	trace_leave();
	return rc;
}

int trace_session_start(struct trace_session *ts, const pid_t *pids, size_t npids, struct trace_stats *stats)
{
	trace_enter();
	int rc = session_start(ts, pids, npids, stats);
	trace_leave();
	return rc;
}

int trace_session_stop(struct trace_session *ts, uint64_t *dropped)
{
	trace_enter();
	int rc = session_stop(ts, dropped);
	trace_leave();
	return rc;
}

void trace_session_close(struct trace_session *ts)
{
	if (!ts)
		return;
	trace_enter();
	session_close(ts);
	trace_leave();
}

/* ---- snapshot and cleanup ---- */

static void snap_add(char **s, size_t *len, int fd, const char *path)
{
	char *v = NULL;
	int e = tfs_read(fd, path, &v);
	char *line = e < 0 ? xasprintf("%s: (%s)\n", path, strerror(-e)) : xasprintf("%s: %s\n", path, v);
	for (char *p = line; *p && p[1]; p++)
		if (*p == '\n')
			*p = ' ';
	size_t n = strlen(line);
	*s = xrealloc(*s, *len + n + 1);
	memcpy(*s + *len, line, n + 1);
	*len += n;
	free(line);
	free(v);
}

char *trace_settings_snapshot(void)
{
	static const char *const files[] = {
		"tracing_on", "buffer_size_kb", "current_tracer", "trace_clock", "trace_options",
		"set_event", "set_event_pid", "options/event-fork",
	};
	int fd = tracefs_open();
	if (fd < 0)
		return NULL;
	char *s = xstrdup("");
	size_t len = 0;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		snap_add(&s, &len, fd, files[i]);
	for (size_t i = 0; i < ARRAY_SIZE(trace_wants); i++)
		for (const char *const *c = trace_wants[i].cands; *c; c++) {
			char *p = xasprintf("events/%s/enable", *c);
			if (faccessat(fd, p, F_OK, 0) == 0) {
				snap_add(&s, &len, fd, p);
				strcpy(p + strlen(p) - strlen("enable"), "filter");
				snap_add(&s, &len, fd, p);
			}
			free(p);
		}
	int ifd = openat(fd, "instances", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = ifd >= 0 ? fdopendir(ifd) : NULL;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *line = xasprintf("instance: %s\n", de->d_name);
		s = xrealloc(s, len + strlen(line) + 1);
		strcpy(s + len, line);
		len += strlen(line);
		free(line);
	}
	if (d)
		closedir(d);
	else if (ifd >= 0)
		close(ifd);
	close(fd);
	return s;
}

/* The pid in ".../vmregress-tracefs-<pid>-XXXXXX", a private mount point. */
static pid_t mount_pid(const char *s)
{
	const char *p = strstr(s, TRACE_MNT_PREFIX);
	if (!p)
		return 0;
	p += strlen(TRACE_MNT_PREFIX);
	char *end;
	long pid = strtol(p, &end, 10);
	return end != p && *end == '-' && pid > 0 ? (pid_t)pid : 0;
}

static void cleanup_action(json_t *actions, const char *action, const char *what, const char *path, int pid,
			   const char *error)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:s}", "action", action, "what", what, "path", path, "from", "orphan");
	if (pid > 0)
		json_object_set_new(o, "owner_pid", json_integer(pid));
	if (error)
		json_object_set_new(o, "error", json_string(error));
	json_array_append_new(actions, o);
}

static int cleanup_mounts(json_t *actions)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], mnt[1024];
	int failed = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "tracefs ", 8) ||
		    sscanf(line, "%*s %*s %*s %*s %1023s", mnt) != 1)
			continue;
		pid_t pid = mount_pid(mnt);
		if (!pid || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		int e = umount2(mnt, MNT_DETACH) < 0 ? errno : 0;
		if (!e)
			rmdir(mnt);
		cleanup_action(actions, e ? "failed" : "unmounted", "tracefs", mnt, pid, e ? strerror(e) : NULL);
		failed |= e != 0;
	}
	fclose(f);
	return failed ? -1 : 0;
}

static int cleanup_instances(int ifd, json_t *actions)
{
	DIR *d = fdopendir(ifd);
	struct dirent *de;
	int failed = 0;
	if (!d) {
		close(ifd);
		return 0;
	}
	while ((de = readdir(d))) {
		struct owner o = { 0 };
		int seq;
		if (owner_name_parse(de->d_name, NULL, &o, &seq) < 0 || owner_alive(&o))
			continue;
		/* Removing an instance turns its events off and frees its
		 * buffer; the host's own tracing settings were never touched. */
		char *path = xasprintf("instances/%s", de->d_name);
		int e = unlinkat(ifd, de->d_name, AT_REMOVEDIR) < 0 ? errno : 0;
		cleanup_action(actions, e ? "failed" : "removed", "tracing instance", path, o.pid, e ? strerror(e) : NULL);
		failed |= e != 0;
		free(path);
	}
	closedir(d);
	return failed ? -1 : 0;
}

int trace_cleanup_report(json_t *actions)
{
	int rc = cleanup_mounts(actions);
	if (perf_cleanup_report(actions) < 0)
		rc = -1;
	if (!vmr_is_root())
		return rc;
	int fd = tracefs_open();
	if (fd < 0)
		return rc; /* no tracefs: nothing of ours can be there */
	int ifd = openat(fd, "instances", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ifd >= 0 && cleanup_instances(ifd, actions) < 0)
		rc = -1;
	close(fd);
	return rc;
}
