/* The trace hook against the real kernel: a child reads a file four times
 * the size of a memory cgroup's limit, so its page cache is reclaimed by
 * memcg reclaim in the child's own context.  The traced stalls and pages are
 * checked against the kernel's own counters, and every tracing setting is
 * compared before and after (also after kill -9 and trace_cleanup).
 *
 * Runs as root with the cgroup v1 memory controller; SKIPs otherwise.  The
 * cgroup (vmregress-test-<pid>) and the file are removed even on failure. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/trace_hook.h"
#include "core/util.h"
#include "t.h"

#define V1_MEMCG "/sys/fs/cgroup/memory"
#define LIMIT_BYTES (16ull << 20)
#define FILE_BYTES (64ull << 20)

static char cg[256], file[256];

static uint64_t vmstat(const char *name)
{
	char *buf;
	uint64_t v = 0;
	if (vmr_read_file("/proc/vmstat", &buf, NULL) < 0)
		return 0;
	size_t n = strlen(name);
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, name, n) && l[n] == ' ')
			v = strtoull(l + n + 1, NULL, 10);
	free(buf);
	return v;
}

static uint64_t cg_u64(const char *knob)
{
	char *p = xasprintf("%s/%s", cg, knob);
	uint64_t v = 0;
	vmr_read_u64(p, &v);
	free(p);
	return v;
}

static int make_file(void)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/var/tmp";
	snprintf(file, sizeof(file), "%s/vmregress-test-trace-%d", dir, (int)getpid());
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	static char chunk[1 << 20];
	memset(chunk, 0x5a, sizeof(chunk));
	for (uint64_t off = 0; off < FILE_BYTES; off += sizeof(chunk))
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk)) {
			close(fd);
			return -1;
		}
	fsync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return 0;
}

/* The workload: wait for the go byte, read the file through. */
static void child_main(int go_fd)
{
	char c, buf[1 << 16];
	if (read(go_fd, &c, 1) != 1)
		_exit(2);
	int fd = open(file, O_RDONLY);
	if (fd < 0)
		_exit(3);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	_exit(0);
}

/* Run the child in the cgroup with the hooks of cfg around it. */
static int run_case(const struct trace_cfg *cfg, struct result *r, uint64_t vm[4], uint64_t *failcnt)
{
	int go[2];
	if (pipe(go) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(go[1]);
		child_main(go[0]);
	}
	close(go[0]);
	char *procs = xasprintf("%s/cgroup.procs", cg), num[24];
	snprintf(num, sizeof(num), "%d", (int)pid);
	int rc = vmr_write_file(procs, num);
	free(procs);
	struct trace_hooks *th = trace_hooks_new(cfg);
	size_t nh;
	struct runner_hook *h = trace_hooks_list(th, &nh);
	result_init(r, "trace-live");
	for (size_t i = 0; i < nh; i++)
		h[i].start(h[i].ctx, pid, NULL);
	uint64_t steal0 = vmstat("pgsteal_anon") + vmstat("pgsteal_file"), stall0 = vmstat("allocstall_normal") +
		vmstat("allocstall_movable") + vmstat("allocstall_dma32") + vmstat("allocstall_dma"),
		scan0 = vmstat("pgscan_anon") + vmstat("pgscan_file"), fail0 = cg_u64("memory.failcnt");
	if (write(go[1], "g", 1) != 1)
		rc = -1;
	close(go[1]);
	int status;
	waitpid(pid, &status, 0);
	vm[0] = vmstat("pgsteal_anon") + vmstat("pgsteal_file") - steal0;
	vm[1] = vmstat("allocstall_normal") + vmstat("allocstall_movable") + vmstat("allocstall_dma32") +
		vmstat("allocstall_dma") - stall0;
	vm[2] = vmstat("pgscan_anon") + vmstat("pgscan_file") - scan0;
	*failcnt = cg_u64("memory.failcnt") - fail0;
	for (size_t i = 0; i < nh; i++)
		h[i].stop(h[i].ctx, r);
	trace_hooks_free(th);
	return rc < 0 || !WIFEXITED(status) || WEXITSTATUS(status) ? -1 : 0;
}

static double metric(const struct result *r, const char *name)
{
	const struct metric *m = result_find_metric(r, name);
	return m ? m->value : -1;
}

static void check_reclaim(const char *before)
{
	struct trace_cfg cfg = { .trace = TRACE_WHAT_RECLAIM };
	struct result r = { 0 };
	uint64_t vm[4] = { 0 }, failcnt = 0;
	CHECK(run_case(&cfg, &r, vm, &failcnt) == 0, "reclaim: child read the file in the cgroup");
	double stalls = metric(&r, "memcg-reclaim-stalls"), reclaimed = metric(&r, "reclaim-reclaimed-pages");
	double scanned = metric(&r, "reclaim-scanned-pages"), dstalls = metric(&r, "direct-reclaim-stalls");
	double per_stall = metric(&r, "reclaim-reclaimed-per-stall");
	double pages = (double)(FILE_BYTES - LIMIT_BYTES) / (double)vmr_page_size();
	printf("# memcg stalls %.0f (failcnt %llu), reclaimed %.0f scanned %.0f (host pgsteal %llu pgscan %llu), "
	       "direct stalls %.0f (host allocstall %llu), dropped %.0f\n", stalls, (unsigned long long)failcnt,
	       reclaimed, scanned, (unsigned long long)vm[0], (unsigned long long)vm[2], dstalls,
	       (unsigned long long)vm[1], metric(&r, "trace-dropped-events"));
	CHECK(metric(&r, "trace-dropped-events") == 0, "reclaim: no events dropped");
	CHECK(stalls > 0, "reclaim: reading 4x the limit stalled in memcg reclaim");
	/* Every memcg reclaim follows a failed charge, which counts in
	 * failcnt; a failed charge of a batch retries without reclaiming, so
	 * failcnt may exceed the stalls but never the other way round. */
	CHECK(stalls <= (double)failcnt, "reclaim: stalls <= the cgroup's failcnt delta");
	/* The page cache beyond the limit can only leave the cgroup by
	 * reclaim while the child runs, and all of it in the child's memcg
	 * reclaim: the traced reclaimed pages cover it (10% slack for pages
	 * still in flight at the limit)... */
	CHECK(reclaimed >= 0.9 * pages, "reclaim: traced reclaimed pages cover the file beyond the limit");
	/* ...and are part of what the host counted as stolen (pgsteal counts
	 * every reclaimer on the host, so it can only be larger). */
	CHECK(reclaimed <= (double)vm[0], "reclaim: traced reclaimed <= host pgsteal delta");
	CHECK(scanned >= reclaimed && scanned <= (double)vm[2], "reclaim: reclaimed <= scanned <= host pgscan delta");
	/* Global direct reclaim counts allocstall for each entry; ours are a
	 * subset of the host's. */
	CHECK(dstalls >= 0 && dstalls <= (double)vm[1], "reclaim: direct stalls <= host allocstall delta");
	CHECK(per_stall > 0, "reclaim: reclaimed per stall is positive");
	const struct named_hist *h = result_find_hist(&r, "memcg-reclaim-stall");
	CHECK(h && h->h->count == (uint64_t)stalls, "reclaim: stall histogram holds every stall");
	bool series = false;
	for (size_t i = 0; i < r.nseries; i++)
		if (!strcmp(r.series[i].name, "memcg-reclaim-stalls"))
			series = r.series[i].n == (size_t)stalls && r.series[i].t[0] >= 0 && r.series[i].t[0] < 60;
	CHECK(series, "reclaim: stall timeline has one point per stall, in the case's time");
	char *after = trace_settings_snapshot();
	CHECK(after && !strcmp(before, after), "reclaim: tracing settings as before");
	free(after);
	result_free(&r);
}

static void check_all(void)
{
	struct trace_cfg cfg = { .trace = TRACE_WHAT_ALL };
	struct result r = { 0 };
	uint64_t vm[4] = { 0 }, failcnt = 0;
	CHECK(run_case(&cfg, &r, vm, &failcnt) == 0, "all: child read the file in the cgroup");
	double pages = (double)FILE_BYTES / (double)vmr_page_size();
	double adds = metric(&r, "filemap-added-pages");
	printf("# filemap added %.0f of %.0f pages, deleted %.0f\n", adds, pages, metric(&r, "filemap-deleted-pages"));
	/* Every page of the uncached file entered the page cache at least
	 * once; under the limit, readahead pages reclaimed before they were
	 * read enter again, so there is no upper bound. */
	CHECK(adds >= 0.99 * pages, "all: page-cache adds cover the file's pages");
	CHECK(metric(&r, "filemap-deleted-pages") > 0, "all: page-cache deletions counted (the limit evicts)");
	CHECK(metric(&r, "compaction-runs") >= 0, "all: compaction metrics present");
	result_free(&r);
}

/* perf counters on the child, and a perf record profile of it. */
static void check_profile(void)
{
	struct trace_cfg cfg = { .profile = true };
	struct result r = { 0 };
	uint64_t vm[4] = { 0 }, failcnt = 0;
	CHECK(run_case(&cfg, &r, vm, &failcnt) == 0, "profile: child read the file in the cgroup");
	json_t *unsup = json_object_get(r.info, "perf_unsupported");
	json_t *skipped = json_object_get(r.info, "profile_skipped");
	double faults = metric(&r, "perf-page-faults"), minor = metric(&r, "perf-minor-faults");
	double major = metric(&r, "perf-major-faults");
	char *un = unsup ? json_dumps(unsup, JSON_COMPACT) : NULL;
	json_t *top = json_object_get(r.info, "profile_top_kernel_symbols");
	printf("# perf faults %.0f (minor %.0f major %.0f), context switches %.0f, unsupported: %s, top: %s\n",
	       faults, minor, major, metric(&r, "perf-context-switches"), un ? un : "none",
	       json_string_value(json_object_get(json_array_get(top, 0), "symbol")));
	free(un);
	CHECK(faults > 0 && minor >= 0 && major >= 0 && faults == minor + major,
	      "profile: page faults counted on the child, minor + major");
	/* A counter this CPU or kernel lacks is a SKIP with the reason given,
	 * not a pass; one neither counted nor explained is a failure. */
	const char *dtlb_why = json_string_value(json_object_get(unsup, "perf-dtlb-read-misses"));
	if (metric(&r, "perf-dtlb-read-misses") >= 0)
		CHECK(1, "profile: dTLB misses counted");
	else if (dtlb_why)
		SKIP_WHY("profile: dTLB misses counted", "%s", dtlb_why);
	else
		CHECK(0, "profile: dTLB misses counted, or said to be unsupported with a reason");
	const char *profile_why = json_string_value(json_object_get(skipped, "profile"));
	if (profile_why)
		SKIP_WHY("profile: top kernel symbols recorded", "perf record: %s", profile_why);
	else if (json_object_get(skipped, "profile"))
		CHECK(0, "profile: perf record skipped with a reason");
	else
		CHECK(json_array_size(top) > 0 && json_is_string(json_object_get(json_array_get(top, 0), "symbol")),
		      "profile: top kernel symbols recorded");
	result_free(&r);
}

/* A process killed with tracing on leaves its instance; cleanup removes it
 * and only it. */
static void check_kill9(const char *before)
{
	int ready[2];
	if (pipe(ready) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		struct trace_session *ts;
		char *why;
		struct trace_stats st = { 0 };
		trace_stats_init(&st);
		pid_t self = getpid();
		if (trace_session_open(&ts, TRACE_ALL, &why) == 0 && trace_session_start(ts, &self, 1, &st, &why) == 0)
			(void)!write(ready[1], "r", 1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	char c;
	bool started = read(ready[0], &c, 1) == 1;
	close(ready[0]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CHECK(started, "kill -9: the victim was tracing");
	char *mid = trace_settings_snapshot();
	char *name = xasprintf("instance: vmregress-%d-", (int)pid);
	CHECK(mid && strstr(mid, name), "kill -9: its instance is left behind");
	json_t *actions = json_array();
	int rc = trace_cleanup_report(actions);
	bool removed = false;
	size_t i;
	json_t *a;
	json_array_foreach(actions, i, a)
		removed |= json_integer_value(json_object_get(a, "owner_pid")) == pid &&
			   !strcmp(json_string_value(json_object_get(a, "action")), "removed");
	CHECK(rc == 0 && removed, "kill -9: cleanup removed its instance");
	json_decref(actions);
	char *after = trace_settings_snapshot();
	CHECK(after && !strcmp(before, after), "kill -9: after cleanup tracing settings are as before");
	free(name);
	free(mid);
	free(after);
}

int main(void)
{
	if (!vmr_is_root() || access(V1_MEMCG "/memory.limit_in_bytes", W_OK) < 0) {
		SKIP_WHY("live tracing", "needs root and the cgroup v1 memory controller");
		T_DONE();
	}
	char *before = trace_settings_snapshot();
	if (!before) {
		SKIP_WHY("live tracing", "tracefs cannot be reached here");
		T_DONE();
	}
	snprintf(cg, sizeof(cg), V1_MEMCG "/vmregress-test-%d", (int)getpid());
	if (mkdir(cg, 0755) < 0) {
		CHECK(0, "create test cgroup %s: %s", cg, strerror(errno));
		goto free_before;
	}
	char *lim = xasprintf("%s/memory.limit_in_bytes", cg), val[32];
	snprintf(val, sizeof(val), "%llu", (unsigned long long)LIMIT_BYTES);
	int rc = vmr_write_file(lim, val);
	free(lim);
	if (rc < 0 || make_file() < 0) {
		CHECK(0, "set up the cgroup limit and the file");
		goto rm_file;
	}
	check_reclaim(before);
	check_all();
	check_profile();
	check_kill9(before);
rm_file:
	unlink(file);
	/* the cgroup is empty once the child exited; page cache is reparented */
	if (rmdir(cg) < 0)
		CHECK(0, "remove test cgroup %s: %s", cg, strerror(errno));
free_before:
	free(before);
	T_DONE();
}
