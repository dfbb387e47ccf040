/* senpai: the memory a working set needs for a given stall level, found
 * the way Facebook's senpai sizes containers.  A thread reads the working
 * set (--size) over and over, checking every page; the loop lowers the
 * cgroup's memory.high a --step at a time (a fraction of its value), and
 * after each step watches the cgroup's memory PSI for --interval.  The
 * stall measured is the share of the interval in which some task of the
 * cgroup waited for memory (the delta of memory.pressure's "some total",
 * microseconds, over the interval: the quantity avg10 averages over ten
 * seconds, here without the lag).  When it passes --target the loop stops:
 * the lowest memory.high that stayed under it is the memory needed at that
 * stall level.  The controller is senpai.h's, apart from the cgroup.
 *
 * cgroup v2 only (memory.high, memory.pressure): on a v1 host, or with PSI
 * disabled, a skip with the reason; the kernel matrix runs it in guests. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/timer.h"
#include "core/units.h"
#include "core/util.h"
#include "probe/pressure.h"
#include "workload/pattern.h"
#include "workload/senpai.h"
#include "workload/workload.h"

#define SENPAI_SALT 0x73656e70ull

struct senpai_opts {
	struct vmr_rsize size;
	double step, target;
	uint64_t interval_ns;
	struct vmr_rsize floor;
};

static const struct opt senpai_opts[] = {
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct senpai_opts, size), .def = "0.5x",
	  .metavar = "SIZE", .help = "the working set read over and over (relative sizes are of the limit)" },
	{ .name = "step", .type = OPT_DOUBLE, .off = offsetof(struct senpai_opts, step), .def = "0.05",
	  .min = 0.001, .max = 0.5, .metavar = "X", .help = "lower memory.high by this fraction of it each step" },
	{ .name = "target", .type = OPT_DOUBLE, .off = offsetof(struct senpai_opts, target), .def = "0.1",
	  .min = 0.0001, .max = 1, .metavar = "X",
	  .help = "the stall level: the share of an interval some task waits for memory (PSI some)" },
	{ .name = "interval", .type = OPT_TIME, .off = offsetof(struct senpai_opts, interval_ns), .def = "500ms",
	  .min = 10e6, .max = 60e9, .metavar = "TIME", .help = "how long each memory.high is watched" },
	{ .name = "floor", .type = OPT_RSIZE, .off = offsetof(struct senpai_opts, floor), .def = "0.05x",
	  .metavar = "SIZE", .help = "never lower memory.high below this (relative sizes are of the limit)" },
	OPT_END,
};

enum { SP_NEEDED, SP_NEEDED_RATIO, SP_STALL_NEEDED, SP_HIGH_PASSED, SP_STALL_PASSED, SP_STEPS, SP_SWEEPS,
       SP_REACHED, SP_N };
static const struct metric_def senpai_metrics[] = {
	[SP_NEEDED] = { "memory-needed", "bytes", BETTER_LOWER, COMBINE_AMEAN,
			"the lowest memory.high whose stall stayed under --target", .headline = true },
	[SP_NEEDED_RATIO] = { "memory-needed-ratio", "x", BETTER_LOWER, COMBINE_AMEAN,
			      "memory-needed over the working set" },
	[SP_STALL_NEEDED] = { "stall-at-needed", "x", BETTER_NONE, COMBINE_AMEAN, "the stall measured there" },
	[SP_HIGH_PASSED] = { "high-at-target", "bytes", BETTER_NONE, COMBINE_AMEAN,
			     "the memory.high at which the stall passed --target" },
	[SP_STALL_PASSED] = { "stall-at-target", "x", BETTER_NONE, COMBINE_AMEAN, "the stall measured there" },
	[SP_STEPS] = { "steps", "steps", BETTER_NONE, COMBINE_AMEAN, "memory.high values tried" },
	[SP_SWEEPS] = { "sweeps", "sweeps", BETTER_HIGHER, COMBINE_AMEAN,
			"reads of the whole working set meanwhile, all checked" },
	[SP_REACHED] = { "target-reached", "bool", BETTER_NONE, COMBINE_AMEAN,
			 "1 when the stall passed --target, 0 when the floor came first" },
	{ .name = NULL },
};

struct senpai_state {
	struct senpai_opts o;
	size_t ps, npages;
	uint64_t floor;
	char *buf;
	char *high_path, *pressure_path, *current_path;
	char high_before[64];
	/* the reader thread */
	pthread_t reader;
	volatile int stop;
	volatile long bad_page;   /* -1, or the first page that came back wrong */
	volatile uint64_t sweeps, bad_word;
};

static char *senpai_file(const struct wl_env *env, const char *name)
{
	return xasprintf("%s/%s", env->cgroup, name);
}

static const char *senpai_supported(const void *opts, const struct wl_env *env)
{
	const struct senpai_opts *o = opts;
	if (!env->sandboxed || !env->cgroup)
		return "needs a sandbox: memory.high and memory.pressure are its cgroup's";
	char *high = senpai_file(env, "memory.high"), *psi = senpai_file(env, "memory.pressure");
	struct pressure p;
	char err[PROBE_ERR_MAX] = "";
	bool have_high = access(high, W_OK) == 0, have_psi = pressure_read(&p, psi, err) == 0;
	free(high);
	free(psi);
	if (!have_high)
		return "needs cgroup v2's memory.high: the sandbox's memory cgroup has none (a v1 memory controller)";
	if (!have_psi)
		return "needs the cgroup's memory.pressure: PSI is not in this kernel or is off (psi=0)";
	if (units_rsize_bytes(&o->size, env->limit_bytes) >= env->limit_bytes)
		return "the working set (--size) must fit under the sandbox's limit";
	if (!env->swap_bytes)
		return "needs swap: without it nothing can be reclaimed from an anonymous working set";
	return NULL;
}

static void *senpai_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct senpai_state *st = xcalloc(1, sizeof(*st));
	st->o = *(const struct senpai_opts *)opts;
	st->ps = env->page_size;
	st->npages = units_rsize_bytes(&st->o.size, env->limit_bytes) / st->ps;
	st->floor = units_rsize_bytes(&st->o.floor, env->limit_bytes);
	st->bad_page = -1;
	st->buf = mmap(NULL, st->npages * st->ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->buf == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map %zu pages: %s", st->npages, strerror(errno));
		free(st);
		return NULL;
	}
	st->high_path = senpai_file(env, "memory.high");
	st->pressure_path = senpai_file(env, "memory.pressure");
	st->current_path = senpai_file(env, "memory.current");
	return st;
}

static void *senpai_reader(void *arg)
{
	struct senpai_state *st = arg;
	uint64_t found;
	while (!st->stop) {
		for (size_t i = 0; i < st->npages && !st->stop; i++)
			if (!pattern_check(st->buf + i * st->ps, st->ps, i, SENPAI_SALT, &found) && st->bad_page < 0) {
				st->bad_word = found;
				st->bad_page = (long)i;
			}
		st->sweeps++;
	}
	return NULL;
}

/* The cgroup's memory stall so far (some total), microseconds. */
static int senpai_stall_us(const struct senpai_state *st, uint64_t *us)
{
	struct pressure p;
	char err[PROBE_ERR_MAX] = "";
	if (pressure_read(&p, st->pressure_path, err) < 0)
		return -1;
	*us = p.some.total_us;
	return 0;
}

static void senpai_sleep(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* memory.high = bytes, then the stall over one interval.  0 or -errno. */
static int senpai_try(struct senpai_state *st, uint64_t high, double *stall)
{
	char v[32];
	uint64_t s0, s1;
	snprintf(v, sizeof(v), "%" PRIu64, high);
	if (senpai_stall_us(st, &s0) < 0)
		return -EIO;
	uint64_t t0 = vmr_now_ns();
	if (vmr_write_file(st->high_path, v) < 0)
		return -errno;
	senpai_sleep(st->o.interval_ns);
	if (senpai_stall_us(st, &s1) < 0)
		return -EIO;
	double elapsed_us = (double)(vmr_now_ns() - t0) / 1000.0;
	*stall = elapsed_us > 0 ? (double)(s1 - s0) / elapsed_us : 0;
	return 0;
}

void senpai_walk_start(struct senpai_walk *w, uint64_t start_bytes, uint64_t floor_bytes, uint64_t page_size,
		       double step, double target)
{
	/* the floor in whole pages, rounded up so that no step goes under it */
	uint64_t floor = floor_bytes > page_size ? floor_bytes : page_size;
	floor += (page_size - floor % page_size) % page_size;
	uint64_t first = start_bytes - start_bytes % page_size;
	*w = (struct senpai_walk){ .floor = floor, .page_size = page_size, .step = step, .target = target };
	w->next = first > floor ? first : floor;
}

bool senpai_walk_next(const struct senpai_walk *w, uint64_t *high)
{
	*high = w->next;
	return w->next != 0;
}

void senpai_walk_record(struct senpai_walk *w, double stall)
{
	w->steps++;
	if (stall >= w->target) {
		w->passed = w->next;
		w->stall_passed = stall;
		w->reached = true;
		w->next = 0;
		return;
	}
	/* the steps only go down, so the last one under the target is the lowest */
	w->needed = w->next;
	w->stall_needed = stall;
	w->have_needed = true;
	if (w->next <= w->floor) {
		w->next = 0;
		return;
	}
	uint64_t n = (uint64_t)((double)w->next * (1.0 - w->step));
	n -= n % w->page_size;
	w->next = n > w->floor ? n : w->floor;
}

/* Lower memory.high from what the working set uses now until the stall
 * passes the target or the floor is tried. */
static int senpai_walk(struct senpai_state *st, struct senpai_walk *w, const char **failed)
{
	uint64_t high = 0;
	*failed = st->current_path;
	int e = vmr_read_u64(st->current_path, &high);
	if (e < 0)
		return e;
	*failed = st->high_path;
	senpai_walk_start(w, high, st->floor, st->ps, st->o.step, st->o.target);
	while (senpai_walk_next(w, &high)) {
		double stall = 0;
		e = senpai_try(st, high, &stall);
		if (e < 0)
			return e;
		senpai_walk_record(w, stall);
	}
	return 0;
}

static int senpai_run(void *state, struct result *r)
{
	struct senpai_state *st = state;
	struct senpai_walk w = { .next = 0 };
	char *before = NULL;
	for (size_t i = 0; i < st->npages; i++)
		pattern_stamp(st->buf + i * st->ps, st->ps, i, SENPAI_SALT);
	if (vmr_read_line(st->high_path, &before) == 0) {
		snprintf(st->high_before, sizeof(st->high_before), "%s", before);
		free(before);
	}
	if (pthread_create(&st->reader, NULL, senpai_reader, st)) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot start the reader thread");
		return 0;
	}
	const char *failed = NULL;
	int e = senpai_walk(st, &w, &failed);
	st->stop = 1;
	pthread_join(st->reader, NULL);
	if (st->high_before[0])
		vmr_write_file(st->high_path, st->high_before);
	if (e < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "%s: %s", failed, strerror(-e));
		return 0;
	}
	if (st->bad_page >= 0)
		result_set_outcome(r, OUTCOME_FAIL, "page %ld of %zu came back with the wrong data (first word %#" PRIx64
				   ")", st->bad_page, st->npages, (uint64_t)st->bad_word);
	double ws = (double)(st->npages * st->ps);
	double v[SP_N] = {
		[SP_NEEDED] = (double)w.needed, [SP_NEEDED_RATIO] = ws > 0 ? (double)w.needed / ws : 0,
		[SP_STALL_NEEDED] = w.stall_needed, [SP_HIGH_PASSED] = (double)w.passed,
		[SP_STALL_PASSED] = w.stall_passed, [SP_STEPS] = (double)w.steps, [SP_SWEEPS] = (double)st->sweeps,
		[SP_REACHED] = w.reached,
	};
	/* a figure no step measured is absent: no memory-needed when the first
	 * step already passed the target, no high-at-target when it never did */
	bool have[SP_N] = {
		[SP_NEEDED] = w.have_needed, [SP_NEEDED_RATIO] = w.have_needed && ws > 0,
		[SP_STALL_NEEDED] = w.have_needed, [SP_HIGH_PASSED] = w.reached, [SP_STALL_PASSED] = w.reached,
		[SP_STEPS] = true, [SP_SWEEPS] = true, [SP_REACHED] = true,
	};
	for (int m = 0; m < SP_N; m++)
		if (have[m])
			result_metric_def(r, &senpai_metrics[m], v[m]);
	return 0;
}

static void senpai_teardown(void *state, struct result *r)
{
	struct senpai_state *st = state;
	munmap(st->buf, st->npages * st->ps);
	free(st->high_path);
	free(st->pressure_path);
	free(st->current_path);
	free(st);
}

const struct workload wl_senpai = {
	.name = "senpai",
	.summary = "the memory a working set needs for a stall level: lower memory.high until PSI passes a target",
	.opts = senpai_opts,
	.opts_size = sizeof(struct senpai_opts),
	.metrics = senpai_metrics,
	.needs_root = true,
	.supported = senpai_supported,
	.setup = senpai_setup,
	.run = senpai_run,
	.teardown = senpai_teardown,
};
