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
#include "workload/workload.h"

#define UM_MAX_TASKS 256
#define UM_MAX_UNITS 60000     /* under vm.max_map_count's default 65530 */
#define UM_BLOCK 4096          /* dd bs=4k */

enum um_io { UM_IO_MMAP, UM_IO_READ, UM_IO_TRUNCATE };

struct um_opts {
	struct vmr_rsize size;
	long tasks;
	bool threads, random, readonly, shm, file_backed, shared_file, cow, prefault, msync;
	char *file;
	int io;
	uint64_t unit, step;
	long repeat;
	uint64_t runtime_ns;
	long corrupt_page;
};

static const struct opt um_opts[] = {
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct um_opts, size), .def = "0.25x",
	  .metavar = "SIZE", .help = "memory per task: 64M, or 0.25x the sandbox limit (MemTotal unsandboxed)" },
	{ .name = "tasks", .type = OPT_INT, .off = offsetof(struct um_opts, tasks), .def = "1",
	  .min = 1, .max = UM_MAX_TASKS, .metavar = "N", .help = "tasks, each with its own SIZE (usemem -n)" },
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

static int um_validate(const void *opts)
{
	const struct um_opts *o = opts;
	const char *kind = NULL;
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
	uint64_t size = units_rsize_bytes(&o->size, um_base(env));
	uint64_t charged = o->readonly || o->file || o->file_backed ? 0
			 : size * (uint64_t)(o->tasks + o->cow);
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

/* A task's outcome, in MAP_SHARED memory so that processes can report. */
struct um_task {
	uint64_t bytes, ns;
	uint64_t cpu_ns;           /* the task's own CPU time over the same span */
	uint64_t check_ns;         /* reading the region back, after the timed part */
	uint64_t reached;          /* --runtime: the word the last pass stopped at */
	long passes;               /* passes completed */
	int64_t bad_page;          /* the first page that read back wrong, or -1 */
	uint64_t found;
	int err;                   /* errno of a failed mmap/open/read */
	bool corrupted;
};

struct um_shared {
	atomic_int ready, go;
	struct um_task task[UM_MAX_TASKS];
	int64_t parent_bad_page;   /* --cow: the parent's copy */
	uint64_t parent_found;
};

struct um_state {
	struct um_opts o;
	size_t ps, size, nwords, step_words, nunits, unit;
	uint64_t salt, parent_salt;
	char *prefix;              /* files: PATH (the files are PATH-i) */
	int fds[UM_MAX_TASKS];
	uint64_t *cow_region, cow_ns;   /* --cow: the region; mapping and populating it */
	struct um_shared *sh;
};

struct um_region {
	uint64_t **units;          /* nunits mappings of unit bytes (the last may be less) */
	size_t n;
};

/* The index of a random touch, drawn as usemem draws it (lrand48_r scaled
 * through a double): the draw costs tens of nanoseconds, a large part of
 * what a random touch costs, so a cheaper generator would measure a
 * different, faster program. */
static inline size_t um_index(struct drand48_data *rd, size_t max)
{
	long v = 0;
	lrand48_r(rd, &v);
	return (size_t)((double)max * (double)v / 2147483648.0);
}

static inline uint64_t *um_word(const struct um_state *st, const struct um_region *rg, size_t i)
{
	size_t per = st->unit / 8;
	return rg->units[i / per] + i % per;
}

static int um_map(struct um_state *st, long idx, struct um_region *rg, uint64_t *bytes)
{
	int prot = st->o.readonly ? PROT_READ : PROT_READ | PROT_WRITE;
	int fd = st->fds[st->o.shared_file ? 0 : idx];
	int flags = fd >= 0 ? MAP_SHARED : st->o.shm ? MAP_SHARED | MAP_ANONYMOUS : MAP_PRIVATE | MAP_ANONYMOUS;
	flags |= st->o.prefault ? MAP_POPULATE : 0;
	rg->n = st->nunits;
	rg->units = xcalloc(rg->n, sizeof(*rg->units));
	if (st->o.cow) {
		rg->units[0] = st->cow_region;
		*bytes += st->size / 8;
		return 0;
	}
	for (size_t u = 0; u < rg->n; u++) {
		size_t len = u + 1 < rg->n ? st->unit : st->size - u * st->unit;
		void *p = mmap(NULL, len, prot, flags, fd, (off_t)(u * st->unit));
		if (p == MAP_FAILED) {
			rg->n = u;
			return -errno;
		}
		rg->units[u] = p;
	}
	*bytes += st->size / 8;   /* usemem's credit for the allocation */
	return 0;
}

static void um_unmap(struct um_state *st, struct um_region *rg)
{
	for (size_t u = 0; !st->o.cow && u < rg->n; u++)
		munmap(rg->units[u], u + 1 < st->nunits ? st->unit : st->size - u * st->unit);
	free(rg->units);
}

/* A word read or written through a call, as usemem touches every word
 * through its do_access(), which its -O build does not inline: where
 * faults are cheap (reads of the zero page, pages already present) the
 * call is a large part of a word's cost, and an inlined loop measured
 * twice usemem's throughput. */
__attribute__((noinline)) static uint64_t um_touch(volatile uint64_t *w, uint64_t v, bool read)
{
	if (read)
		return *w;
	*w = v;
	return 0;
}

/* Words [a, b) of the region at the step k, all in the one mapping that
 * starts at p with word base: the sequential loops, one per kind of
 * access so that nothing else is decided per word. */
static void um_seq(volatile uint64_t *p, size_t base, size_t a, size_t b, size_t k, int kind, uint64_t salt,
		   struct um_task *t, size_t ps, uint64_t *acc)
{
	size_t i = (a + k - 1) / k * k;
	switch (kind) {
	case 0:
		for (; i < b; i += k)
			*acc |= um_touch(p + (i - base), 0, true);
		break;
	case 1:
		for (; i < b; i += k)
			um_touch(p + (i - base), i ^ salt, false);
		break;
	default:
		for (; i < b; i += k) {
			if (p[i - base] != (i ^ salt) && t->bad_page < 0) {
				t->bad_page = (int64_t)(i * 8 / ps);
				t->found = p[i - base];
			}
			um_touch(p + (i - base), i ^ salt, false);
		}
	}
}

/* n random words: usemem's --random touches as many words as a pass in
 * order would, each anywhere in the region. */
static void um_rand(struct um_state *st, struct um_region *rg, size_t n, struct drand48_data *rd, uint64_t *acc)
{
	size_t m = st->nwords;
	uint64_t salt = st->salt, or = 0;
	volatile uint64_t *p0 = rg->units[0];
	for (size_t j = 0; j < n; j++) {
		size_t i = um_index(rd, m - 1);
		/* one mapping (the cases but small-allocs): no division */
		or |= um_touch(rg->n == 1 ? p0 + i : um_word(st, rg, i), i ^ salt, st->o.readonly);
	}
	*acc |= or;
}

/* One pass over the region, the measured loop, in slices of 64K words
 * that never cross a mapping: the clock is read between slices, as usemem
 * checks its runtime every 64K words.  Returns the words touched; a wrong
 * word sets t->bad_page. */
#define UM_SLICE ((size_t)1 << 16)
static size_t um_pass(struct um_state *st, struct um_region *rg, struct um_task *t, long pass, struct drand48_data *rd,
		      uint64_t deadline)
{
	size_t m = st->nwords, k = st->step_words, per = st->unit / 8, n = 0;
	int kind = st->o.readonly ? 0 : pass > 0 ? 2 : 1;
	uint64_t acc = 0;
	for (size_t a = 0; a < m;) {
		size_t u = a / per, b = a + UM_SLICE;
		b = b < (u + 1) * per ? b : (u + 1) * per;   /* not past the mapping's end */
		b = b < m ? b : m;
		size_t touched = (b + k - 1) / k - (a + k - 1) / k;
		if (st->o.random)
			um_rand(st, rg, touched, rd, &acc);
		else
			um_seq(rg->units[u], u * per, a, b, k, kind, st->salt, t, st->ps, &acc);
		n += touched;
		a = b;
		if (deadline && a < m && vmr_now_ns() > deadline) {
			t->reached = a;
			return n;
		}
	}
	t->reached = m;
	t->passes++;
	if (acc && t->bad_page < 0)
		t->bad_page = -2;   /* found by the check below */
	return n;
}

/* Read the region back: every word at the step must hold its pattern, or
 * (random writes, reads, the words after where --runtime stopped the first
 * pass) what was there before. */
static void um_check(struct um_state *st, struct um_region *rg, struct um_task *t, uint64_t salt,
		     uint64_t before_salt, bool before_zero)
{
	for (size_t i = 0; i < st->nwords && t->bad_page < 0; i += st->step_words) {
		uint64_t w = *(volatile uint64_t *)um_word(st, rg, i);
		bool untouched = st->o.random || (t->passes == 0 && i >= t->reached);
		bool ok = st->o.readonly ? w == 0
			: w == (i ^ salt) || (untouched && (before_zero ? w == 0 : w == (i ^ before_salt)));
		if (!ok) {
			t->bad_page = (int64_t)(i * 8 / st->ps);
			t->found = w;
		}
	}
}

static int um_corrupt(struct um_state *st, struct um_region *rg)
{
	size_t off = (size_t)st->o.corrupt_page * st->ps;
	if (st->fds[0] >= 0) {
		/* a shared or read-only file mapping cannot be written through
		 * /proc/self/mem: change the file behind the mapping instead */
		uint64_t junk = 0xdeadbeefbadc0ffeull;
		return pwrite(st->fds[0], &junk, sizeof(junk), (off_t)off) == (ssize_t)sizeof(junk) ? 0 : -EIO;
	}
	return pattern_corrupt(um_word(st, rg, off / 8));
}

static uint64_t um_cpu_ns(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void um_task_mmap(struct um_state *st, long idx, struct um_task *t)
{
	struct um_region rg = { 0 };
	uint64_t c0 = um_cpu_ns();
	struct drand48_data rd = { 0 };
	srand48_r((long)(st->salt ^ (uint64_t)idx), &rd);
	uint64_t t0 = vmr_now_ns();
	uint64_t deadline = st->o.runtime_ns ? t0 + st->o.runtime_ns : 0;
	int err = um_map(st, idx, &rg, &t->bytes);
	for (long pass = 0; !err && pass < st->o.repeat && t->bad_page == -1; pass++) {
		t->bytes += 8 * um_pass(st, &rg, t, pass, &rd, deadline);
		if (st->o.msync && msync(rg.units[0], st->size, MS_SYNC) < 0)
			err = -errno;
		if (deadline && vmr_now_ns() > deadline)
			break;
	}
	t->ns = vmr_now_ns() - t0 + st->cow_ns;
	t->cpu_ns = um_cpu_ns() - c0;
	t->err = -err;
	if (!err && idx == 0 && st->o.corrupt_page >= 0)
		t->corrupted = um_corrupt(st, &rg) == 0;
	if (!err && t->bad_page < -1)
		t->bad_page = -1;   /* the read pass's OR was not 0: the check names the page */
	uint64_t k0 = vmr_now_ns();
	if (!err && t->bad_page == -1)
		um_check(st, &rg, t, st->salt, st->parent_salt, !st->o.cow);
	t->check_ns = vmr_now_ns() - k0;
	um_unmap(st, &rg);
}

/* dd bs=4k if=FILE of=/dev/null, each block's first and last words checked
 * (the file is sparse: zeros). */
static void um_task_read(struct um_state *st, long idx, struct um_task *t, bool timed)
{
	int fd = st->fds[st->o.shared_file ? 0 : idx];
	uint64_t buf[UM_BLOCK / 8], t0 = vmr_now_ns(), c0 = um_cpu_ns();
	uint64_t deadline = st->o.runtime_ns && timed ? t0 + st->o.runtime_ns : 0;
	if (idx == 0 && st->o.corrupt_page >= 0 && !t->corrupted) {
		uint64_t junk = 0xdeadbeefbadc0ffeull;
		t->corrupted = pwrite(fd, &junk, sizeof(junk), st->o.corrupt_page * (off_t)st->ps) == sizeof(junk);
	}
	for (long pass = 0; pass < (timed ? st->o.repeat : 1) && t->bad_page < 0 && !t->err; pass++) {
		for (off_t off = 0; off < (off_t)st->size; off += UM_BLOCK) {
			ssize_t n = pread(fd, buf, UM_BLOCK, off);
			if (n <= 0) {
				t->err = n < 0 ? errno : EIO;
				break;
			}
			if ((buf[0] | buf[n / 8 - 1]) && t->bad_page < 0) {
				t->bad_page = off / (off_t)st->ps;
				t->found = buf[0] ? buf[0] : buf[n / 8 - 1];
			}
			t->bytes += timed ? (uint64_t)n : 0;
			if (deadline && !(off & 0xffffff) && vmr_now_ns() > deadline)
				break;
		}
	}
	t->ns = vmr_now_ns() - t0;
	t->cpu_ns = um_cpu_ns() - c0;
	if (timed || t->err || t->bad_page >= 0)
		return;
	/* truncate: the cache is full of the file; time dropping it */
	t0 = vmr_now_ns();
	c0 = um_cpu_ns();
	if (ftruncate(fd, 0) < 0)
		t->err = errno;
	t->ns = vmr_now_ns() - t0;
	t->cpu_ns = um_cpu_ns() - c0;
	t->bytes = st->size;
}

static void um_task(struct um_state *st, long idx)
{
	struct um_task *t = &st->sh->task[idx];
	atomic_fetch_add(&st->sh->ready, 1);
	while (!atomic_load(&st->sh->go))
		;
	if (st->o.io == UM_IO_MMAP)
		um_task_mmap(st, idx, t);
	else
		um_task_read(st, idx, t, st->o.io == UM_IO_READ);
}

struct um_arg {
	struct um_state *st;
	long idx;
};

static void *um_thread(void *arg)
{
	struct um_arg *a = arg;
	um_task(a->st, a->idx);
	return NULL;
}

/* Start the tasks and wait for them.  With threads the calling thread is
 * task 0, so one task is one thread, as in usemem. */
static int um_start(struct um_state *st)
{
	long T = st->o.tasks, started = st->o.threads ? 1 : 0;
	pthread_t th[UM_MAX_TASKS];
	pid_t pids[UM_MAX_TASKS];
	struct um_arg args[UM_MAX_TASKS];
	for (; started < T; started++) {
		args[started] = (struct um_arg){ st, started };
		if (st->o.threads) {
			if (pthread_create(&th[started], NULL, um_thread, &args[started]))
				break;
			continue;
		}
		pids[started] = fork();
		if (pids[started] == 0) {
			um_task(st, started);
			_exit(0);
		}
		if (pids[started] < 0)
			break;
	}
	while (atomic_load(&st->sh->ready) < started - (st->o.threads ? 1 : 0))
		;
	atomic_store(&st->sh->go, 1);
	if (st->o.threads && started == T)
		um_task(st, 0);
	for (long i = st->o.threads ? 1 : 0; i < started; i++) {
		if (st->o.threads)
			pthread_join(th[i], NULL);
		else
			waitpid(pids[i], NULL, 0);
	}
	return started == T ? 0 : -1;
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
	st->ps = env->page_size;
	st->size = units_rsize_bytes(&st->o.size, um_base(env)) / st->ps * st->ps;
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
