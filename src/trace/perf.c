/* perf_event_open counters on a workload child, and perf record profiles. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/signals.h"
#include "core/util.h"
#include "trace/perf.h"

#define DTLB_READ_MISS                                                                 \
	(PERF_COUNT_HW_CACHE_DTLB | (PERF_COUNT_HW_CACHE_OP_READ << 8) |              \
	 (PERF_COUNT_HW_CACHE_RESULT_MISS << 16))

static const struct perf_counter_def {
	const char *name;      /* metric: "perf-" + name */
	const char *unit;
	uint32_t type;
	uint64_t config;
	const char *help;
} perf_defs[] = {
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "every page fault" },
	{ "major-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "faults that waited for I/O" },
	{ "minor-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, "faults served from memory" },
	{ "context-switches", "switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "" },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "" },
	{ "task-clock", "ns", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "CPU time" },
	{ "dtlb-read-misses", "misses", PERF_TYPE_HW_CACHE, DTLB_READ_MISS, "needs a hardware PMU" },
};
#define PERF_NCOUNTERS ARRAY_SIZE(perf_defs)

struct perf_counters {
	int fd[PERF_NCOUNTERS];
	int err[PERF_NCOUNTERS];
};

static int perf_open_one(const struct perf_counter_def *d, pid_t pid)
{
	struct perf_event_attr a = { 0 };
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = d->type;
	a.config = d->config;
	a.inherit = 1;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	long fd = syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

int perf_counters_open(struct perf_counters **out, pid_t pid, char **why)
{
	*why = NULL;
	if (access("/proc/sys/kernel/perf_event_paranoid", F_OK) < 0) {
		*why = xstrdup("the kernel has no perf events (no /proc/sys/kernel/perf_event_paranoid)");
		return -2;
	}
	struct perf_counters *pc = xcalloc(1, sizeof(*pc));
	size_t opened = 0;
	for (size_t i = 0; i < PERF_NCOUNTERS; i++) {
		int fd = perf_open_one(&perf_defs[i], pid);
		pc->fd[i] = fd < 0 ? -1 : fd;
		pc->err[i] = fd < 0 ? -fd : 0;
		opened += fd >= 0;
	}
	if (!opened) {
		*why = xasprintf("perf_event_open: %s", strerror(pc->err[0]));
		free(pc);
		return -2;
	}
	*out = pc;
	return 0;
}

static const char *perf_reason(int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		return "not supported by this machine (no hardware counter for it)";
	case EACCES:
	case EPERM:
		return "not permitted (perf_event_paranoid)";
	default:
		return strerror(err);
	}
}

void perf_counters_result(struct perf_counters *pc, struct result *r)
{
	json_t *unsup = json_object();
	for (size_t i = 0; i < PERF_NCOUNTERS; i++) {
		const struct perf_counter_def *d = &perf_defs[i];
		char *name = xasprintf("perf-%s", d->name);
		uint64_t v[3];
		if (pc->fd[i] < 0) {
			json_object_set_new(unsup, name, json_string(perf_reason(pc->err[i])));
		} else if (read(pc->fd[i], v, sizeof(v)) != (ssize_t)sizeof(v)) {
			json_object_set_new(unsup, name, json_string("the counter could not be read"));
		} else if (v[2] == 0 && v[1] != 0) {
			json_object_set_new(unsup, name, json_string("never scheduled onto the PMU"));
		} else {
			/* scale when multiplexed: count * enabled / running */
			double val = v[2] && v[2] < v[1] ? (double)v[0] * (double)v[1] / (double)v[2] : (double)v[0];
			result_metric(r, name, d->unit, BETTER_LOWER, COMBINE_AMEAN, val);
		}
		free(name);
	}
	if (json_object_size(unsup))
		result_info_set(r, "perf_unsupported", unsup);
	else
		json_decref(unsup);
}

void perf_counters_close(struct perf_counters *pc)
{
	if (!pc)
		return;
	for (size_t i = 0; i < PERF_NCOUNTERS; i++)
		if (pc->fd[i] >= 0)
			close(pc->fd[i]);
	free(pc);
}

/* ---- perf report parsing ---- */

int perf_parse_report_line(const char *line, size_t len, struct perf_sym *out)
{
	const char *p = line, *end = line + len;
	while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	while (p < end && *p == ' ')
		p++;
	if (p == end || !isdigit((unsigned char)*p))
		return -1;
	double pct = 0, scale = 0;
	for (; p < end && (isdigit((unsigned char)*p) || *p == '.'); p++) {
		if (*p == '.') {
			if (scale)
				return -1;
			scale = 1;
		} else if (scale) {
			pct += (*p - '0') * (scale /= 10);
		} else {
			pct = pct * 10 + (*p - '0');
		}
	}
	if (p == end || *p != '%' || pct > 100)
		return -1;
	p++;
	while (p < end && *p == ' ')
		p++;
	if (end - p < 4 || p[0] != '[' || p[2] != ']' || p[3] != ' ')
		return -1;
	out->kernel = p[1] == 'k';
	p += 4;
	while (p < end && *p == ' ')
		p++;
	size_t n = (size_t)(end - p);
	if (!n)
		return -1;
	if (n >= sizeof(out->sym))
		n = sizeof(out->sym) - 1;
	memcpy(out->sym, p, n);
	out->sym[n] = '\0';
	out->percent = pct;
	return 0;
}

/* ---- perf record ---- */

struct perf_profile {
	pid_t perf_pid;
	char *dir, *data, *ctl, *ack;
	int ctl_fd, ack_fd;
};

static char *perf_path(void)
{
	static const char *const dirs[] = { "/usr/bin/perf", "/usr/local/bin/perf", "/usr/sbin/perf" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (access(dirs[i], X_OK) == 0)
			return xstrdup(dirs[i]);
	return NULL;
}

const char *perf_profile_supported(void)
{
	char *p = perf_path();
	if (!p)
		return "perf is not installed (Debian package linux-perf)";
	free(p);
	if (access("/proc/sys/kernel/perf_event_paranoid", F_OK) < 0)
		return "the kernel has no perf events";
	return NULL;
}

static void profile_free(struct perf_profile *pp)
{
	if (pp->ctl_fd >= 0)
		close(pp->ctl_fd);
	if (pp->ack_fd >= 0)
		close(pp->ack_fd);
	unlink(pp->ctl);
	unlink(pp->ack);
	unlink(pp->data);
	char *old = xasprintf("%s.old", pp->data);
	unlink(old);
	free(old);
	rmdir(pp->dir);
	free(pp->dir);
	free(pp->data);
	free(pp->ctl);
	free(pp->ack);
	free(pp);
}

static pid_t profile_spawn(struct perf_profile *pp, pid_t pid, const char *perf)
{
	char pidbuf[24], ctl[4096];
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)pid);
	snprintf(ctl, sizeof(ctl), "fifo:%s,%s", pp->ctl, pp->ack);
	pid_t c = fork();
	if (c == 0) {
		signals_default();
		int devnull = open("/dev/null", O_RDWR);
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
		execl(perf, "perf", "record", "-q", "-D", "-1", "--control", ctl, "-g", "-e", "cpu-clock",
		      "-p", pidbuf, "-o", pp->data, (char *)NULL);
		_exit(127);
	}
	return c;
}

/* Wait for perf's "ack\n" to our "enable", with a deadline so a perf that
 * died before opening its fifos cannot hang the runner. */
static int profile_handshake(struct perf_profile *pp)
{
	uint64_t deadline = vmr_now_ns() + 10ull * 1000000000ull;
	while ((pp->ctl_fd = open(pp->ctl, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		if (errno != ENXIO || vmr_now_ns() > deadline || waitpid(pp->perf_pid, NULL, WNOHANG) != 0)
			return -1;
		usleep(5000);
	}
	if (write(pp->ctl_fd, "enable\n", 7) != 7)
		return -1;
	pp->ack_fd = open(pp->ack, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char buf[8];
	size_t got = 0;
	while (pp->ack_fd >= 0 && got < 4 && vmr_now_ns() < deadline) {
		ssize_t n = read(pp->ack_fd, buf + got, 4 - got);
		if (n > 0)
			got += (size_t)n;
		else
			usleep(2000);
	}
	return got == 4 && !memcmp(buf, "ack\n", 4) ? 0 : -1;
}

int perf_profile_start(struct perf_profile **out, pid_t pid, const char *dir, char **why)
{
	*why = NULL;
	char *perf = perf_path();
	if (!perf) {
		*why = xstrdup("perf is not installed");
		return -1;
	}
	struct perf_profile *pp = xcalloc(1, sizeof(*pp));
	pp->ctl_fd = pp->ack_fd = -1;
	pp->dir = xasprintf("%s/vmregress-perf-%d-XXXXXX", dir, (int)getpid());
	pp->data = xasprintf("%s/perf.data", pp->dir); /* filled after mkdtemp */
	if (!mkdtemp(pp->dir)) {
		*why = xasprintf("cannot create a directory in %s: %s", dir, strerror(errno));
		goto free_pp;
	}
	free(pp->data);
	pp->data = xasprintf("%s/perf.data", pp->dir);
	pp->ctl = xasprintf("%s/ctl", pp->dir);
	pp->ack = xasprintf("%s/ack", pp->dir);
	if (mkfifo(pp->ctl, 0600) < 0 || mkfifo(pp->ack, 0600) < 0) {
		*why = xasprintf("cannot create fifos in %s: %s", pp->dir, strerror(errno));
		goto free_pp;
	}
	pp->perf_pid = profile_spawn(pp, pid, perf);
	if (pp->perf_pid < 0 || profile_handshake(pp) < 0) {
		*why = xasprintf("perf record did not start on pid %d", (int)pid);
		goto kill_perf;
	}
	free(perf);
	*out = pp;
	return 0;
kill_perf:
	if (pp->perf_pid > 0) {
		kill(pp->perf_pid, SIGKILL);
		waitpid(pp->perf_pid, NULL, 0);
	}
free_pp:
	free(perf);
	profile_free(pp);
	return -1;
}

static json_t *profile_report(struct perf_profile *pp, size_t max, char **why)
{
	char *perf = perf_path();
	if (!perf) {
		*why = xstrdup("perf report: perf is not installed");
		return NULL;
	}
	char *cmd = xasprintf("'%s' report -i '%s' --stdio --sort sym --no-children -g none 2>/dev/null", perf,
			      pp->data);
	FILE *f = popen(cmd, "r");
	free(cmd);
	free(perf);
	if (!f) {
		*why = xasprintf("cannot run perf report: %s", strerror(errno));
		return NULL;
	}
	json_t *top = json_array();
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		struct perf_sym s = { 0 };
		if (json_array_size(top) < max && perf_parse_report_line(line, strlen(line), &s) == 0 && s.kernel)
			json_array_append_new(top, json_pack("{s:s,s:f}", "symbol", s.sym, "percent", s.percent));
	}
	if (pclose(f) != 0) {
		*why = xstrdup("perf report found no samples");
		json_decref(top);
		return NULL;
	}
	return top;
}

json_t *perf_profile_stop(struct perf_profile *pp, size_t max, char **why)
{
	char *ignored = NULL;
	why = why ? why : &ignored;
	*why = NULL;
	int status = 0;
	kill(pp->perf_pid, SIGINT);
	/* perf writes its data on SIGINT; give it time, then insist */
	for (int i = 0; i < 1000 && waitpid(pp->perf_pid, &status, WNOHANG) == 0; i++)
		usleep(10000);
	if (waitpid(pp->perf_pid, &status, WNOHANG) == 0) {
		kill(pp->perf_pid, SIGKILL);
		waitpid(pp->perf_pid, &status, 0);
	}
	json_t *top = profile_report(pp, max, why);
	free(ignored);
	profile_free(pp);
	return top;
}

/* ---- cleanup ---- */

static const char *perf_tmpdir(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}

/* Remove one profile directory of a dead process: only the files perf and
 * the profile made, then the directory (which fails if anything else is in
 * it, and then stays). */
static int perf_remove_dir(const char *dir)
{
	static const char *const files[] = { "perf.data", "perf.data.old", "ctl", "ack" };
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char *p = xasprintf("%s/%s", dir, files[i]);
		unlink(p);
		free(p);
	}
	return rmdir(dir) < 0 ? -errno : 0;
}

int perf_cleanup_report(json_t *actions)
{
	const char *tmp = perf_tmpdir();
	DIR *d = opendir(tmp);
	struct dirent *de;
	int rc = 0;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		static const char prefix[] = "vmregress-perf-";
		char *end;
		if (strncmp(de->d_name, prefix, sizeof(prefix) - 1))
			continue;
		long pid = strtol(de->d_name + sizeof(prefix) - 1, &end, 10);
		if (pid <= 0 || *end != '-' || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char *path = xasprintf("%s/%s", tmp, de->d_name);
		int e = perf_remove_dir(path);
		json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:i}", "action", e ? "failed" : "removed", "what",
				      "profile directory", "path", path, "from", "orphan", "owner_pid", (int)pid);
		if (e) {
			json_object_set_new(o, "error", json_string(strerror(-e)));
			rc = -1;
		}
		json_array_append_new(actions, o);
		free(path);
	}
	closedir(d);
	return rc;
}
