/* Running an external program inside a sandbox and measuring it as
 * /usr/bin/time -v does, plus the sandbox's swap traffic: the runner's
 * runner_exec with one hook, a thread sampling the cgroup's swap usage for
 * its peak.  Measurement only: formatting and printing are the caller's. */
#ifndef VMR_EXEC_H
#define VMR_EXEC_H

#include <jansson.h>
#include <stdint.h>

#include "sandbox/sandbox.h"

enum exec_outcome { EXEC_EXITED, EXEC_SIGNALED, EXEC_OOM, EXEC_TIMEOUT };

struct exec_result {
	enum exec_outcome outcome;
	int exit_status;            /* EXEC_EXITED */
	int signal;                 /* EXEC_SIGNALED, EXEC_OOM */
	double user_s, system_s, elapsed_s;
	uint64_t max_rss_kb, major_faults, minor_faults;
	uint64_t voluntary_switches, involuntary_switches;
	uint64_t pswpin, pswpout;   /* /proc/vmstat deltas, pages */
	uint64_t swap_peak_bytes;   /* the cgroup's swap usage, highest sampled */
	uint64_t oom_kills;         /* in the cgroup, during the run */
	json_t *oom_report;         /* the kernel's report of the first kill, or NULL */
	char oom_gist[400];         /* its gist in one line, "" */
	json_t *before, *after;     /* sandbox_stats */
	char error[400];            /* why exec_run returned -1 or -2 */
};

/* Fork, move the child into sb before it runs anything, exec argv, wait with
 * a watchdog of timeout_ns (0: none).  Returns 0 when the program ran
 * (whatever its outcome); -1 when it could not be executed (bad command:
 * exit 2) or -2 when it could not be started here (exit 3), with r->error
 * saying why ("cannot run 'CMD': REASON"); nothing is printed. */
int exec_run(struct sandbox *sb, char *const argv[], uint64_t timeout_ns, struct exec_result *r);
/* The outcome's name: "exited", "signaled", "oom", "timeout". */
const char *exec_outcome_name(enum exec_outcome o);
void exec_result_free(struct exec_result *r);

#endif
