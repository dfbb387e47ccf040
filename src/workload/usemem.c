/* usemem: vm-scalability's core program.  N tasks (processes, or threads
 * of one process) each map SIZE and walk it word by word, writing each
 * word or only reading it, in order or at random, for --repeat passes or
 * until --runtime; the figure is bytes per second, per task and summed, as
 * usemem's "N bytes / T usecs = K KB/s" lines are (LKP's
 * vm-scalability.throughput is that sum).
 *
 * Memory: anonymous (usemem's private /dev/zero mapping), a file per task
 * mapped shared (sparse, as vm-scalability's create_sparse_file makes it:
 * reading it fills the page cache with zeroed pages, no disk I/O), or
 * shmem.  --cow: the process maps and writes one region before it forks
 * the tasks, which then write it: every first write is a copy-on-write
 * fault (usemem --prealloc --prefault).  --io read reads each file with
 * read(2) in 4 KiB blocks, as the lru-file cases' dd does; --io truncate
 * fills each file's page cache and times its truncation.
 *
 * What is counted follows usemem: 8 bytes per word touched, plus SIZE/8
 * for each mapping (usemem credits the allocation so); timed from the
 * start signal to the end of the task's last pass, mapping included,
 * unmapping not.
 *
 * The check: word i of a region holds i ^ salt (a fresh salt per run,
 * pattern_salt()).  The page pattern of pattern.h would cost a multiply
 * per word here, and usemem writes every word, so the word pattern is the
 * cheapest one that still tells a stale or foreign page from the right
 * one.  Passes after the first verify the word before writing it again
 * (usemem does the same); reads fold every word into one OR, which must
 * stay 0 on untouched anonymous memory and sparse files.  After the timed
 * passes every task reads its region back (check-time, apart); with
 * --cow the parent then checks that its own copy was left alone. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/timer.h"
#include "core/util.h"
#include "workload/pattern.h"
#include "workload/tasks.h"
#include "workload/usemem_walk.h"
#include "workload/workload.h"

static const struct opt um_opts[] = {
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct um_opts, size), .def = "0.25x",
	  .metavar = "SIZE", .help = "memory per task: 64M, or 0.25x the sandbox limit (MemTotal unsandboxed)" },
	{ .name = "tasks", .type = OPT_STR, .off = offsetof(struct um_opts, tasks_spec), .def = "1", .metavar = "N|cpus",
	  .help = "tasks, each with its own SIZE (usemem -n); cpus: one per CPU this process may run on" },
	{ .name = "split", .type = OPT_FLAG, .off = offsetof(struct um_opts, split),
	  .help = "SIZE is all the tasks' together: each maps SIZE / tasks (LKP's $((mem / nr_task)))" },
	{ .name = "threads", .type = OPT_FLAG, .off = offsetof(struct um_opts, threads),
	  .help = "the tasks are threads of one process (usemem -t)" },
	{ .name = "random", .type = OPT_FLAG, .off = offsetof(struct um_opts, random),
	  .help = "touch words at random, as many as the region holds (usemem --random)" },
	{ .name = "readonly", .type = OPT_FLAG, .off = offsetof(struct um_opts, readonly),
	  .help = "read the words, never write (usemem --readonly)" },
	{ .name = "file", .type = OPT_STR, .off = offsetof(struct um_opts, file), .metavar = "PATH",
	  .help = "map sparse files PATH-0, PATH-1, ... (one per task; created and removed)" },
	{ .name = "file-backed", .type = OPT_FLAG, .off = offsetof(struct um_opts, file_backed),
	  .help = "the same, with the files in the sandbox's work directory" },
	{ .name = "shared-file", .type = OPT_FLAG, .off = offsetof(struct um_opts, shared_file),
	  .help = "all tasks use one file (two readers of one file: lru-file-readtwice)" },
	{ .name = "shm", .type = OPT_FLAG, .off = offsetof(struct um_opts, shm),
	  .help = "map shared anonymous memory (shmem)" },
	{ .name = "cow", .type = OPT_FLAG, .off = offsetof(struct um_opts, cow),
	  .help = "map and write one region before forking the tasks, which write it: copy-on-write" },
	{ .name = "io", .type = OPT_ENUM, .off = offsetof(struct um_opts, io), .def = "mmap",
	  .choices = "mmap|read|truncate",
	  .help = "files: map them, read(2) them in 4K blocks (dd), or fill their cache and time truncation" },
	{ .name = "prefault", .type = OPT_FLAG, .off = offsetof(struct um_opts, prefault),
	  .help = "map with MAP_POPULATE (usemem --prefault)" },
	{ .name = "msync", .type = OPT_FLAG, .off = offsetof(struct um_opts, msync),
	  .help = "msync(MS_SYNC) the region after each pass (usemem --msync)" },
	{ .name = "unit", .type = OPT_SIZE, .off = offsetof(struct um_opts, unit), .def = "0",
	  .max = 1e13, .metavar = "SIZE", .help = "map SIZE at a time, one mapping each (usemem --unit; 0: all at once)" },
	{ .name = "step", .type = OPT_SIZE, .off = offsetof(struct um_opts, step), .def = "8",
	  .min = 8, .max = 1 << 30, .metavar = "SIZE", .help = "distance between words touched (usemem --step)" },
	{ .name = "repeat", .type = OPT_INT, .off = offsetof(struct um_opts, repeat), .def = "1",
	  .min = 1, .max = 1e6, .metavar = "N", .help = "passes over the region (usemem --repeat)" },
	{ .name = "runtime", .type = OPT_TIME, .off = offsetof(struct um_opts, runtime_ns), .def = "0",
	  .max = 3600e9, .metavar = "TIME", .help = "stop each task after TIME, even mid-pass (0: never; usemem --runtime)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct um_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the first task's region before it is read back" },
	OPT_END,
};

enum { UM_THROUGHPUT, UM_PER_TASK, UM_PER_CPU, UM_BYTES, UM_TIME, UM_CHECK };
static const struct metric_def um_metrics[] = {
	[UM_THROUGHPUT] = { "throughput", "bytes/s", BETTER_HIGHER, COMBINE_HMEAN,
			    "bytes per second, the tasks' rates summed (vm-scalability.throughput)", .headline = true },
	[UM_PER_TASK] = { "throughput-per-task", "bytes/s", BETTER_HIGHER, COMBINE_HMEAN,
			  "the mean of the tasks' rates" },
	/* time the tasks waited for a CPU does not count: the cost of the
	 * walk itself, steady on a busy machine */
	[UM_PER_CPU] = { "throughput-per-cpu-sec", "bytes/s", BETTER_HIGHER, COMBINE_HMEAN,
			 "bytes per second of the tasks' own CPU time" },
	[UM_BYTES] = { "bytes", "bytes", BETTER_NONE, COMBINE_AMEAN, "bytes counted, all tasks (usemem's rule)" },
	[UM_TIME] = { "time", "ns", BETTER_LOWER, COMBINE_AMEAN, "the slowest task's time" },
	[UM_CHECK] = { "check-time", "ns", BETTER_NONE, COMBINE_AMEAN, "reading the regions back after the timed passes (the slowest task)" },
	{ .name = NULL },
};

/* --tasks: N, or cpus (tasks_single); -1 when neither. */
static long um_ntasks(const struct um_opts *o)
{
	return tasks_single(o->tasks_spec ? o->tasks_spec : "1", UM_MAX_TASKS);
}

/* Each task's bytes: SIZE, or SIZE / tasks with --split. */
static uint64_t um_task_size(const struct um_opts *o, uint64_t base)
{
	return units_rsize_bytes(&o->size, base) / (o->split && um_ntasks(o) > 0 ? (uint64_t)um_ntasks(o) : 1);
}

static int um_validate(const void *opts)
{
	const struct um_opts *o = opts;
	const char *kind = NULL;
	if (um_ntasks(o) < 0)
		return vmr_wl_err("usemem", "--tasks '%s': a count from 1 to %d, or cpus", o->tasks_spec,
				  UM_MAX_TASKS);
	int kinds = !!o->file + o->file_backed + o->shm;
	if (kinds > 1)
		kind = "--file, --file-backed and --shm: choose one kind of memory";
	else if (o->file && !*o->file)
		kind = "--file: '' is not a path";
	else if (o->cow && (kinds || o->threads || o->readonly))
		kind = "--cow: copy-on-write is of private anonymous memory written by processes "
		       "(not with --file, --shm, --threads or --readonly)";
	else if (o->io != UM_IO_MMAP && (!(o->file || o->file_backed) || o->random || o->unit || o->msync))
		kind = "--io read|truncate: reads whole files in order (needs --file or --file-backed; "
		       "not with --random, --unit or --msync)";
	else if (o->shared_file && !(o->file || o->file_backed))
		kind = "--shared-file: needs --file or --file-backed";
	else if (o->msync && !(o->file || o->file_backed))
		kind = "--msync: needs a file (--file or --file-backed)";
	if (kind)
		return vmr_wl_err("usemem", "%s", kind);
	return 0;
}

static uint64_t um_base(const struct wl_env *env)
{
	if (env->limit_bytes)
		return env->limit_bytes;
	long pages = sysconf(_SC_PHYS_PAGES);
	return pages > 0 ? (uint64_t)pages * env->page_size : 0;
}

static const char *um_supported(const void *opts, const struct wl_env *env)
{
	static char why[200];
	const struct um_opts *o = opts;
	uint64_t size = um_task_size(o, um_base(env));
	uint64_t charged = o->readonly || o->file || o->file_backed ? 0
			 : size * (uint64_t)(um_ntasks(o) + o->cow);
	if (size < env->page_size)
		return "--size is less than a page";
	if (o->unit && (size + o->unit - 1) / o->unit > UM_MAX_UNITS) {
		snprintf(why, sizeof(why), "--unit: %" PRIu64 " mappings per task is more than %d "
			 "(vm.max_map_count): a larger --unit", (size + o->unit - 1) / o->unit, UM_MAX_UNITS);
		return why;
	}
	if (env->sandboxed && charged > env->limit_bytes + env->swap_bytes) {
		snprintf(why, sizeof(why), "%" PRIu64 " MiB to write does not fit in the sandbox's memory and "
			 "swap (%" PRIu64 " MiB): a smaller --size or more --swap", charged >> 20,
			 (env->limit_bytes + env->swap_bytes) >> 20);
		return why;
	}
	return NULL;
}

static int um_files(struct um_state *st, const struct wl_env *env, struct result *r)
{
	long n = st->o.shared_file ? 1 : st->o.tasks;
	st->prefix = st->o.file ? xstrdup(st->o.file) : xasprintf("%s/usemem.%ld", env->workdir, (long)getpid());
	for (long i = 0; i < n; i++) {
		char *path = xasprintf("%s-%ld", st->prefix, i);
		st->fds[i] = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		int err = st->fds[i] < 0 ? errno : ftruncate(st->fds[i], (off_t)st->size) < 0 ? errno : 0;
		if (err) {
			result_set_outcome(r, OUTCOME_ERROR, "cannot create the sparse file %s: %s", path, strerror(err));
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

/* --cow: the region the tasks inherit, written by this process first.  As
 * usemem's clock starts before it populates it, each task's time includes
 * the populating (cow_ns), not the pattern written after it. */
static int um_cow_region(struct um_state *st, struct result *r)
{
	uint64_t t0 = vmr_now_ns();
	void *p = mmap(NULL, st->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map the region to share: %s", strerror(errno));
		return -1;
	}
	st->cow_ns = vmr_now_ns() - t0;
	st->cow_region = p;
	for (size_t i = 0; i < st->nwords; i++)
		st->cow_region[i] = i ^ st->parent_salt;
	return 0;
}

static void *um_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct um_state *st = xcalloc(1, sizeof(*st));
	st->o = *(const struct um_opts *)opts;
	st->o.tasks = um_ntasks(&st->o);
	st->ps = env->page_size;
	st->size = um_task_size(&st->o, um_base(env)) / st->ps * st->ps;
	st->unit = st->o.unit && !st->o.cow ? (st->o.unit + st->ps - 1) / st->ps * st->ps : st->size;
	st->unit = st->unit > st->size ? st->size : st->unit;
	st->nunits = (st->size + st->unit - 1) / st->unit;
	st->nwords = st->size / 8;
	st->step_words = st->o.step / 8;
	st->salt = pattern_salt();
	st->parent_salt = ~st->salt;
	for (long i = 0; i < UM_MAX_TASKS; i++)
		st->fds[i] = -1;
	st->sh = mmap(NULL, sizeof(*st->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (st->sh == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map shared memory: %s", strerror(errno));
		free(st);
		return NULL;
	}
	memset(st->sh, 0, sizeof(*st->sh));
	for (long i = 0; i < UM_MAX_TASKS; i++)
		st->sh->task[i].bad_page = -1;
	st->sh->parent_bad_page = -1;
	if (st->o.corrupt_page >= 0 && (size_t)st->o.corrupt_page >= st->size / st->ps)
		result_set_outcome(r, OUTCOME_ERROR, "--corrupt-page %ld is beyond the region's %zu pages",
				   st->o.corrupt_page, st->size / st->ps);
	else if (st->o.file || st->o.file_backed)
		um_files(st, env, r);   /* teardown removes what it made */
	else if (st->o.cow)
		um_cow_region(st, r);
	char buf[32];
	result_info_set(r, "memory", json_string(st->o.io == UM_IO_READ ? "file, read(2)"
				     : st->o.io == UM_IO_TRUNCATE ? "file, truncated"
				     : st->fds[0] >= 0 || st->o.file || st->o.file_backed ? "file" : st->o.shm ? "shmem"
				     : st->o.cow ? "anonymous, copy-on-write" : "anonymous"));
	result_info_set(r, "size_per_task", json_string(units_format_size(buf, sizeof(buf), st->size)));
	result_info_set(r, "tasks", json_integer(st->o.tasks));
	result_info_set(r, "tasks_asked", json_string(st->o.tasks_spec ? st->o.tasks_spec : "1"));
	result_info_set(r, "task_kind", json_string(st->o.threads ? "threads" : "processes"));
	result_info_set(r, "access", json_sprintf("%s %s", st->o.readonly ? "read" : "write",
						  st->o.random ? "random" : "sequential"));
	return st;
}

static const char *const um_cols[] = { "task", "bytes", "time_ns", "cpu_ns", "throughput" };

static int um_results(struct um_state *st, struct result *r)
{
	struct table *tab = result_table(r, "tasks", ARRAY_SIZE(um_cols), um_cols);
	double sum = 0, bytes = 0, slowest = 0, cpu = 0;
	for (long i = 0; i < st->o.tasks; i++) {
		struct um_task *t = &st->sh->task[i];
		if (t->err) {
			result_set_outcome(r, OUTCOME_ERROR, "task %ld: %s", i, strerror(t->err));
			return -1;
		}
		if (t->bad_page >= 0) {
			result_set_outcome(r, OUTCOME_FAIL, "page %" PRId64 " of task %ld read back wrong data "
					   "(word %#" PRIx64 ")", t->bad_page, i, t->found);
			return -1;
		}
		double rate = t->ns ? (double)t->bytes / ((double)t->ns / 1e9) : 0;
		double row[] = { (double)i, (double)t->bytes, (double)t->ns, (double)t->cpu_ns, rate };
		table_add_row(tab, row);
		sum += rate;
		cpu += (double)t->cpu_ns / 1e9;
		bytes += (double)t->bytes;
		slowest = (double)t->ns > slowest ? (double)t->ns : slowest;
	}
	if (st->o.corrupt_page >= 0 && !st->sh->task[0].corrupted) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot damage page %ld", st->o.corrupt_page);
		return -1;
	}
	result_metric_def(r, &um_metrics[UM_THROUGHPUT], sum);
	result_metric_def(r, &um_metrics[UM_PER_TASK], sum / (double)st->o.tasks);
	result_metric_def(r, &um_metrics[UM_PER_CPU], cpu > 0 ? bytes / cpu : 0);
	result_metric_def(r, &um_metrics[UM_BYTES], bytes);
	result_metric_def(r, &um_metrics[UM_TIME], slowest);
	return 0;
}

static int um_run(void *state, struct result *r)
{
	struct um_state *st = state;
	if (r->outcome != OUTCOME_PASS)
		return 0;
	if (um_start(st) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot start %ld tasks: %s", st->o.tasks, strerror(errno));
		return 0;
	}
	if (um_results(st, r) < 0)
		return 0;
	uint64_t check = 0;
	for (long i = 0; i < st->o.tasks; i++)
		check = st->sh->task[i].check_ns > check ? st->sh->task[i].check_ns : check;
	if (st->o.cow) {
		struct um_task parent = { .bad_page = -1, .passes = 1 };
		struct um_region rg = { .units = &st->cow_region, .n = 1 };
		uint64_t c0 = vmr_now_ns();
		um_check(st, &rg, &parent, st->parent_salt, 0, false);
		check += vmr_now_ns() - c0;
		if (parent.bad_page >= 0) {
			result_set_outcome(r, OUTCOME_FAIL, "page %" PRId64 " of the parent's copy changed under "
					   "its children's writes (word %#" PRIx64 ")", parent.bad_page, parent.found);
			return 0;
		}
	}
	result_metric_def(r, &um_metrics[UM_CHECK], (double)check);
	return 0;
}

static void um_teardown(void *state, struct result *r)
{
	struct um_state *st = state;
	(void)r;
	for (long i = 0; i < UM_MAX_TASKS; i++) {
		if (st->fds[i] < 0)
			continue;
		close(st->fds[i]);
		char *path = xasprintf("%s-%ld", st->prefix, i);
		unlink(path);
		free(path);
	}
	if (st->cow_region)
		munmap(st->cow_region, st->size);
	munmap(st->sh, sizeof(*st->sh));
	free(st->prefix);
	free(st);
}

const struct workload wl_usemem = {
	.name = "usemem",
	.summary = "vm-scalability's usemem: tasks map and walk memory, bytes per second (LKP's throughput)",
	.opts = um_opts,
	.opts_size = sizeof(struct um_opts),
	.metrics = um_metrics,
	.validate = um_validate,
	.supported = um_supported,
	.setup = um_setup,
	.run = um_run,
	.teardown = um_teardown,
};
