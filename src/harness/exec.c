#include "harness/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/compat.h"
#include "core/signals.h"
#include "core/util.h"
#include "probe/probe.h"
#include "probe/vmstat.h"

#define EXEC_SAMPLE_MS 20

static void exec_vmstat(uint64_t *in, uint64_t *out)
{
	struct vmstat vs = { 0 };
	char err[PROBE_ERR_MAX] = "";
	*in = *out = 0;
	vmstat_init(&vs);
	if (vmstat_read(&vs, NULL, err) == 0) {
		vmstat_get(&vs, "pswpin", in);
		vmstat_get(&vs, "pswpout", out);
	}
	vmstat_free(&vs);
}

static uint64_t exec_swap_now(const struct sandbox *sb)
{
	json_t *s = sandbox_stats(sb);
	json_t *v = json_object_get(s, "swap_bytes");
	uint64_t b = json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
	json_decref(s);
	return b;
}

/* The child: wait until the parent has moved it into the cgroup, then exec.
 * A failed exec sends errno back through the close-on-exec pipe. */
static void exec_child(int go, int err, char *const argv[])
{
	char c;
	signals_default();
	if (read(go, &c, 1) != 1)
		_exit(127);
	execvp(argv[0], argv);
	int e = errno;
	ssize_t w = write(err, &e, sizeof(e));
	(void)w;
	_exit(127);
}

/* Wait for the child, sampling the cgroup's swap; kill on timeout. */
static int exec_wait(struct sandbox *sb, pid_t pid, uint64_t t0, uint64_t timeout_ns, struct exec_result *r,
		     int *status, struct rusage *ru)
{
	int pfd = compat_pidfd_open(pid);
	bool timed_out = false;
	for (;;) {
		pid_t w = wait4(pid, status, WNOHANG, ru);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			vmr_errno("cannot wait for process %d", (int)pid);
			if (pfd >= 0)
				close(pfd);
			return -1;
		}
		uint64_t sw = exec_swap_now(sb);
		if (sw > r->swap_peak_bytes)
			r->swap_peak_bytes = sw;
		if (!timed_out && timeout_ns && vmr_now_ns() - t0 > timeout_ns) {
			timed_out = true;
			sandbox_kill_all(sb);
			kill(pid, SIGKILL);
		}
		if (pfd >= 0) {
			struct pollfd p = { .fd = pfd, .events = POLLIN };
			poll(&p, 1, EXEC_SAMPLE_MS);
		} else {
			usleep(EXEC_SAMPLE_MS * 1000);
		}
	}
	if (pfd >= 0)
		close(pfd);
	if (timed_out)
		r->outcome = EXEC_TIMEOUT;
	return 0;
}

static void exec_fill(struct exec_result *r, int status, const struct rusage *ru)
{
	r->user_s = (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6;
	r->system_s = (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
	r->max_rss_kb = (uint64_t)ru->ru_maxrss;
	r->major_faults = (uint64_t)ru->ru_majflt;
	r->minor_faults = (uint64_t)ru->ru_minflt;
	r->voluntary_switches = (uint64_t)ru->ru_nvcsw;
	r->involuntary_switches = (uint64_t)ru->ru_nivcsw;
	if (r->outcome == EXEC_TIMEOUT)
		return;
	if (WIFEXITED(status)) {
		r->outcome = EXEC_EXITED;
		r->exit_status = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		r->signal = WTERMSIG(status);
		r->outcome = r->signal == SIGKILL && r->oom_kills ? EXEC_OOM : EXEC_SIGNALED;
	}
}

int exec_run(struct sandbox *sb, char *const argv[], uint64_t timeout_ns, struct exec_result *r)
{
	int go[2], err[2], rc = -2;
	memset(r, 0, sizeof(*r));
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		vmr_errno("cannot make a pipe");
		return -2;
	}
	uint64_t in0, out0, in1, out1, oom0 = sandbox_oom_kills(sb);
	r->before = sandbox_stats(sb);
	sandbox_oom_watch(sb);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		vmr_errno("cannot fork");
		goto close_pipes;
	}
	if (pid == 0) {
		close(go[1]);
		close(err[0]);
		exec_child(go[0], err[1], argv);
	}
	close(go[0]);
	go[0] = -1;
	close(err[1]);
	err[1] = -1;
	if (sandbox_attach(sb, pid) < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto close_pipes;
	}
	exec_vmstat(&in0, &out0);
	uint64_t t0 = vmr_now_ns();
	if (write(go[1], "g", 1) != 1) {
		vmr_errno("cannot start the command");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto close_pipes;
	}
	int status = 0, e = 0;
	struct rusage ru = { 0 };
	memset(&ru, 0, sizeof(ru));
	if (exec_wait(sb, pid, t0, timeout_ns, r, &status, &ru) < 0)
		goto close_pipes;
	r->elapsed_s = (double)(vmr_now_ns() - t0) / 1e9;
	exec_vmstat(&in1, &out1);
	r->pswpin = in1 - in0;
	r->pswpout = out1 - out0;
	r->oom_kills = sandbox_oom_kills(sb) - oom0;
	r->after = sandbox_stats(sb);
	if (r->oom_kills)
		r->oom_report = sandbox_oom_report(sb, r->oom_gist, sizeof(r->oom_gist));
	if (read(err[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		vmr_err("cannot run '%s': %s", argv[0], strerror(e));
		rc = -1;
		goto close_pipes;
	}
	exec_fill(r, status, &ru);
	rc = 0;
close_pipes:
	sandbox_oom_unwatch(sb);
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
	return rc;
}

const char *exec_outcome_name(enum exec_outcome o)
{
	static const char *const names[] = { "exited", "signaled", "oom", "timeout" };
	return names[o];
}

json_t *exec_result_json(const struct exec_result *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "outcome", json_string(exec_outcome_name(r->outcome)));
	if (r->outcome == EXEC_EXITED)
		json_object_set_new(o, "exit_status", json_integer(r->exit_status));
	if (r->signal)
		json_object_set_new(o, "signal", json_integer(r->signal));
	double cpu = r->elapsed_s > 0 ? 100.0 * (r->user_s + r->system_s) / r->elapsed_s : 0;
	json_object_set_new(o, "user_s", json_real(r->user_s));
	json_object_set_new(o, "system_s", json_real(r->system_s));
	json_object_set_new(o, "elapsed_s", json_real(r->elapsed_s));
	json_object_set_new(o, "cpu_percent", json_real(cpu));
	json_object_set_new(o, "max_rss_kb", json_integer((json_int_t)r->max_rss_kb));
	json_object_set_new(o, "major_faults", json_integer((json_int_t)r->major_faults));
	json_object_set_new(o, "minor_faults", json_integer((json_int_t)r->minor_faults));
	json_object_set_new(o, "voluntary_switches", json_integer((json_int_t)r->voluntary_switches));
	json_object_set_new(o, "involuntary_switches", json_integer((json_int_t)r->involuntary_switches));
	json_object_set_new(o, "pswpin", json_integer((json_int_t)r->pswpin));
	json_object_set_new(o, "pswpout", json_integer((json_int_t)r->pswpout));
	json_object_set_new(o, "swap_peak_bytes", json_integer((json_int_t)r->swap_peak_bytes));
	json_object_set_new(o, "oom_kills", json_integer((json_int_t)r->oom_kills));
	if (r->oom_report)
		json_object_set_new(o, "oom_report", json_incref(r->oom_report));
	return o;
}

void exec_result_free(struct exec_result *r)
{
	json_decref(r->before);
	json_decref(r->after);
	json_decref(r->oom_report);
	r->before = r->after = r->oom_report = NULL;
}
