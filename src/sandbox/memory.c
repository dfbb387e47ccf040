/* The sandbox's memory between and after a workload's runs: the watch on
 * the kernel's OOM reports for its cgroup, and the reset an iteration may
 * start from (--reset-between). */
#include "sandbox/sandbox.h"

#include <stdio.h>
#include <string.h>

#include "sandbox/cgroup.h"
#include "sandbox/oomlog.h"
#include "sandbox/sandbox_int.h"
#include "sandbox/swap.h"

void sandbox_oom_watch(struct sandbox *sb)
{
	if (!sandbox_active(sb))
		return;
	oomlog_close(&sb->oom_log);
	oomlog_open(&sb->oom_log);
}

json_t *sandbox_oom_report(struct sandbox *sb, char *gist, size_t len)
{
	gist[0] = '\0';
	if (!sandbox_active(sb))
		return json_pack("{ss}", "error", "no sandbox");
	json_t *rep = oomlog_collect(&sb->oom_log, sb->cg_path);
	oomlog_close(&sb->oom_log);
	oomlog_summary(rep, gist, len);
	return rep;
}

void sandbox_oom_unwatch(struct sandbox *sb)
{
	if (sb)
		oomlog_close(&sb->oom_log);
}

int sandbox_reset(struct sandbox *sb, char *done, size_t len)
{
	snprintf(done, len, "nothing: not sandboxed");
	if (!sandbox_active(sb))
		return 0;
	int e = cgroup_empty(sb->cg.version, sb->cg_path);
	int n = e < 0 ? snprintf(done, len, "memory not emptied: %s", strerror(-e))
		      : snprintf(done, len, "memory emptied");
	size_t at = n < 0 || (size_t)n >= len ? len - 1 : (size_t)n;
	if (!sb->swap_dev[0])
		return 0;
	sb_enter();  /* the swap's journal record says "on": a signal waits until it is again */
	int rc = 0;
	if ((e = swap_off(sb->swap_dev)) < 0) {
		snprintf(done + at, len - at, ", swap kept: swapoff %s: %s", sb->swap_dev, strerror(-e));
	} else if ((e = swap_on(sb->swap_dev)) < 0) {
		snprintf(done + at, len - at, ", swap left off: cannot enable swap on %s again: %s", sb->swap_dev,
			 strerror(-e));
		rc = -2;
	} else {
		snprintf(done + at, len - at, ", swap off and on");
	}
	sb_leave();
	return rc;
}
