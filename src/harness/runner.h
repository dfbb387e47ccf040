/* The runner: one workload iteration in a forked child inside the sandbox.
 *
 * Parent: fork; the child waits on a pipe until the parent has attached it to
 * the sandbox's cgroup, then runs setup/run/teardown and writes its result
 * as JSON to a pipe.  The parent starts the hooks (monitors, latency probe,
 * tracing), waits with a watchdog, and adds rusage (the fields of
 * /usr/bin/time -v), /proc/vmstat deltas and the sandbox's counters to the
 * result.  A child killed by the OOM killer inside the sandbox is
 * OUTCOME_OOM, a timeout is OUTCOME_ERROR, a crash is OUTCOME_ERROR naming
 * the signal.  When the child sent no result (killed, timed out, lost), the
 * result holds only what the parent measured and its info has
 * "workload_result": false, so that formatters do not look for the
 * workload's own figures.  runner_exec runs an external command the same
 * way, for `sandbox exec`. */
#ifndef VMR_RUNNER_H
#define VMR_RUNNER_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "core/result.h"
#include "sandbox/sandbox.h"
#include "workload/workload.h"

/* Something that runs beside a workload: a monitor, the latency probe, a
 * tracer.  start() is called after the child is in the sandbox and before
 * it runs, and returns 0, or -1 with errno set, which makes the iteration an
 * error "cannot start NAME: REASON" (a hook never prints); stop() after it
 * exited, and adds what it gathered to the result. */
struct runner_hook {
	const char *name;
	int (*start)(void *ctx, pid_t child, struct sandbox *sb);
	void (*stop)(void *ctx, struct result *r);
	void *ctx;
};

struct runner_cfg {
	uint64_t timeout_ns;          /* watchdog; 0 = none */
	const char *workdir;          /* for workload files; NULL = a temp dir */
	struct runner_hook *hooks;
	size_t nhooks;
	bool force;                   /* sandbox --force, passed to the workload */
};

/* Run one iteration.  Always fills r (result_init is done here); returns 0
 * when the workload ran (whatever its outcome), -1 when the harness itself
 * could not run it (r says why). */
int runner_run(const struct workload *w, const void *wopts, struct sandbox *sb,
	       const struct runner_cfg *cfg, struct result *r);

/* How a command run by runner_exec ended. */
struct runner_exit {
	int status;              /* wait4's; -1 when the process was lost */
	bool timed_out;          /* the watchdog killed it */
	int exec_errno;          /* it could not be executed: execvp's errno; else 0 */
	uint64_t oom_kills;      /* in the sandbox (on the host: all) while it ran */
	char oom_gist[400];      /* the kernel's report of the first, in one line, or "" */
	uint64_t elapsed_ns;     /* from the go to its exit */
	struct rusage ru;        /* its own and its waited-for children's */
};

/* Run a command (execvp of argv) as runner_run runs a workload: forked,
 * moved into sb before it runs, cfg's hooks started before it and stopped
 * after, the watchdog of cfg->timeout_ns, the signal handler killing it
 * before it undoes the sandbox.  It keeps the caller's process group (a
 * command on a terminal stays in the foreground), and its standard streams.
 * r (result_init is done here) gets the rusage and vmstat-* metrics, what
 * the hooks add, info "sandbox", "sandbox_before", "sandbox_after", and
 * "oom_report" when the sandbox saw an OOM kill; how the command ended is
 * in x.  Returns 0 when it was started (an exec that failed is x->exec_errno),
 * -1 when the harness could not start it (r's reason says why; nothing is
 * printed). */
int runner_exec(char *const argv[], struct sandbox *sb, const struct runner_cfg *cfg, struct runner_exit *x,
		struct result *r);

#endif
