#include "harness/exec.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "core/util.h"
#include "harness/runner.h"

#define EXEC_SAMPLE_NS 20000000ull

/* The runner hook that samples the cgroup's swap usage every
 * EXEC_SAMPLE_NS while the command runs and keeps the highest. */
struct exec_peak {
	struct sandbox *sb;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop, running;
	uint64_t peak_bytes;
};

static void exec_peak_sample(struct exec_peak *p)
{
	uint64_t b = sandbox_swap_used_bytes(p->sb);
	if (b > p->peak_bytes)
		p->peak_bytes = b;
}

static void *exec_peak_thread(void *arg)
{
	struct exec_peak *p = arg;
	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		pthread_mutex_unlock(&p->lock);
		exec_peak_sample(p);
		uint64_t next = vmr_now_ns() + EXEC_SAMPLE_NS;
		struct timespec ts = { .tv_sec = (time_t)(next / 1000000000u), .tv_nsec = (long)(next % 1000000000u) };
		pthread_mutex_lock(&p->lock);
		while (!p->stop && pthread_cond_timedwait(&p->cond, &p->lock, &ts) != ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static void exec_peak_init(struct exec_peak *p, struct sandbox *sb)
{
	pthread_condattr_t ca;
	*p = (struct exec_peak){ .sb = sb };
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->cond, &ca);
	pthread_condattr_destroy(&ca);
}

static void exec_peak_destroy(struct exec_peak *p)
{
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
}

static int exec_peak_start(void *ctx, pid_t child, struct sandbox *sb)
{
	struct exec_peak *p = ctx;
	sigset_t all, old;
	/* signals go to the main thread, whose handler undoes the sandbox
	 * while nothing else of ours runs on */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(&p->thread, NULL, exec_peak_thread, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		errno = e;
		return -1;
	}
	pthread_setname_np(p->thread, "vmr-swappeak");
	p->running = true;
	return 0;
}

static void exec_peak_stop(void *ctx, struct result *r)
{
	struct exec_peak *p = ctx;
	if (!p->running)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	p->running = false;
}

/* How the command ended, from what the runner saw. */
static void exec_fill(struct exec_result *r, const struct runner_exit *x)
{
	const struct rusage *ru = &x->ru;
	r->user_s = (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6;
	r->system_s = (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
	r->elapsed_s = (double)x->elapsed_ns / 1e9;
	r->max_rss_kb = (uint64_t)ru->ru_maxrss;
	r->major_faults = (uint64_t)ru->ru_majflt;
	r->minor_faults = (uint64_t)ru->ru_minflt;
	r->voluntary_switches = (uint64_t)ru->ru_nvcsw;
	r->involuntary_switches = (uint64_t)ru->ru_nivcsw;
	r->oom_kills = x->oom_kills;
	snprintf(r->oom_gist, sizeof(r->oom_gist), "%s", x->oom_gist);
	if (x->timed_out) {
		r->outcome = EXEC_TIMEOUT;
	} else if (WIFEXITED(x->status)) {
		r->outcome = EXEC_EXITED;
		r->exit_status = WEXITSTATUS(x->status);
	} else if (WIFSIGNALED(x->status)) {
		r->signal = WTERMSIG(x->status);
		r->outcome = r->signal == SIGKILL && r->oom_kills ? EXEC_OOM : EXEC_SIGNALED;
	}
}

static uint64_t exec_metric(const struct result *res, const char *name)
{
	const struct metric *m = result_find_metric(res, name);
	return m ? (uint64_t)m->value : 0;
}

/* The sandbox's counters the runner kept, as the caller's own references;
 * unsandboxed, an empty object as sandbox_stats gives. */
static json_t *exec_info(const struct result *res, const char *key)
{
	json_t *v = json_object_get(res->info, key);
	return v ? json_incref(v) : json_object();
}

int exec_run(struct sandbox *sb, char *const argv[], uint64_t timeout_ns, struct exec_result *r)
{
	struct exec_peak peak;
	struct runner_exit x = { 0 };
	struct result res = { 0 };
	int rc = 0;
	*r = (struct exec_result){ 0 };
	exec_peak_init(&peak, sb);
	struct runner_hook hook = { .name = "the swap sampler", .start = exec_peak_start, .stop = exec_peak_stop,
				    .ctx = &peak };
	struct runner_cfg cfg = { .timeout_ns = timeout_ns, .hooks = &hook, .nhooks = 1 };
	if (runner_exec(argv, sb, &cfg, &x, &res) < 0) {
		snprintf(r->error, sizeof(r->error), "cannot run '%s': %s", argv[0], res.reason);
		rc = -2;
		goto free_result;
	}
	if (x.exec_errno) {
		snprintf(r->error, sizeof(r->error), "cannot run '%s': %s", argv[0], strerror(x.exec_errno));
		rc = -1;
		goto free_result;
	}
	if (x.status == -1 && !x.timed_out) {
		snprintf(r->error, sizeof(r->error), "cannot run '%s': lost its process", argv[0]);
		rc = -2;
		goto free_result;
	}
	exec_fill(r, &x);
	r->pswpin = exec_metric(&res, "vmstat-pswpin");
	r->pswpout = exec_metric(&res, "vmstat-pswpout");
	r->swap_peak_bytes = peak.peak_bytes;
	r->before = exec_info(&res, "sandbox_before");
	r->after = exec_info(&res, "sandbox_after");
	json_t *rep = json_object_get(res.info, "oom_report");
	r->oom_report = rep ? json_incref(rep) : NULL;
free_result:
	result_free(&res);
	exec_peak_destroy(&peak);
	return rc;
}

const char *exec_outcome_name(enum exec_outcome o)
{
	static const char *const names[] = { "exited", "signaled", "oom", "timeout" };
	return names[o];
}

void exec_result_free(struct exec_result *r)
{
	json_decref(r->before);
	json_decref(r->after);
	json_decref(r->oom_report);
	r->before = r->after = r->oom_report = NULL;
}
