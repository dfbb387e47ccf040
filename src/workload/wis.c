/* will-it-scale: the memory-management tests of will-it-scale as the
 * kernel's 0-day robot runs them, named as its reports name them.  For each
 * task count T, T processes (or threads in one address space) repeat one
 * test's operation for --duration; the figure is operations per second per
 * task, LKP's will-it-scale.per_process_ops (or per_thread_ops).
 *
 * One operation, as the original counts it:
 *   page_fault1  a write fault on a private anonymous page (each iteration
 *                maps --size, writes every page, unmaps)
 *   page_fault2  the same on a private mapping of a file of the task's own:
 *                each write copies a page-cache page (copy-on-write)
 *   page_fault3  the same on a shared mapping: each write dirties the page cache
 *   mmap1        mmap and munmap of --size anonymous, untouched
 *   mmap2        the same of a private file mapping
 *   brk1         the break moved up or down one page (two per iteration)
 *   malloc1      malloc and free of --size (glibc maps and unmaps it)
 *   tlb_flush1   a write to one page of a private file mapping, then
 *                MADV_DONTNEED of it, which must read back the file's zeroes
 *
 * What differs from the original: every page a fault test writes gets the
 * page pattern (two words, not one byte) and 1 page in --check-stride is
 * read back each iteration, rotating, so that every page is checked once in
 * that many iterations; tlb_flush1 checks every page, as the original
 * asserts.  The tests that touch no data (mmap1, mmap2, brk1, malloc1) have
 * nothing to check.  Files are sparse (ftruncate) in the work directory, as
 * the original's are in /tmp.  The rate is each task's operations over its
 * own time from the common start to the end of its last iteration, not the
 * original's samples once a second. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/timer.h"
#include "core/units.h"
#include "core/util.h"
#include "workload/pattern.h"
#include "workload/tasks.h"
#include "workload/workload.h"

enum wis_test { WIS_PF1, WIS_PF2, WIS_PF3, WIS_MMAP1, WIS_MMAP2, WIS_BRK1, WIS_MALLOC1, WIS_TLB1 };
enum wis_mode { WIS_PROCESSES, WIS_THREADS };

/* What each test maps and whether it writes data the check can read. */
static const struct wis_test_info {
	const char *name;
	bool file;        /* a file of the task's own */
	bool shared;      /* MAP_SHARED */
	bool touches;     /* writes pages, so the check has data to read */
	size_t batch;     /* operations between two looks at the clock (no pages) */
} wis_tests[] = {
	[WIS_PF1] = { "page_fault1", false, false, true, 0 },
	[WIS_PF2] = { "page_fault2", true, false, true, 0 },
	[WIS_PF3] = { "page_fault3", true, true, true, 0 },
	[WIS_MMAP1] = { "mmap1", false, false, false, 64 },
	[WIS_MMAP2] = { "mmap2", true, false, false, 64 },
	[WIS_BRK1] = { "brk1", false, false, false, 256 },
	[WIS_MALLOC1] = { "malloc1", false, false, false, 64 },
	[WIS_TLB1] = { "tlb_flush1", true, false, true, 0 },
};

struct wis_opts {
	int test;
	int mode;
	char *tasks;
	uint64_t size;
	uint64_t duration_ns;
	long check_stride;
	long corrupt_page;
};

static const struct opt wis_opts[] = {
	{ .name = "test", .type = OPT_ENUM, .off = offsetof(struct wis_opts, test), .def = "page_fault1",
	  .choices = "page_fault1|page_fault2|page_fault3|mmap1|mmap2|brk1|malloc1|tlb_flush1",
	  .help = "will-it-scale's test, by its name" },
	{ .name = "mode", .type = OPT_ENUM, .off = offsetof(struct wis_opts, mode), .def = "processes",
	  .choices = "processes|threads", .help = "each task has its own address space, or tasks share one" },
	{ .name = "tasks", .type = OPT_STR, .off = offsetof(struct wis_opts, tasks), .def = "1",
	  .metavar = "LIST", .help = "task counts to measure: 1,2,4 or 1-N or a mix; cpus: the CPUs it may run on" },
	{ .name = "size", .type = OPT_SIZE, .off = offsetof(struct wis_opts, size), .def = "128M",
	  .min = 65536, .max = 1e13, .metavar = "SIZE", .help = "region each task maps, as the original's 128M" },
	{ .name = "duration", .type = OPT_TIME, .off = offsetof(struct wis_opts, duration_ns), .def = "1s",
	  .min = 1e6, .max = 3600e9, .metavar = "TIME", .help = "how long each task count runs" },
	{ .name = "check-stride", .type = OPT_INT, .off = offsetof(struct wis_opts, check_stride), .def = "16",
	  .min = 1, .max = 1e6, .metavar = "K", .help = "page faults: check 1 page in K each iteration (1: every page)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct wis_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the first task's region before it is checked" },
	OPT_END,
};

/* Each task count T gets its own copy of these, named "...-tT"; the run
 * has per-process-ops or per-thread-ops, by --mode. */
enum { WIS_M_PROC, WIS_M_THREAD, WIS_M_TOTAL, WIS_M_SCALING, WIS_M_CPU };
static const struct metric_def wis_metrics[] = {
	[WIS_M_PROC] = { "per-process-ops", "ops/s", BETTER_HIGHER, COMBINE_HMEAN,
			 "operations per second per process (LKP's will-it-scale.per_process_ops)", .headline = true },
	[WIS_M_THREAD] = { "per-thread-ops", "ops/s", BETTER_HIGHER, COMBINE_HMEAN,
			   "operations per second per thread (LKP's will-it-scale.per_thread_ops)", .headline = true },
	[WIS_M_TOTAL] = { "ops-per-sec", "ops/s", BETTER_HIGHER, COMBINE_HMEAN,
			  "operations per second, all tasks (LKP's will-it-scale.workload)", .headline = false },
	[WIS_M_SCALING] = { "scaling", "x", BETTER_HIGHER, COMBINE_AMEAN,
			    "operations per second over linear scaling of the first count", .headline = false },
	/* the cost of an operation itself: time the tasks spent waiting for
	 * a CPU (other work, or more tasks than CPUs) does not count */
	[WIS_M_CPU] = { "ops-per-cpu-sec", "ops/s", BETTER_HIGHER, COMBINE_HMEAN,
			"operations per second of the tasks' CPU time", .headline = false },
	{ .name = NULL },
};

static int wis_validate(const void *opts)
{
	const struct wis_opts *o = opts;
	long counts[TASKS_MAX];
	size_t n;
	const char *why;
	if (tasks_parse(o->tasks, counts, &n, &why) < 0) {
		vmr_err("--tasks: '%s' %s", o->tasks ? o->tasks : "", why);
		return -1;
	}
	if (o->corrupt_page >= 0 && !wis_tests[o->test].touches) {
		vmr_err("--corrupt-page: %s touches no data, so there is nothing to damage", wis_tests[o->test].name);
		return -1;
	}
	return 0;
}

/* What one task did; in MAP_SHARED memory for processes. */
struct wis_task {
	uint64_t ops, ns;
	uint64_t cpu_ns;    /* the task's own CPU time over the same span */
	int64_t bad_page;
	uint64_t found;
	int err;
	const char *what;   /* the call that failed */
	bool corrupted;
};

struct wis_round {
	struct tasks_round sync;
	struct wis_task task[TASKS_MAX];
};

struct wis_state {
	struct wis_opts o;
	const struct wis_test_info *ti;
	long counts[TASKS_MAX];
	size_t ncounts;
	size_t ps, npages;
	uint64_t salt;
	struct wis_round *round;
	int fds[TASKS_MAX];
};

static int wis_file(const char *workdir, uint64_t size, long idx)
{
	char *path = xasprintf("%s/will-it-scale.%ld.%ld", workdir, (long)getpid(), idx);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0 && ftruncate(fd, (off_t)size)) {
		close(fd);
		fd = -1;
	}
	unlink(path);   /* the open descriptor keeps it; nothing is left behind */
	free(path);
	return fd;
}

static char *wis_map(struct wis_state *st, long idx)
{
	const struct wis_test_info *ti = st->ti;
	int flags = ti->file ? (ti->shared ? MAP_SHARED : MAP_PRIVATE) : MAP_PRIVATE | MAP_ANONYMOUS;
	return mmap(NULL, st->o.size, PROT_READ | PROT_WRITE, flags, ti->file ? st->fds[idx] : -1, 0);
}

static void wis_bad(struct wis_task *t, size_t page, uint64_t found)
{
	t->bad_page = (int64_t)page;
	t->found = found;
}

/* page_fault1/2/3: map, write every page (one fault each), check a sample,
 * unmap.  The salt changes per iteration so that a page left from the last
 * one does not read as good. */
static int wis_faults(struct wis_state *st, struct wis_task *t, long idx, uint64_t iter)
{
	size_t ps = st->ps, n = st->npages, k = (size_t)st->o.check_stride;
	uint64_t salt = st->salt + iter;
	char *p = wis_map(st, idx);
	if (p == MAP_FAILED)
		return t->what = "mmap", -errno;
	for (size_t i = 0; i < n; i++)
		pattern_stamp(p + i * ps, ps, i, salt);
	size_t first = iter % k;
	if (idx == 0 && st->o.corrupt_page >= 0 && (size_t)st->o.corrupt_page % k == first && !t->corrupted)
		t->corrupted = pattern_corrupt(p + (size_t)st->o.corrupt_page * ps) == 0;
	for (size_t i = first; i < n && t->bad_page < 0; i += k) {
		uint64_t found;
		if (!pattern_check(p + i * ps, ps, i, salt, &found))
			wis_bad(t, i, found);
	}
	munmap(p, st->o.size);
	t->ops += n;
	return 0;
}

/* tlb_flush1: per page, write, drop it with MADV_DONTNEED and read it back:
 * a private file page dropped reads the file again, which holds zeroes. */
static int wis_tlb_flush(struct wis_state *st, struct wis_task *t, long idx, uint64_t iter)
{
	size_t ps = st->ps, n = st->npages;
	char *p = wis_map(st, idx);
	if (p == MAP_FAILED)
		return t->what = "mmap", -errno;
	for (size_t i = 0; i < n && t->bad_page < 0; i++) {
		char *pg = p + i * ps;
		pattern_stamp(pg, ps, i, st->salt + iter);
		if (madvise(pg, ps, MADV_DONTNEED)) {
			munmap(p, st->o.size);
			return t->what = "madvise", -errno;
		}
		if (idx == 0 && (long)i == st->o.corrupt_page && !t->corrupted)
			t->corrupted = pattern_corrupt(pg) == 0;
		uint64_t a = ((volatile uint64_t *)pg)[0], b = ((volatile uint64_t *)pg)[ps / 8 - 1];
		if (a || b)
			wis_bad(t, i, a);
	}
	munmap(p, st->o.size);
	t->ops += n;
	return 0;
}

/* mmap1, mmap2, malloc1, brk1: a batch of operations that touch no data. */
static int wis_calls(struct wis_state *st, struct wis_task *t, long idx, char **brk_base)
{
	size_t batch = st->ti->batch;
	for (size_t b = 0; b < batch; b++) {
		if (st->o.test == WIS_MALLOC1) {
			void *m = malloc(st->o.size);
			if (!m)
				return t->what = "malloc", -ENOMEM;
			free(m);
			t->ops++;
		} else if (st->o.test == WIS_BRK1) {
			if (brk(*brk_base + st->ps) || brk(*brk_base))
				return t->what = "brk", -errno;
			t->ops += 2;
		} else {
			char *p = wis_map(st, idx);
			if (p == MAP_FAILED)
				return t->what = "mmap", -errno;
			munmap(p, st->o.size);
			t->ops++;
		}
	}
	return 0;
}

static uint64_t wis_cpu_ns(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void wis_task_loop(void *arg, long idx)
{
	struct wis_state *st = arg;
	struct wis_task *t = &st->round->task[idx];
	char *brk_base = st->o.test == WIS_BRK1 ? sbrk(0) : NULL;
	uint64_t iter = 0, go = st->round->sync.go_ns, now = vmr_now_ns(), c0 = wis_cpu_ns();
	/* every task does one iteration at least, however late a busy machine
	 * lets it run; the first goes on until the damage --corrupt-page asks
	 * for is done: a check that never saw it proves nothing */
	bool damage = idx == 0 && st->o.corrupt_page >= 0;
	while ((!iter || now - go < st->o.duration_ns || (damage && !t->corrupted)) && t->bad_page < 0) {
		int err = st->o.test <= WIS_PF3 ? wis_faults(st, t, idx, iter)
			: st->o.test == WIS_TLB1 ? wis_tlb_flush(st, t, idx, iter)
			: wis_calls(st, t, idx, &brk_base);
		iter++;
		if (err) {
			t->err = -err;
			break;
		}
		now = vmr_now_ns();
	}
	t->ns = now - go;
	t->cpu_ns = wis_cpu_ns() - c0;
}

static const char *wis_supported(const void *opts, const struct wl_env *env)
{
	static char why[240];
	const struct wis_opts *o = opts;
	long counts[TASKS_MAX], max = 0;
	size_t n;
	const char *w;
	tasks_parse(o->tasks, counts, &n, &w);
	for (size_t i = 0; i < n; i++)
		max = counts[i] > max ? counts[i] : max;
	/* a fault test holds its region while it writes it, and a file test
	 * its file's page cache too (page_fault2: both) */
	const struct wis_test_info *ti = &wis_tests[o->test];
	uint64_t per_task = ti->touches ? o->size * (o->test == WIS_PF2 ? 2 : 1) : 0;
	if (env->sandboxed && env->limit_bytes && (uint64_t)max * per_task > env->limit_bytes / 8 * 7) {
		char need[32], lim[32];
		units_format_size(need, sizeof(need), (uint64_t)max * per_task);
		units_format_size(lim, sizeof(lim), env->limit_bytes);
		snprintf(why, sizeof(why), "%ld tasks of %s hold %s, more than 7/8 of the sandbox's %s: it would "
			 "measure reclaim (raise --mem or lower --size)", max, ti->name, need, lim);
		return why;
	}
	return NULL;
}

static void *wis_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct wis_state *st = xcalloc(1, sizeof(*st));
	const char *why;
	st->o = *(const struct wis_opts *)opts;
	st->o.tasks = NULL;   /* the caller's string; parsed now */
	tasks_parse(((const struct wis_opts *)opts)->tasks, st->counts, &st->ncounts, &why);
	st->ti = &wis_tests[st->o.test];
	st->ps = env->page_size;
	st->npages = st->o.size / st->ps;
	st->salt = pattern_salt();
	for (long i = 0; i < TASKS_MAX; i++)
		st->fds[i] = -1;
	if (st->o.corrupt_page >= (long)st->npages) {
		result_set_outcome(r, OUTCOME_ERROR, "--corrupt-page %ld is beyond the region's %zu pages",
				   st->o.corrupt_page, st->npages);
		goto free_state;
	}
	st->round = mmap(NULL, sizeof(*st->round), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st->round == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map shared memory: %s", strerror(errno));
		goto free_state;
	}
	long max = 0;
	for (size_t i = 0; i < st->ncounts; i++)
		max = st->counts[i] > max ? st->counts[i] : max;
	for (long i = 0; st->ti->file && i < max; i++) {
		if ((st->fds[i] = wis_file(env->workdir, st->o.size, i)) < 0) {
			result_set_outcome(r, OUTCOME_ERROR, "cannot create a %s file in %s: %s",
					   units_format_size((char[32]){ 0 }, 32, st->o.size), env->workdir,
					   strerror(errno));
			return st;   /* teardown closes what was opened */
		}
	}
	result_info_set(r, "test", json_string(st->ti->name));
	result_info_set(r, "check", json_string(!st->ti->touches ? "none: the test touches no data"
						: st->o.test == WIS_TLB1 ? "every page reads the file's zeroes after MADV_DONTNEED"
						: "the page pattern, 1 page in check-stride per iteration, rotating"));
	return st;
free_state:
	free(st);
	return NULL;
}

/* Add up a round: the sum of the tasks' rates; 0, or -1 after setting the outcome. */
static int wis_round_result(struct wis_state *st, long T, double *rate, double *cpu_rate, struct result *r)
{
	double ops = 0, cpu = 0;
	*rate = 0;
	for (long i = 0; i < T; i++) {
		struct wis_task *t = &st->round->task[i];
		if (t->bad_page >= 0) {
			result_set_outcome(r, OUTCOME_FAIL, "page %" PRId64 " of task %ld read back wrong data "
					   "(first word %#" PRIx64 ")", t->bad_page, i, t->found);
			return -1;
		}
		if (t->err) {
			result_set_outcome(r, OUTCOME_ERROR, "%s: task %ld: %s failed: %s", st->ti->name, i,
					   t->what ? t->what : "a call", strerror(t->err));
			return -1;
		}
		if (t->ns)
			*rate += (double)t->ops / ((double)t->ns / 1e9);
		ops += (double)t->ops;
		cpu += (double)t->cpu_ns / 1e9;
	}
	*cpu_rate = cpu > 0 ? ops / cpu : 0;
	return 0;
}

static const char *const wis_cols[] = { "tasks", "ops_per_sec", "per_task", "linear", "efficiency" };

static int wis_run(void *state, struct result *r)
{
	struct wis_state *st = state;
	if (r->outcome != OUTCOME_PASS)
		return 0;
	struct table *tab = result_table(r, "scaling", ARRAY_SIZE(wis_cols), wis_cols);
	const struct metric_def *per_task = &wis_metrics[st->o.mode == WIS_THREADS ? WIS_M_THREAD : WIS_M_PROC];
	double base_per_task = 0;
	for (size_t c = 0; c < st->ncounts; c++) {
		long T = st->counts[c];
		double rate, cpu_rate;
		memset(st->round, 0, sizeof(*st->round));
		for (long i = 0; i < T; i++)
			st->round->task[i].bad_page = -1;
		if (tasks_run(&st->round->sync, T, st->o.mode == WIS_THREADS, wis_task_loop, st) < 0) {
			result_set_outcome(r, OUTCOME_ERROR, "cannot start %ld tasks: %s", T, strerror(errno));
			break;
		}
		if (wis_round_result(st, T, &rate, &cpu_rate, r) < 0)
			break;
		if (c == 0)
			base_per_task = rate / (double)T;
		double linear = base_per_task * (double)T;
		double row[] = { (double)T, rate, rate / (double)T, linear, linear > 0 ? rate / linear : 0 };
		table_add_row(tab, row);
		const struct metric_def *defs[] = { per_task, &wis_metrics[WIS_M_TOTAL], &wis_metrics[WIS_M_SCALING],
						     &wis_metrics[WIS_M_CPU] };
		const double values[] = { row[2], rate, row[4], cpu_rate };
		for (size_t m = 0; m < ARRAY_SIZE(values); m++) {
			char name[64];
			snprintf(name, sizeof(name), "%s-t%ld", defs[m]->name, T);
			result_metric(r, name, defs[m]->unit, defs[m]->better, defs[m]->combine, values[m]);
		}
	}
	return 0;
}

static void wis_teardown(void *state, struct result *r)
{
	struct wis_state *st = state;
	(void)r;
	for (long i = 0; i < TASKS_MAX; i++)
		if (st->fds[i] >= 0)
			close(st->fds[i]);
	if (st->round && st->round != MAP_FAILED)
		munmap(st->round, sizeof(*st->round));
	free(st);
}

const struct workload wl_will_it_scale = {
	.name = "will-it-scale",
	.summary = "will-it-scale's mm tests (page_fault1..tlb_flush1): operations per second per task",
	.opts = wis_opts,
	.opts_size = sizeof(struct wis_opts),
	.metrics = wis_metrics,
	.validate = wis_validate,
	.supported = wis_supported,
	.setup = wis_setup,
	.run = wis_run,
	.teardown = wis_teardown,
};
