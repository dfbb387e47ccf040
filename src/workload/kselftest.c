/* kselftest: the kernel's own mm selftests (tools/testing/selftests/mm and
 * cgroup), built from a kernel source tree by `vmregress kselftest build`,
 * run inside the sandbox.  Each test's KTAP output is read as it comes, so
 * every case is stored with its status, its reason and its time; a failed
 * test keeps its own output.  VM Regress's test modules asked "does the
 * fault path still do what it should": these are today's answer, written by
 * the people who wrote the code they test.
 *
 * A test that changes the whole machine (a hugetlb pool, compaction of all
 * memory, NUMA migration, cgroup v2 or zswap) runs only with --guest, in a
 * disposable guest (the kselftest-mm-guest suite in the matrix); on the host
 * it is a skip with that reason.  The knobs the others may change (THP and
 * khugepaged settings) are held by the sandbox, which puts them back.
 * --source matched runs the running kernel's own version's selftests, else
 * the nearest (core/kversion.h), and says which in the result. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "core/cache.h"
#include "core/kversion.h"
#include "core/signals.h"
#include "core/util.h"
#include "probe/ktap.h"
#include "workload/workload.h"

/* --source: the running kernel's own version's selftests, else the nearest */
#define KS_MATCHED "matched"

struct ks_opts {
	char *tests;
	char *source;
	uint64_t timeout_ns;
	uint64_t output_max;
	bool guest;
};

#define KS_SAFE_TESTS "madv_populate,mremap_test,pagemap_ioctl,cow,mkdirty,soft-dirty,map_populate," \
	"mlock2-tests,mremap_dontunmap,map_fixed_noreplace,uffd-unit-tests,split_huge_page_test,"       \
	"transhuge-stress -d 5,droppable,mseal_test,gup_longterm"

static const struct opt ks_opts[] = {
	{ .name = "tests", .type = OPT_STR, .off = offsetof(struct ks_opts, tests), .def = KS_SAFE_TESTS,
	  .metavar = "LIST", .help = "the selftests to run, comma-separated, each with its arguments after "
	  "a space (\"transhuge-stress -d 5\"); mm's tests by name, cgroup's as cgroup/NAME" },
	{ .name = "source", .type = OPT_STR, .off = offsetof(struct ks_opts, source), .def = "6.12",
	  .metavar = "6.12|6.1|matched|DIR", .help = "whose selftests: a Debian linux-source version built by "
	  "`vmregress kselftest build`; matched, the running kernel's own version's, else the nearest older "
	  "built (the nearest newer when none is older); or a directory holding mm/ and cgroup/ of built tests" },
	{ .name = "timeout", .type = OPT_TIME, .off = offsetof(struct ks_opts, timeout_ns), .def = "3m",
	  .min = 1e9, .max = 3600e9, .metavar = "TIME", .help = "kill a test that runs longer (its cases "
	  "left are a failure)" },
	{ .name = "output-max", .type = OPT_SIZE, .off = offsetof(struct ks_opts, output_max), .def = "64K",
	  .min = 1024, .max = 16 << 20, .metavar = "SIZE", .help = "keep at most the last SIZE of a failed "
	  "test's output" },
	{ .name = "guest", .type = OPT_FLAG, .off = offsetof(struct ks_opts, guest),
	  .help = "this machine is a disposable guest: also run the tests that change the whole machine "
	  "(hugetlb pools, compaction, migration, cgroup v2, zswap)" },
	OPT_END,
};

enum { KS_PASS, KS_FAIL, KS_SKIP, KS_XFAIL, KS_TESTS };

static const struct metric_def ks_metrics[] = {
	[KS_PASS] = { "cases-pass", "cases", BETTER_HIGHER, COMBINE_AMEAN, "test cases that passed" },
	[KS_FAIL] = { "cases-fail", "cases", BETTER_LOWER, COMBINE_AMEAN,
		      "test cases that failed or broke (not ok, error, a timeout, a crash)" },
	[KS_SKIP] = { "cases-skip", "cases", BETTER_NONE, COMBINE_AMEAN, "test cases skipped" },
	[KS_XFAIL] = { "cases-xfail", "cases", BETTER_NONE, COMBINE_AMEAN,
		       "test cases whose failure the test expected (XFAIL)" },
	[KS_TESTS] = { "tests-run", "tests", BETTER_NONE, COMBINE_AMEAN, "selftest programs started" },
	{ .name = NULL },
};

/* What a test needs that a machine may not have: a skip saying so. */
static const struct { const char *test, *path, *why; } ks_needs[] = {
	{ "split_huge_page_test", "/sys/kernel/debug/split_huge_pages", "debugfs at /sys/kernel/debug" },
	{ "gup_test", "/sys/kernel/debug/gup_test", "debugfs's gup_test (CONFIG_GUP_TEST)" },
};

/* Tests that change the whole machine, not only the sandbox: --guest only. */
static const struct { const char *test, *why; } ks_host_wide[] = {
	{ "compaction_test", "compacts all of memory and sets nr_hugepages" },
	{ "hugepage-mmap", "needs a hugetlb pool" },
	{ "hugepage-shm", "needs a hugetlb pool" },
	{ "hugepage-mremap", "needs a hugetlb pool" },
	{ "hugepage-vmemmap", "needs a hugetlb pool" },
	{ "hugetlb-madvise", "needs a hugetlb pool" },
	{ "hugetlb-read-hwpoison", "needs a hugetlb pool and poisons pages" },
	{ "hugetlb-soft-offline", "sets nr_hugepages and offlines pages" },
	{ "hugetlb_dio", "needs a hugetlb pool" },
	{ "hugetlb_fault_after_madv", "needs a hugetlb pool" },
	{ "hugetlb_madv_vs_map", "sets nr_hugepages" },
	{ "map_hugetlb", "needs a hugetlb pool" },
	{ "thuge-gen", "sets hugetlb pools of every size" },
	{ "migration", "migrates pages between NUMA nodes" },
	{ "ksm_tests", "changes KSM's host-wide settings" },
	{ "ksm_functional_tests", "turns KSM on for the whole machine" },
	{ "protection_keys_64", "sets nr_hugepages" },
	{ "khugepaged", "changes khugepaged's host-wide settings" },
	{ "cgroup/test_memcontrol", "needs the cgroup v2 memory controller of the whole machine" },
	{ "cgroup/test_zswap", "turns zswap on (until the next boot) and needs cgroup v2" },
	{ "cgroup/test_kmem", "needs the cgroup v2 memory controller of the whole machine" },
	{ "hmm-tests", "needs the test_hmm module" },
	{ "gup_test", "needs debugfs's gup_test" },
	{ "mrelease_test", "kills processes outside the test's own" },
};

/* Tests run with the address space's randomisation off (personality's
 * ADDR_NO_RANDOMIZE, as `setarch -R`): their results depend on where the
 * kernel happened to place the heap, so that with it on the same kernel
 * passes one run and fails the next, which a run-to-run comparison would
 * call a regression. */
static const struct { const char *test, *why; } ks_fixed_layout[] = {
	{ "mremap_test", "its 40MB-preamble case maps a fixed range above the randomised heap and fails "
	  "(\"Failed to map dest preamble region: File exists\") when something already lies there" },
};

/* What cow's and split_huge_page_test's thp_settings may write, put back
 * by the sandbox whatever the test does. */
#define KS_MTHP(size) "thp." size ".enabled", "thp." size ".shmem_enabled"
static const char *const ks_holds[] = {
	"thp.enabled", "thp.defrag", "thp.shmem_enabled", "thp.use_zero_page", "thp.khugepaged.defrag",
	"thp.khugepaged.pages_to_scan", "thp.khugepaged.scan_sleep_millisecs",
	"thp.khugepaged.alloc_sleep_millisecs", "thp.khugepaged.max_ptes_none", "thp.khugepaged.max_ptes_swap",
	"thp.khugepaged.max_ptes_shared", KS_MTHP("8K"), KS_MTHP("16K"), KS_MTHP("32K"), KS_MTHP("64K"),
	KS_MTHP("128K"), KS_MTHP("256K"), KS_MTHP("512K"), KS_MTHP("1M"), KS_MTHP("2M"), NULL,
};

struct ks_state {
	const struct ks_opts *o;
	char *dir;          /* holds mm/ and cgroup/ */
	char *version;      /* the Debian version whose tests these are, or NULL */
	char *note;         /* --source matched: which version and why */
	json_t *build;      /* the build's record (build.json), or NULL */
	const char *workdir;
	unsigned counts[KS_TESTS + 1];
	struct strlist failed;  /* "test: case" of each failure, for the reason */
};

/* Where a Debian version's tests are: the cache's selftests/VERSION, else
 * where a matrix guest's initramfs puts them (/selftests/VERSION,
 * vm/selftests.h). */
static char *ks_version_dir(const char *version)
{
	char *sub = xasprintf("selftests/%s", version);
	char *d = vmr_cache_dir(sub), *guest = xasprintf("/selftests/%s", version);
	free(sub);
	if (access(d, F_OK) < 0 && access(guest, F_OK) == 0) {
		free(d);
		return guest;
	}
	free(guest);
	return d;
}

/* --source matched: the version of the running kernel's own source, else
 * the nearest (core/kversion.h), among the built ones; NULL when none is.
 * *note says which and why, for the result. */
static char *ks_matched(char **note)
{
	struct strlist names = { 0 };
	char *cache = vmr_cache_dir("selftests");
	kversion_built_in(cache, &names);
	kversion_built_in("/selftests", &names);
	free(cache);
	struct utsname u = { .release = "" };
	uname(&u);
	enum kversion_match how = KVERSION_OWN;
	long i = kversion_nearest(u.release, (const char *const *)names.v, names.n, &how);
	char *v = i >= 0 ? xstrdup(names.v[i]) : NULL;
	if (v && note)
		*note = kversion_match_text(v, u.release, how, "the selftests built here");
	strlist_free(&names);
	return v;
}

/* Where --source's tests are: a Debian version's (ks_version_dir), the
 * running kernel's match's, or a directory. */
static char *ks_dir(const char *source, char **version, char **note)
{
	if (strchr(source, '/'))
		return xstrdup(source);
	char *v = strcmp(source, KS_MATCHED) ? xstrdup(source) : ks_matched(note);
	char *d = ks_version_dir(v ? v : source);
	if (version)
		*version = v;
	else
		free(v);
	return d;
}

static const char *ks_supported(const void *opts, const struct wl_env *env)
{
	const struct ks_opts *o = opts;
	static char why[512];
	char *dir = ks_dir(o->source, NULL, NULL), *mm = xasprintf("%s/mm", dir), *cg = xasprintf("%s/cgroup", dir);
	struct stat st = { 0 };
	int found = (stat(mm, &st) == 0 && S_ISDIR(st.st_mode)) || (stat(cg, &st) == 0 && S_ISDIR(st.st_mode));
	free(cg);
	if (!found && !strcmp(o->source, KS_MATCHED))
		snprintf(why, sizeof(why), "--source matched: no selftests are built here (run `vmregress "
			 "kselftest build --source 6.12` first)");
	else if (!found)
		snprintf(why, sizeof(why), "the selftests of %s are not built: run `vmregress kselftest build "
			 "--source %s` first (%s has no mm/)", o->source, o->source, dir);
	free(mm);
	free(dir);
	return found ? NULL : why;
}

static int ks_validate(const void *opts)
{
	const struct ks_opts *o = opts;
	if (!o->tests || !*o->tests || strspn(o->tests, ", ") == strlen(o->tests)) {
		vmr_err("--tests: names no test");
		return -1;
	}
	if (strstr(o->tests, "..")) {
		vmr_err("--tests: '%s': a test's name cannot hold '..'", o->tests);
		return -1;
	}
	return 0;
}

static void *ks_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct ks_state *s = xcalloc(1, sizeof(*s));
	s->o = opts;
	s->dir = ks_dir(s->o->source, &s->version, &s->note);
	s->workdir = env->workdir;
	char *bj = xasprintf("%s/build.json", s->dir);
	json_error_t jerr;
	s->build = json_load_file(bj, 0, &jerr);
	free(bj);
	json_t *info = json_object();
	json_object_set_new(info, "source", json_string(s->o->source));
	if (s->version)
		json_object_set_new(info, "selftests", json_string(s->version));
	if (s->note)
		json_object_set_new(info, "match", json_string(s->note));
	json_t *ver = s->build ? json_object_get(s->build, "version") : NULL;
	if (json_is_string(ver))
		json_object_set(info, "version", ver);
	json_object_set_new(info, "tests", json_array());
	result_info_set(r, "kselftest", info);
	return s;
}

/* Why the build made no binary of test, from build.json, or NULL. */
static const char *ks_not_built(const struct ks_state *s, const char *test)
{
	json_t *nb = s->build ? json_object_get(s->build, "not_built") : NULL;
	json_t *why = nb ? json_object_get(nb, test) : NULL;
	return json_is_string(why) ? json_string_value(why) : NULL;
}

static const char *ks_host_wide_why(const char *test)
{
	for (size_t i = 0; i < sizeof(ks_host_wide) / sizeof(ks_host_wide[0]); i++)
		if (!strcmp(ks_host_wide[i].test, test))
			return ks_host_wide[i].why;
	return NULL;
}

static const char *ks_fixed_layout_why(const char *test)
{
	for (size_t i = 0; i < sizeof(ks_fixed_layout) / sizeof(ks_fixed_layout[0]); i++)
		if (!strcmp(ks_fixed_layout[i].test, test))
			return ks_fixed_layout[i].why;
	return NULL;
}

static const char *ks_needs_why(const char *test)
{
	for (size_t i = 0; i < sizeof(ks_needs) / sizeof(ks_needs[0]); i++)
		if (!strcmp(ks_needs[i].test, test) && access(ks_needs[i].path, F_OK) < 0)
			return ks_needs[i].why;
	return NULL;
}

static void ks_case(struct ks_state *s, json_t *cases, const char *test, const char *name,
		    const char *status, const char *reason, uint64_t time_ns)
{
	json_t *c = json_pack("{s:s, s:s, s:I}", "name", name, "status", status, "time_ns", (json_int_t)time_ns);
	if (reason && *reason)
		json_object_set_new(c, "reason", json_string(reason));
	json_array_append_new(cases, c);
	enum ktap_status st = KTAP_ERROR;
	ktap_status_parse(status, &st);
	switch (st) {
	case KTAP_PASS: case KTAP_XPASS: s->counts[KS_PASS]++; break;
	case KTAP_SKIP: s->counts[KS_SKIP]++; break;
	case KTAP_XFAIL: s->counts[KS_XFAIL]++; break;
	default:
		s->counts[KS_FAIL]++;
		char *f = xasprintf("%s: %s", test, name);
		strlist_add(&s->failed, f);
		free(f);
	}
}

/* A case's name in the store: the [RUN] line it follows and its own name
 * ("test_prot_read: MADV_POPULATE_READ with PROT_READ"), numbered when the
 * same name comes again within one test, so that runs of one test on two
 * kernels are matched case by case. */
static char *ks_case_name(const struct ktap_case *c, json_t *cases)
{
	char *base;
	size_t cl = strlen(c->context);
	if (cl && !(c->name_len == cl && !memcmp(c->name, c->context, cl)))
		base = xasprintf("%s: %.*s", c->context, (int)c->name_len, c->name);
	else
		base = xasprintf("%.*s", (int)c->name_len, c->name);
	if (!*base) {
		free(base);
		base = xasprintf("case %u", c->number);
	}
	char *name = xstrdup(base);
	for (unsigned k = 2;; k++) {
		bool taken = false;
		size_t i;
		json_t *e;
		json_array_foreach(cases, i, e)
			taken |= !strcmp(json_string_value(json_object_get(e, "name")), name);
		if (!taken)
			break;
		free(name);
		name = xasprintf("%s (%u)", base, k);
	}
	free(base);
	return name;
}

/* The output a test printed, kept as a tail of at most max bytes. */
struct ks_out {
	char *buf;
	size_t len, max;
};

static void ks_out_add(struct ks_out *o, const char *p, size_t n)
{
	if (n >= o->max) {
		p += n - o->max;
		n = o->max;
	}
	if (o->len + n > o->max) {
		size_t drop = o->len + n - o->max;
		memmove(o->buf, o->buf + drop, o->len - drop);
		o->len -= drop;
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

struct ks_proc {
	pid_t pid;
	int fd;
	int status;
	bool timed_out;
};

/* The test's output goes to a pseudo-terminal, not a pipe: its stdout is
 * then line-buffered, as on a terminal, so that a test that forks does not
 * print its unflushed results twice (once from each process). */
static int ks_pty(int *master, int *slave)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*master < 0)
		return -errno;
	const char *name = grantpt(*master) == 0 && unlockpt(*master) == 0 ? ptsname(*master) : NULL;
	*slave = name ? open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
	if (*slave < 0) {
		int e = -errno;
		close(*master);
		return e;
	}
	struct termios t = { 0 };
	if (tcgetattr(*slave, &t) == 0) {
		cfmakeraw(&t);  /* no echo, no \r added */
		tcsetattr(*slave, TCSANOW, &t);
	}
	return 0;
}

static int ks_spawn(const char *path, char **argv, const char *cwd, bool fixed_layout, struct ks_proc *p)
{
	int master = -1, slave = -1, e = ks_pty(&master, &slave);
	if (e < 0) {  /* no pseudo-terminals here (no devpts): a pipe will do */
		int pfd[2];
		if (pipe2(pfd, O_CLOEXEC) < 0)
			return -errno;
		master = pfd[0], slave = pfd[1];
	}
	pid_t pid = fork();
	if (pid < 0) {
		e = -errno;
		close(master);
		close(slave);
		return e;
	}
	if (pid == 0) {
		setpgid(0, 0);  /* its own group, so a timeout kills what it forked too */
		signals_default();
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (cwd && chdir(cwd) < 0)
			_exit(126);
		if (fixed_layout && personality(ADDR_NO_RANDOMIZE) < 0)  /* kept across execv */
			_exit(126);
		execv(path, argv);
		_exit(127);
	}
	close(slave);
	p->pid = pid;
	p->fd = master;
	return 0;
}

/* One line of the test's output: kept, and a case when it is a result. */
static void ks_line(struct ks_state *s, struct ktap *k, const char *test, const char *line, size_t n,
		    json_t *cases, uint64_t *mark)
{
	struct ktap_case c;
	if (ktap_line(k, line, n, &c) != 1 || c.depth)
		return;
	uint64_t now = vmr_now_ns();
	char *name = ks_case_name(&c, cases);
	char *reason = xasprintf("%.*s", (int)c.reason_len, c.reason ? c.reason : "");
	ks_case(s, cases, test, name, ktap_status_name(c.status), reason, now - *mark);
	*mark = now;
	free(name);
	free(reason);
}

/* Read the test's output until it closes it or the time is up. */
static void ks_read(struct ks_state *s, struct ks_proc *p, struct ktap *k, const char *test,
		    json_t *cases, struct ks_out *out)
{
	char line[4096];
	size_t ll = 0;
	bool overlong = false;
	uint64_t start = vmr_now_ns(), mark = start, deadline = start + s->o->timeout_ns;
	for (;;) {
		uint64_t now = vmr_now_ns();
		if (now >= deadline) {
			p->timed_out = true;
			break;
		}
		struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
		uint64_t left_ms = (deadline - now) / 1000000 + 1;
		int pr = poll(&pfd, 1, left_ms > 1000 ? 1000 : (int)left_ms);
		if (pr < 0 && errno != EINTR)
			break;
		if (pr <= 0)
			continue;
		char buf[8192];
		ssize_t n = read(p->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)  /* EIO: every holder of the terminal has closed it */
			break;
		ks_out_add(out, buf, (size_t)n);
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (ll < sizeof(line))
					line[ll++] = buf[i];
				else
					overlong = true;
				continue;
			}
			ks_line(s, k, test, line, ll, cases, &mark);
			ll = 0;
			overlong = false;
		}
	}
	(void)overlong;
	if (ll && !p->timed_out)
		ks_line(s, k, test, line, ll, cases, &mark);
	if (p->timed_out)
		kill(-p->pid, SIGKILL);
	close(p->fd);
	while (waitpid(p->pid, &p->status, 0) < 0 && errno == EINTR)
		;
	if (p->timed_out || !WIFEXITED(p->status))
		kill(-p->pid, SIGKILL);  /* what it left behind in its group */
}

/* What the test's end says beyond its result lines: a timeout, a crash, a
 * bail-out, cases it planned and never reported, or, for a test that
 * printed no result at all, its exit status (kselftest: 0 pass, 4 skip). */
static void ks_judge_end(struct ks_state *s, const struct ks_proc *p, const struct ktap *k,
			 const char *test, json_t *cases, uint64_t elapsed)
{
	char why[256];
	int code = WIFEXITED(p->status) ? WEXITSTATUS(p->status) : -1;
	if (p->timed_out) {
		snprintf(why, sizeof(why), "killed after %.0f s (--timeout)", (double)s->o->timeout_ns / 1e9);
		ks_case(s, cases, test, "timeout", "fail", why, 0);
	} else if (WIFSIGNALED(p->status)) {
		snprintf(why, sizeof(why), "killed by %s", strsignal(WTERMSIG(p->status)));
		ks_case(s, cases, test, "crashed", "fail", why, 0);
	} else if (k->bailed) {
		ks_case(s, cases, test, "bail out", "fail", k->why, 0);
	} else if (!json_array_size(cases)) {
		if (code == 127 || code == 126)
			ks_case(s, cases, test, test, "error", "could not be started", elapsed);
		else if (code == 4 || k->plan_skip)
			ks_case(s, cases, test, test, "skip", k->why[0] ? k->why : "the test skipped itself", elapsed);
		else if (code == 0)
			ks_case(s, cases, test, test, "pass", NULL, elapsed);
		else {
			snprintf(why, sizeof(why), "exit status %d", code);
			ks_case(s, cases, test, test, "fail", why, elapsed);
		}
	} else if (k->plan > 0 && k->results < (unsigned)k->plan && code != 0) {
		snprintf(why, sizeof(why), "stopped after %u of %ld cases, exit status %d", k->results, k->plan, code);
		ks_case(s, cases, test, "stopped early", "fail", why, 0);
	}
}

/* hugetlbfs at WORKDIR/huge, for a test of a guest only; true if mounted. */
static bool ks_mount_huge(const struct ks_state *s)
{
	char *dir = xasprintf("%s/huge", s->workdir);
	bool ok = (mkdir(dir, 0755) == 0 || errno == EEXIST) && mount("none", dir, "hugetlbfs", 0, NULL) == 0;
	free(dir);
	return ok;
}

static void ks_umount_huge(const struct ks_state *s)
{
	char *dir = xasprintf("%s/huge", s->workdir);
	umount2(dir, MNT_DETACH);
	rmdir(dir);
	free(dir);
}

static void ks_run_one(struct ks_state *s, const char *item, json_t *tests)
{
	char *copy = xstrdup(item);
	struct strlist args = { 0 };
	for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		strlist_add(&args, w);
	free(copy);
	if (!args.n)
		return;
	char *test = xstrdup(args.v[0]);
	bool cg = !strncmp(test, "cgroup/", 7);
	char *path = xasprintf("%s/%s%s", s->dir, cg ? "" : "mm/", test);
	json_t *t = json_pack("{s:s}", "test", test), *cases = json_array();
	if (args.n > 1)
		json_object_set_new(t, "args", json_string(item + strlen(test) + 1));
	json_object_set_new(t, "cases", cases);
	json_array_append_new(tests, t);
	const char *why = ks_host_wide_why(test), *nb;
	char reason[512];
	if (why && !s->o->guest) {
		snprintf(reason, sizeof(reason), "changes the whole machine (%s): runs only with --guest, in a "
			 "guest (the kselftest-mm-guest suite under `vmregress matrix`)", why);
		ks_case(s, cases, test, test, "skip", reason, 0);
	} else if ((why = ks_needs_why(test))) {
		snprintf(reason, sizeof(reason), "needs %s", why);
		ks_case(s, cases, test, test, "skip", reason, 0);
	} else if (access(path, X_OK) < 0) {
		nb = ks_not_built(s, test);
		snprintf(reason, sizeof(reason), "not built%s%s", nb ? ": " : " (no such test in this source)",
			 nb ? nb : "");
		ks_case(s, cases, test, test, "skip", reason, 0);
	} else {
		struct ks_proc p = { .pid = -1, .fd = -1 };
		struct ks_out out = { .buf = xmalloc(s->o->output_max), .max = s->o->output_max };
		struct ktap k;
		ktap_init(&k);
		uint64_t t0 = vmr_now_ns();
		/* before 6.6 hugepage-* mapped a file of a hugetlbfs that
		 * run_vmtests.sh mounts at ./huge: a guest mounts it the same way */
		bool huge = s->o->guest && !strncmp(test, "hugepage-", 9) && ks_mount_huge(s);
		/* argv[0] its path: some tests map or re-run their own binary */
		free(args.v[0]);
		args.v[0] = xstrdup(path);
		const char *fixed = ks_fixed_layout_why(test);
		if (fixed)
			json_object_set_new(t, "fixed_layout", json_string(fixed));
		int e = ks_spawn(path, args.v, s->workdir, fixed != NULL, &p);
		unsigned failed_before = s->counts[KS_FAIL];
		if (e < 0) {
			snprintf(reason, sizeof(reason), "cannot start %s: %s", path, strerror(-e));
			ks_case(s, cases, test, test, "error", reason, 0);
		} else {
			ks_read(s, &p, &k, test, cases, &out);
			uint64_t elapsed = vmr_now_ns() - t0;
			ks_judge_end(s, &p, &k, test, cases, elapsed);
			json_object_set_new(t, "time_ns", json_integer((json_int_t)elapsed));
			if (WIFEXITED(p.status))
				json_object_set_new(t, "exit", json_integer(WEXITSTATUS(p.status)));
			s->counts[KS_TESTS]++;
		}
		if (huge)
			ks_umount_huge(s);
		if (s->counts[KS_FAIL] > failed_before)
			json_object_set_new(t, "output", json_stringn_nocheck(out.buf, out.len));
		free(out.buf);
	}
	free(path);
	free(test);
	strlist_free(&args);
}

static int ks_run(void *state, struct result *r)
{
	struct ks_state *s = state;
	json_t *tests = json_object_get(json_object_get(r->info, "kselftest"), "tests");
	char *list = xstrdup(s->o->tests);
	for (char *save = NULL, *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		while (*item == ' ')
			item++;
		if (*item)
			ks_run_one(s, item, tests);
	}
	free(list);
	for (int m = KS_PASS; m <= KS_TESTS; m++)
		result_metric_def(r, &ks_metrics[m], s->counts[m]);
	if (s->failed.n)
		result_set_outcome(r, OUTCOME_FAIL, "%u selftest case%s failed: %s%s", s->counts[KS_FAIL],
				   s->counts[KS_FAIL] == 1 ? "" : "s", s->failed.v[0], s->failed.n > 1 ? ", ..." : "");
	return 0;
}

static void ks_teardown(void *state, struct result *r)
{
	struct ks_state *s = state;
	if (!s)
		return;
	free(s->dir);
	free(s->version);
	free(s->note);
	json_decref(s->build);
	strlist_free(&s->failed);
	free(s);
}

const struct workload wl_kselftest = {
	.name = "kselftest",
	.summary = "the kernel's own mm selftests, in the sandbox, each case stored with its status",
	.opts = ks_opts,
	.opts_size = sizeof(struct ks_opts),
	.metrics = ks_metrics,
	.needs_root = true,
	.holds = ks_holds,
	.validate = ks_validate,
	.supported = ks_supported,
	.setup = ks_setup,
	.run = ks_run,
	.teardown = ks_teardown,
};
