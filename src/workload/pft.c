/* pft: page-fault throughput and its scaling, after will-it-scale's
 * page_fault1/2/3.  For each task count T, T threads or processes each map
 * a region, write every page (one fault each), check a rotating sample of
 * the pages and unmap, over and over for a fixed time.  Reports faults per
 * second per task count and the scaling curve against linear.
 *
 * Kinds: anonymous memory (page_fault1), a private file mapping, where
 * each write copies a page-cache page (page_fault2), and a shared file
 * mapping, where each write dirties the page cache (page_fault3).
 *
 * The check reads 1 page in --check-stride per iteration, rotating so that
 * every page is checked once in that many iterations: reading every page
 * back would add a cache miss per page and measure the memory, not the
 * fault path. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/timer.h"
#include "core/util.h"
#include "workload/pattern.h"
#include "workload/tasks.h"
#include "workload/workload.h"

#define PFT_MAX_TASKS TASKS_MAX

enum pft_kind { PFT_ANON, PFT_PRIVATE_FILE, PFT_SHARED_FILE };
enum pft_mode { PFT_THREADS, PFT_PROCESSES };

struct pft_opts {
	char *tasks;
	int mode;
	int kind;
	uint64_t size;
	uint64_t duration_ns;
	long check_stride;
	long corrupt_page;
};

static const struct opt pft_opts[] = {
	{ .name = "tasks", .type = OPT_STR, .off = offsetof(struct pft_opts, tasks), .def = "1",
	  .metavar = "LIST", .help = "task counts to measure: 1,2,4 or 1-N or a mix; cpus: the CPUs it may run on" },
	{ .name = "mode", .type = OPT_ENUM, .off = offsetof(struct pft_opts, mode), .def = "threads",
	  .choices = "threads|processes", .help = "tasks share one address space, or each has its own" },
	{ .name = "kind", .type = OPT_ENUM, .off = offsetof(struct pft_opts, kind), .def = "anon",
	  .choices = "anon|private-file|shared-file", .help = "what each task maps" },
	{ .name = "size", .type = OPT_SIZE, .off = offsetof(struct pft_opts, size), .def = "128M",
	  .min = 65536, .max = 1e13, .metavar = "SIZE", .help = "region each task maps per iteration" },
	{ .name = "duration", .type = OPT_TIME, .off = offsetof(struct pft_opts, duration_ns), .def = "1s",
	  .min = 1e6, .max = 3600e9, .metavar = "TIME", .help = "how long each task count runs" },
	{ .name = "check-stride", .type = OPT_INT, .off = offsetof(struct pft_opts, check_stride), .def = "16",
	  .min = 1, .max = 1e6, .metavar = "K", .help = "check 1 page in K each iteration (1: every page)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct pft_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the first task's region before it is checked" },
	OPT_END,
};

/* Each task count T gets its own copy of these, named "...-tT".  The
 * per-CPU-second rate is the cost of a fault itself: time the tasks spent
 * waiting for a CPU (other work, or more tasks than CPUs) does not count. */
static const struct metric_def pft_metrics[] = {
	{ "faults-per-sec", "faults/s", BETTER_HIGHER, COMBINE_HMEAN, "page faults per second, all tasks", .headline = true },
	{ "scaling", "x", BETTER_HIGHER, COMBINE_AMEAN, "faults per second over linear scaling of the first count", .headline = false },
	{ "faults-per-cpu-sec", "faults/s", BETTER_HIGHER, COMBINE_HMEAN, "page faults per second of the tasks' CPU time", .headline = false },
	{ .name = NULL },
};

static int pft_validate(const void *opts)
{
	const struct pft_opts *o = opts;
	long counts[PFT_MAX_TASKS];
	size_t n;
	const char *why;
	if (tasks_parse(o->tasks, counts, &n, &why) < 0) {
		vmr_err("--tasks: '%s' %s", o->tasks ? o->tasks : "", why);
		return -1;
	}
	return 0;
}

/* What the tasks share; in MAP_SHARED memory for processes. */
struct pft_task {
	uint64_t faults, ns;
	uint64_t cpu_ns;        /* the task's own CPU time over the same span */
	int64_t bad_page;
	uint64_t found;
	int err;
	bool corrupted;
};

struct pft_round {
	struct tasks_round sync;  /* go_ns: when the tasks started; each stops by its own clock */
	struct pft_task task[PFT_MAX_TASKS];
};

struct pft_state {
	struct pft_opts o;
	long counts[PFT_MAX_TASKS];
	size_t ncounts;
	size_t ps, npages;
	const char *workdir;
	struct pft_round *round;
	int fds[PFT_MAX_TASKS];
};

static int pft_file(struct pft_state *st, long idx)
{
	char *path = xasprintf("%s/pft.%ld.%ld", st->workdir, (long)getpid(), idx);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0 && posix_fallocate(fd, 0, (off_t)st->o.size)) {
		close(fd);
		fd = -1;
	}
	unlink(path);   /* the open descriptor keeps it; nothing is left behind */
	free(path);
	return fd;
}

/* One iteration: map, write every page, check a sample, unmap. */
static int pft_iteration(struct pft_state *st, struct pft_task *t, long idx, uint64_t iter)
{
	int fd = st->fds[idx];
	int flags = st->o.kind == PFT_ANON ? MAP_PRIVATE | MAP_ANONYMOUS
		  : st->o.kind == PFT_PRIVATE_FILE ? MAP_PRIVATE : MAP_SHARED;
	size_t ps = st->ps, n = st->npages, k = (size_t)st->o.check_stride;
	char *p = mmap(NULL, st->o.size, PROT_READ | PROT_WRITE, flags, st->o.kind == PFT_ANON ? -1 : fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	for (size_t i = 0; i < n; i++)
		pattern_stamp(p + i * ps, ps, i, iter);
	size_t first = iter % k;
	if (idx == 0 && st->o.corrupt_page >= 0 && (size_t)st->o.corrupt_page % k == first &&
	    !t->corrupted)
		t->corrupted = pattern_corrupt(p + (size_t)st->o.corrupt_page * ps) == 0;
	for (size_t i = first; i < n && t->bad_page < 0; i += k) {
		uint64_t found;
		if (!pattern_check(p + i * ps, ps, i, iter, &found)) {
			t->bad_page = (int64_t)i;
			t->found = found;
		}
	}
	munmap(p, st->o.size);
	t->faults += n;
	return 0;
}

static uint64_t pft_cpu_ns(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pft_task_loop(void *arg, long idx)
{
	struct pft_state *st = arg;
	struct pft_round *rd = st->round;
	struct pft_task *t = &rd->task[idx];
	uint64_t c0 = pft_cpu_ns(), t0 = vmr_now_ns(), iter = 0, now = t0;
	while (now - rd->sync.go_ns < st->o.duration_ns && t->bad_page < 0) {
		int err = pft_iteration(st, t, idx, iter++);
		if (err) {
			t->err = -err;
			break;
		}
		now = vmr_now_ns();
	}
	t->ns = now - t0;
	t->cpu_ns = pft_cpu_ns() - c0;
}

/* Start T tasks and wait for them to run their duration. */
static int pft_round_run(struct pft_state *st, long T)
{
	struct pft_round *rd = st->round;
	memset(rd, 0, sizeof(*rd));
	for (long i = 0; i < T; i++)
		rd->task[i].bad_page = -1;
	return tasks_run(&rd->sync, T, st->o.mode == PFT_THREADS, pft_task_loop, st);
}

static void *pft_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct pft_state *st = xcalloc(1, sizeof(*st));
	const char *why;
	st->o = *(const struct pft_opts *)opts;
	st->o.tasks = NULL;   /* the caller's string; parsed now */
	tasks_parse(((const struct pft_opts *)opts)->tasks, st->counts, &st->ncounts, &why);
	st->ps = env->page_size;
	st->npages = st->o.size / st->ps;
	st->workdir = env->workdir;
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
	for (long i = 0; i < PFT_MAX_TASKS; i++)
		st->fds[i] = -1;
	for (long i = 0; st->o.kind != PFT_ANON && i < max; i++) {
		if ((st->fds[i] = pft_file(st, i)) < 0) {
			result_set_outcome(r, OUTCOME_ERROR, "cannot create a %s file in %s: %s",
					   units_format_size((char[32]){ 0 }, 32, st->o.size), env->workdir,
					   strerror(errno));
			return st;   /* teardown closes what was opened */
		}
	}
	result_info_set(r, "pages_per_iteration", json_integer((json_int_t)st->npages));
	return st;
free_state:
	free(st);
	return NULL;
}

static const char *const pft_cols[] = { "tasks", "faults_per_sec", "per_task", "linear", "efficiency" };

/* Add up a round; 0, or -1 after setting the outcome. */
static int pft_round_result(struct pft_state *st, long T, double *rate, double *cpu_rate,
			    struct result *r)
{
	double faults = 0, cpu = 0;
	*rate = 0;
	for (long i = 0; i < T; i++) {
		struct pft_task *t = &st->round->task[i];
		if (t->bad_page >= 0) {
			result_set_outcome(r, OUTCOME_FAIL, "page %" PRId64 " of task %ld read back wrong data "
					   "(first word %#" PRIx64 ")", t->bad_page, i, t->found);
			return -1;
		}
		if (t->err) {
			result_set_outcome(r, OUTCOME_ERROR, "task %ld cannot map %zu pages: %s", i, st->npages,
					   strerror(t->err));
			return -1;
		}
		if (t->ns)
			*rate += (double)t->faults / ((double)t->ns / 1e9);
		faults += (double)t->faults;
		cpu += (double)t->cpu_ns / 1e9;
	}
	*cpu_rate = cpu > 0 ? faults / cpu : 0;
	return 0;
}

static int pft_run(void *state, struct result *r)
{
	struct pft_state *st = state;
	if (r->outcome != OUTCOME_PASS)
		return 0;
	struct table *tab = result_table(r, "scaling", ARRAY_SIZE(pft_cols), pft_cols);
	double base_per_task = 0;
	for (size_t c = 0; c < st->ncounts; c++) {
		long T = st->counts[c];
		double rate, cpu_rate;
		if (pft_round_run(st, T) < 0) {
			result_set_outcome(r, OUTCOME_ERROR, "cannot start %ld tasks: %s", T, strerror(errno));
			break;
		}
		if (pft_round_result(st, T, &rate, &cpu_rate, r) < 0)
			break;
		if (c == 0)
			base_per_task = rate / (double)T;
		double linear = base_per_task * (double)T;
		double row[] = { (double)T, rate, rate / (double)T, linear, linear > 0 ? rate / linear : 0 };
		table_add_row(tab, row);
		const double values[] = { rate, row[4], cpu_rate };
		for (size_t m = 0; m < ARRAY_SIZE(values); m++) {
			const struct metric_def *d = &pft_metrics[m];
			char name[64];
			snprintf(name, sizeof(name), "%s-t%ld", d->name, T);
			result_metric(r, name, d->unit, d->better, d->combine, values[m]);
		}
	}
	return 0;
}

static void pft_teardown(void *state, struct result *r)
{
	struct pft_state *st = state;
	for (long i = 0; i < PFT_MAX_TASKS; i++)
		if (st->fds[i] >= 0)
			close(st->fds[i]);
	munmap(st->round, sizeof(*st->round));
	free(st);
}

const struct workload wl_pft = {
	.name = "pft",
	.summary = "page-fault throughput and scaling over task counts (will-it-scale page_fault1/2/3)",
	.opts = pft_opts,
	.opts_size = sizeof(struct pft_opts),
	.metrics = pft_metrics,
	.validate = pft_validate,
	.setup = pft_setup,
	.run = pft_run,
	.teardown = pft_teardown,
};
