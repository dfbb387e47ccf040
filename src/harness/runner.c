#include "harness/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/compat.h"
#include "core/rusage.h"
#include "core/scratch.h"
#include "core/signals.h"
#include "core/util.h"
#include "probe/cpustat.h"
#include "probe/vmstat.h"
#include "probe/vmstat_counters.h"

/* A snapshot of the counters kept as "vmstat-NAME" metrics (VMSTAT_STORED
 * of probe/vmstat_counters.h), indexed like that table.  Counters the
 * kernel lacks are left out. */
struct runner_vmstat {
	bool have[VMSTAT_NCOUNTERS];
	uint64_t v[VMSTAT_NCOUNTERS];
};

static void runner_vmstat_read(struct runner_vmstat *s)
{
	struct vmstat vs = { 0 };
	char err[PROBE_ERR_MAX] = "";
	memset(s, 0, sizeof(*s));
	vmstat_init(&vs);
	if (vmstat_read(&vs, NULL, err) == 0)
		for (size_t i = 0; i < VMSTAT_NCOUNTERS; i++)
			s->have[i] = (vmstat_counters[i].uses & VMSTAT_STORED) &&
				     vmstat_get(&vs, vmstat_counters[i].name, &s->v[i]) == 0;
	vmstat_free(&vs);
}

static void runner_vmstat_metrics(struct result *r, const struct runner_vmstat *a,
				  const struct runner_vmstat *b)
{
	for (size_t i = 0; i < VMSTAT_NCOUNTERS; i++) {
		if (!a->have[i] || !b->have[i])
			continue;
		char name[64];
		snprintf(name, sizeof(name), "vmstat-%s", vmstat_counters[i].name);
		result_metric(r, name, "events", BETTER_NONE, COMBINE_AMEAN,
			      (double)(b->v[i] - a->v[i]));
	}
}

/* The host's CPU time stolen by a hypervisor over the iteration, in
 * percent of the host's CPU time (/proc/stat): "host-steal".  Left out
 * when /proc/stat could not be read or no tick passed. */
static void runner_steal_metric(struct result *r, const struct cpustat *a)
{
	char err[PROBE_ERR_MAX] = "";
	struct cpustat now = { 0 };
	if (!a->total || cpustat_read(&now, NULL, err) < 0 || now.total <= a->total || now.steal < a->steal)
		return;
	result_metric(r, "host-steal", "%", BETTER_NONE, COMBINE_AMEAN,
		      100.0 * (double)(now.steal - a->steal) / (double)(now.total - a->total));
}

static uint64_t runner_vmstat_get(const struct runner_vmstat *s, const char *name)
{
	for (size_t i = 0; i < VMSTAT_NCOUNTERS; i++)
		if (s->have[i] && !strcmp(vmstat_counters[i].name, name))
			return s->v[i];
	return 0;
}

static void runner_env(const struct sandbox *sb, const struct runner_cfg *cfg, const char *workdir,
		       struct wl_env *env)
{
	memset(env, 0, sizeof(*env));
	env->sandboxed = sb && sandbox_active(sb);
	env->limit_bytes = env->sandboxed ? sandbox_limit_bytes(sb) : 0;
	env->swap_bytes = env->sandboxed ? sandbox_swap_bytes(sb) : 0;
	env->cgroup = env->sandboxed ? sandbox_cgroup_path(sb) : NULL;
	env->page_size = vmr_page_size();
	env->workdir = workdir;
	env->force = cfg && cfg->force;
}

static int runner_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* What the child runs once the parent has let it go. */
struct runner_job {
	void (*body)(void *arg, int out_fd) __attribute__((noreturn));
	void *arg;
	const char *what;      /* in the reasons: "workload process", "command" */
	bool own_group;        /* lead its own process group (a workload) */
};

/* In the child: the default signal dispositions (the parent's handlers
 * undo its sandbox, and SIGPIPE is ignored there), death with the parent,
 * then wait for the go byte and run the job.  A workload leads its own
 * process group, which the watchdog and the signal handler kill whole; a
 * command stays in the caller's, so that on a terminal it is in the
 * foreground: it may read the terminal, and Ctrl-C reaches it. */
static __attribute__((noreturn)) void runner_child(const struct runner_job *job, int go_fd, int out_fd)
{
	char go;
	signals_default();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (job->own_group)
		setpgid(0, 0);
	ssize_t n;
	do
		n = read(go_fd, &go, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(125);
	close(go_fd);
	job->body(job->arg, out_fd);
}

struct runner_workload {
	const struct workload *w;
	const void *wopts;
	const struct wl_env *env;
};

/* The workload's job: run it and send the result. */
static __attribute__((noreturn)) void runner_workload_body(void *arg, int out_fd)
{
	const struct runner_workload *a = arg;
	const struct workload *w = a->w;
	struct result r = { 0 };
	result_init(&r, w->name);
	void *state = w->setup ? w->setup(a->wopts, a->env, &r) : NULL;
	if (w->setup && !state && r.outcome == OUTCOME_PASS)
		result_set_outcome(&r, OUTCOME_ERROR, "set-up failed");
	if (state || !w->setup) {
		if (w->run)
			w->run(state, &r);
		if (w->teardown)
			w->teardown(state, &r);
	}
	json_t *j = result_to_json(&r);
	char *s = json_dumps(j, JSON_COMPACT);
	int rc = s && runner_write_all(out_fd, s, strlen(s)) == 0 ? 0 : 124;
	/* freed although _exit follows, so that a leak checker watching the
	 * child (valgrind follows forks) reports only real leaks */
	free(s);
	json_decref(j);
	result_free(&r);
	_exit(rc);
}

/* A command's job: exec it.  The out pipe is close-on-exec, so a command
 * that starts sends nothing; one that cannot sends execvp's errno. */
static __attribute__((noreturn)) void runner_exec_body(void *arg, int out_fd)
{
	char *const *argv = arg;
	execvp(argv[0], argv);
	int e = errno;
	ssize_t n = write(out_fd, &e, sizeof(e));
	(void)n;
	_exit(127);
}

struct runner_wait {
	int status;
	struct rusage ru;
	bool timed_out;
	char *buf;
	size_t len, cap;
};

/* Read what the pipe holds now.  True at end of file. */
static bool runner_buf_read(int fd, struct runner_wait *wt)
{
	bool eof = false;
	for (;;) {
		if (wt->cap - wt->len < 65536) {
			wt->cap = wt->cap ? wt->cap * 2 : 262144;
			wt->buf = xrealloc(wt->buf, wt->cap);
		}
		ssize_t n = read(fd, wt->buf + wt->len, wt->cap - wt->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		eof = n == 0;
		if (n <= 0)
			break;
		wt->len += (size_t)n;
	}
	if (wt->buf)
		wt->buf[wt->len] = '\0';
	return eof;
}

static void runner_kill(pid_t pid, struct sandbox *sb)
{
	if (sb && sandbox_active(sb))
		sandbox_kill_all(sb);
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/* How long poll may sleep: until the watchdog fires, or for ever when the
 * child's exit wakes us (a pidfd); 50 ms slices on kernels before 5.3. */
static int runner_poll_ms(int pidfd, uint64_t timeout_ns, uint64_t t0, bool timed_out)
{
	int ms = pidfd >= 0 ? -1 : 50;
	if (timeout_ns && !timed_out) {
		uint64_t el = vmr_now_ns() - t0;
		uint64_t left = el < timeout_ns ? (timeout_ns - el) / 1000000 + 1 : 0;
		if (ms < 0 || left < (uint64_t)ms)
			ms = left > 1000000 ? 1000000 : (int)left;
	}
	return ms;
}

/* Read the child's result until it exits; the watchdog kills it after
 * timeout_ns.  The parent sleeps in poll until the child writes, exits or
 * the watchdog is due, so it does not wake while the workload is measured.
 * The pipe is non-blocking, so a grandchild that inherited it cannot keep
 * the runner waiting once the child itself has exited. */
static void runner_wait_child(pid_t pid, int out_fd, struct sandbox *sb, uint64_t timeout_ns,
			      uint64_t t0, struct runner_wait *wt)
{
	int pidfd = compat_pidfd_open(pid);
	bool eof = false;
	for (;;) {
		struct pollfd p[2] = { { .fd = eof ? -1 : out_fd, .events = POLLIN },
				       { .fd = pidfd, .events = POLLIN } };
		poll(p, 2, runner_poll_ms(pidfd, timeout_ns, t0, wt->timed_out));
		if (!eof)
			eof = runner_buf_read(out_fd, wt);
		pid_t got = wait4(pid, &wt->status, WNOHANG, &wt->ru);
		if (got == pid) {
			runner_buf_read(out_fd, wt);
			break;
		}
		if (got < 0 && errno != EINTR) {
			wt->status = -1;
			break;
		}
		if (timeout_ns && !wt->timed_out && vmr_now_ns() - t0 > timeout_ns) {
			wt->timed_out = true;
			runner_kill(pid, sb);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
}

static void runner_classify(struct result *r, struct runner_wait *wt, uint64_t timeout_ns,
			    bool oom_rose)
{
	const char *why;
	struct result child = { 0 };
	result_info_set(r, "workload_result", json_false());
	if (wt->timed_out) {
		char t[32];
		result_set_outcome(r, OUTCOME_ERROR, "timed out after %s",
				   units_format_time(t, sizeof(t), timeout_ns));
		return;
	}
	if (wt->status != -1 && WIFSIGNALED(wt->status)) {
		int sig = WTERMSIG(wt->status);
		if (sig == SIGKILL && oom_rose)
			result_set_outcome(r, OUTCOME_OOM, "killed by the OOM killer");
		else
			result_set_outcome(r, OUTCOME_ERROR, "workload process killed by signal SIG%s",
					   sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
		return;
	}
	json_error_t jerr;
	json_t *j = wt->len ? json_loadb(wt->buf, wt->len, 0, &jerr) : NULL;
	if (!j) {
		if (wt->status == -1 || !WIFEXITED(wt->status))
			result_set_outcome(r, OUTCOME_ERROR, "lost the workload process");
		else
			result_set_outcome(r, OUTCOME_ERROR, "workload process exited with status %d "
					   "without a result", WEXITSTATUS(wt->status));
		return;
	}
	if (result_from_json(j, &child, &why) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "workload process sent a malformed result: %s", why);
	} else {
		result_free(r);
		*r = child;
	}
	json_decref(j);
}

/* The kernel's report of the kill (sandbox_oom_report): the cgroup's
 * counters at that moment, which the cgroup's files no longer show once the
 * workload's pages are freed.  Kept whole in info "oom_report"; its gist
 * goes into the reason, so that every report of the result carries it. */
static void runner_oom_report(struct result *r, struct sandbox *sb)
{
	char gist[400];
	json_t *rep = sandbox_oom_report(sb, gist, sizeof(gist));
	free(r->reason);
	if (gist[0])
		r->reason = xasprintf("killed by the OOM killer (kernel log: %s)", gist);
	else
		r->reason = xasprintf("killed by the OOM killer (%s)", json_string_value(json_object_get(rep, "error")));
	result_info_set(r, "oom_report", rep);
}

static void runner_sandbox_info(struct result *r, struct sandbox *sb, json_t *before)
{
	if (!sb || !sandbox_active(sb)) {
		json_decref(before);
		return;
	}
	result_info_set(r, "sandbox", sandbox_describe(sb));
	if (before)
		result_info_set(r, "sandbox_before", before);
	json_t *after = sandbox_stats(sb);
	if (after)
		result_info_set(r, "sandbox_after", after);
}

static void runner_hooks_stop(const struct runner_cfg *cfg, size_t nstarted, struct result *r)
{
	for (size_t i = 0; i < nstarted; i++)
		if (cfg->hooks[i].stop)
			cfg->hooks[i].stop(cfg->hooks[i].ctx, r);
}

static size_t runner_hooks_start(const struct runner_cfg *cfg, pid_t pid, struct sandbox *sb,
				 struct result *r)
{
	size_t i;
	for (i = 0; cfg && i < cfg->nhooks; i++) {
		struct runner_hook *h = &cfg->hooks[i];
		if (h->start && h->start(h->ctx, pid, sb) < 0) {
			result_set_outcome(r, OUTCOME_ERROR, "cannot start %s: %s", h->name, strerror(errno));
			break;
		}
	}
	return i;
}

static int runner_fork(const struct runner_job *job, int go[2], int out[2], struct result *r)
{
	if (pipe2(go, O_CLOEXEC) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(out, O_CLOEXEC) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot make a pipe: %s", strerror(errno));
		goto close_go;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot fork: %s", strerror(errno));
		goto close_out;
	}
	if (pid == 0) {
		close(go[1]);
		close(out[0]);
		runner_child(job, go[0], out[1]);
	}
	sandbox_signal_child(pid, true);
	close(go[0]);
	close(out[1]);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	return pid;
close_out:
	close(out[0]);
	close(out[1]);
close_go:
	close(go[0]);
	close(go[1]);
	return -1;
}

/* Attach the child to the sandbox, start the hooks, then let it run: the
 * hooks (perf counters, tracing) must see the workload from its first
 * instruction.  Returns how many hooks started. */
static size_t runner_go(const struct runner_job *job, const struct runner_cfg *cfg, pid_t pid,
			struct sandbox *sb, int go_fd, uint64_t *t0, struct result *r)
{
	if (sb && sandbox_active(sb) && sandbox_attach(sb, pid) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot move the %s into the sandbox", job->what);
		return 0;
	}
	size_t nhooks = runner_hooks_start(cfg, pid, sb, r);
	*t0 = vmr_now_ns();
	if (r->outcome == OUTCOME_PASS && runner_write_all(go_fd, "g", 1) < 0)
		result_set_outcome(r, OUTCOME_ERROR, "cannot start the %s: %s", job->what, strerror(errno));
	return nhooks;
}

/* One child's span, from the counters read before it to those after: what
 * runner_run and runner_exec share. */
struct runner_span {
	struct runner_vmstat vm0, vm1;
	struct cpustat cpu0;          /* total 0: unread */
	bool sandboxed;
	json_t *sb_before;
	uint64_t oom0;
	size_t nhooks;
	bool harness_failed;          /* r says why */
	uint64_t elapsed_ns;
	struct runner_wait wt;
};

/* Read the counters, fork the job, attach it, start the hooks, let it go
 * and wait for it (steps 3 to 7 of docs/DESIGN.md).  -1 when no child
 * could be forked (r says why, nothing is left to end); else 0, and
 * runner_span_end follows. */
static int runner_span_begin(struct runner_span *sp, const struct runner_job *job, struct sandbox *sb,
			     const struct runner_cfg *cfg, struct result *r)
{
	int go[2], out[2];
	char err[PROBE_ERR_MAX] = "";
	runner_vmstat_read(&sp->vm0);
	if (cpustat_read(&sp->cpu0, NULL, err) < 0)
		sp->cpu0 = (struct cpustat){ 0 };
	sp->sandboxed = sb && sandbox_active(sb);
	sp->sb_before = sp->sandboxed ? sandbox_stats(sb) : NULL;
	sp->oom0 = sp->sandboxed ? sandbox_oom_kills(sb) : 0;
	if (sp->sandboxed)
		sandbox_oom_watch(sb);
	uint64_t timeout_ns = cfg ? cfg->timeout_ns : 0;

	pid_t pid = runner_fork(job, go, out, r);
	if (pid < 0) {
		json_decref(sp->sb_before);
		sp->sb_before = NULL;
		sandbox_oom_unwatch(sb);
		return -1;
	}
	uint64_t t0 = vmr_now_ns();
	sp->nhooks = runner_go(job, cfg, pid, sb, go[1], &t0, r);
	if (r->outcome != OUTCOME_PASS)
		runner_kill(pid, sb);
	close(go[1]);
	sp->harness_failed = r->outcome != OUTCOME_PASS;
	runner_wait_child(pid, out[0], sb, timeout_ns, t0, &sp->wt);
	sandbox_signal_child(pid, false);
	sp->elapsed_ns = vmr_now_ns() - t0;
	close(out[0]);
	return 0;
}

/* OOM kills while the child ran: the sandbox's, or on the host all of them
 * (/proc/vmstat oom_kill). */
static uint64_t runner_span_oom_kills(struct runner_span *sp, struct sandbox *sb)
{
	uint64_t before = sp->oom0, now;
	if (sp->sandboxed) {
		now = sandbox_oom_kills(sb);
	} else {
		runner_vmstat_read(&sp->vm1);
		before = runner_vmstat_get(&sp->vm0, "oom_kill");
		now = runner_vmstat_get(&sp->vm1, "oom_kill");
	}
	return now > before ? now - before : 0;
}

/* Stop the hooks, whose last samples fall inside the vmstat deltas'
 * window, and add rusage, the deltas and the sandbox's counters (step 9). */
static void runner_span_end(struct runner_span *sp, struct sandbox *sb, const struct runner_cfg *cfg,
			    struct result *r)
{
	runner_hooks_stop(cfg, sp->nhooks, r);
	runner_vmstat_read(&sp->vm1);
	if (sp->wt.status != -1)
		rusage_metrics(r, &sp->wt.ru, sp->elapsed_ns);
	runner_vmstat_metrics(r, &sp->vm0, &sp->vm1);
	runner_steal_metric(r, &sp->cpu0);
	runner_sandbox_info(r, sb, sp->sb_before);
	sp->sb_before = NULL;
	sandbox_oom_unwatch(sb);
	free(sp->wt.buf);
	sp->wt.buf = NULL;
}

int runner_exec(char *const argv[], struct sandbox *sb, const struct runner_cfg *cfg, struct runner_exit *x,
		struct result *r)
{
	struct runner_span sp = { 0 };
	struct runner_job job = { .body = runner_exec_body, .arg = (void *)argv, .what = "command" };
	*x = (struct runner_exit){ .status = -1 };
	result_init(r, "exec");
	if (runner_span_begin(&sp, &job, sb, cfg, r) < 0)
		return -1;
	if (!sp.harness_failed) {
		x->status = sp.wt.status;
		x->timed_out = sp.wt.timed_out;
		x->ru = sp.wt.ru;
		x->elapsed_ns = sp.elapsed_ns;
		if (sp.wt.len == sizeof(int))
			memcpy(&x->exec_errno, sp.wt.buf, sizeof(int));
		x->oom_kills = runner_span_oom_kills(&sp, sb);
		if (x->oom_kills && sp.sandboxed)
			result_info_set(r, "oom_report", sandbox_oom_report(sb, x->oom_gist, sizeof(x->oom_gist)));
	}
	runner_span_end(&sp, sb, cfg, r);
	return sp.harness_failed ? -1 : 0;
}

int runner_run(const struct workload *w, const void *wopts, struct sandbox *sb,
	       const struct runner_cfg *cfg, struct result *r)
{
	int ret = -1;
	struct wl_env env = { 0 };
	result_init(r, w->name);
	if (!(cfg && cfg->workdir))
		scratch_cleanup(NULL, NULL);
	char *own_dir = cfg && cfg->workdir ? NULL : scratch_make(NULL);
	const char *workdir = own_dir ? own_dir : cfg ? cfg->workdir : NULL;
	if (!workdir) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot make a work directory: %s", strerror(errno));
		goto echo;
	}
	runner_env(sb, cfg, workdir, &env);
	const char *why = w->supported ? w->supported(wopts, &env) : NULL;
	if (why) {
		result_set_outcome(r, OUTCOME_SKIP, "%s", why);
		ret = 0;
		goto remove_dir;
	}
	/* measured under the host's knobs: none may be set meanwhile */
	const char *lock_why = NULL;
	int knob_lock = sandbox_knobs_hold(sb, cfg ? cfg->timeout_ns : 0, &lock_why);
	if (knob_lock == -2) {
		result_set_outcome(r, OUTCOME_ERROR, "%s", lock_why);
		goto remove_dir;
	}
	struct runner_span sp = { 0 };
	struct runner_workload wl = { .w = w, .wopts = wopts, .env = &env };
	struct runner_job job = { .body = runner_workload_body, .arg = &wl, .what = "workload process",
				  .own_group = true };
	if (runner_span_begin(&sp, &job, sb, cfg, r) < 0)
		goto unlock_knobs;
	if (!sp.harness_failed)
		runner_classify(r, &sp.wt, cfg ? cfg->timeout_ns : 0, runner_span_oom_kills(&sp, sb) > 0);
	if (r->outcome == OUTCOME_OOM && sp.sandboxed)
		runner_oom_report(r, sb);
	runner_span_end(&sp, sb, cfg, r);
	const char *lock = knob_lock >= 0 ? "shared" : sandbox_sets_knobs(sb) ? "exclusive" : "none";
	result_info_set(r, "knob_lock", json_string(lock));
	ret = sp.harness_failed ? -1 : 0;
unlock_knobs:
	if (knob_lock >= 0)
		close(knob_lock);
remove_dir:
	scratch_remove(own_dir);
echo:
	free(own_dir);
	json_decref(r->options);
	r->options = opt_echo(w->opts, wopts);
	return ret;
}
