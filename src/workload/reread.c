/* reread: Con Kolivas's swap-prefetch tester, sp_tester.c.  Fill a first
 * buffer and time reading it, fill and free a second buffer that pushes the
 * first out to swap, sleep (the seed slept 600 s to give swap prefetch its
 * chance), then time re-reading the first buffer.  The ratio of the two
 * reads, the pages swapped in and the re-read's per-page latency show what
 * vm.page-cluster, swap readahead and zswap do for a returning program.
 *
 * As in sp_tester, both reads touch every byte by default (--touch line:
 * one byte per cache line, page: one per page), and the buffers are sized
 * by its formula against the sandbox: together min(limit + swap/2,
 * 1.5 x limit), each half of it, so that a small swap does not end in the
 * OOM killer.  sp_tester filled with zeros; since Linux 6.12 zero-filled
 * pages go to swap as swpout_zero without I/O, which --fill zero shows
 * (the counters are kept where the kernel has them).  --fill pattern, the
 * default, fills every byte of a page with a byte of its own and stamps
 * the page pattern over its first and last words.  The check is folded
 * into the timed reads (workload/touch.h): each byte is compared as it is
 * read, at the cost of a bare read of the same bytes (bench/reread_touch.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/rusage.h"
#include "core/timer.h"
#include "core/util.h"
#include "probe/meminfo.h"
#include "workload/level.h"
#include "workload/pages.h"
#include "workload/pattern.h"
#include "workload/touch.h"
#include "workload/workload.h"

enum { TOUCH_BYTE, TOUCH_LINE, TOUCH_PAGE };
enum { FILL_PATTERN = TOUCH_FILL_PATTERN, FILL_ZERO = TOUCH_FILL_ZERO };

struct reread_opts {
	struct vmr_rsize size, second;
	uint64_t sleep_ns;
	int touch, fill;
	long passes;
	long corrupt_page;
};

static const struct opt reread_opts[] = {
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct reread_opts, size), .def = "0",
	  .metavar = "SIZE", .help = "the first buffer (relative sizes are of the sandbox limit; 0: sp_tester's, "
	  "half of min(limit + swap/2, 1.5x limit))" },
	{ .name = "second", .type = OPT_RSIZE, .off = offsetof(struct reread_opts, second), .def = "0",
	  .metavar = "SIZE", .help = "the second buffer, which pushes the first out (0: sp_tester's, as --size)" },
	{ .name = "sleep", .type = OPT_TIME, .off = offsetof(struct reread_opts, sleep_ns), .def = "5s",
	  .min = 0, .max = 86400e9, .metavar = "TIME", .help = "pause before the re-read (the seed used 600s)" },
	{ .name = "touch", .type = OPT_ENUM, .off = offsetof(struct reread_opts, touch), .def = "byte",
	  .choices = "byte|line|page", .help = "what the timed reads touch: every byte (sp_tester), one byte per "
	  "64-byte cache line, or one word per page" },
	{ .name = "fill", .type = OPT_ENUM, .off = offsetof(struct reread_opts, fill), .def = "pattern",
	  .choices = "pattern|zero", .help = "fill the buffers with a per-page pattern that is checked, or with "
	  "zeros as sp_tester did (swapped as swpout_zero since Linux 6.12; checked to read zero)" },
	{ .name = "passes", .type = OPT_INT, .off = offsetof(struct reread_opts, passes), .def = "1",
	  .min = 1, .max = 1000, .metavar = "N", .help = "push out, sleep and re-read N times; the re-read's "
	  "figures are the median pass's (by reread-time)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct reread_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the first buffer while it is away" },
	OPT_END,
};

enum { RM_READ, RM_REREAD, RM_RATIO, RM_SWAPPED, RM_PSWPIN, RM_MAJ, RM_P50, RM_P99, RM_SWPOUT_ZERO,
       RM_SWPIN_ZERO, RM_PSWPOUT };
static const struct metric_def reread_metrics[] = {
	[RM_READ] = { "read-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "first read of the first buffer" },
	[RM_REREAD] = { "reread-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "the timed portion: the re-read", .headline = true },
	[RM_RATIO] = { "reread-ratio", "x", BETTER_LOWER, COMBINE_AMEAN, "re-read time / first read time" },
	[RM_SWAPPED] = { "swapped-before-reread", "pages", BETTER_NONE, COMBINE_AMEAN,
			 "pages of the first buffer in swap when the re-read began" },
	[RM_PSWPIN] = { "pswpin", "pages", BETTER_NONE, COMBINE_AMEAN, "pages swapped in during the re-read" },
	[RM_MAJ] = { "major-faults-reread", "faults", BETTER_LOWER, COMBINE_AMEAN, "major faults of the re-read" },
	[RM_P50] = { "reread-latency-p50", "ns", BETTER_LOWER, COMBINE_AMEAN, "median time to bring a page back" },
	[RM_P99] = { "reread-latency-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, "99th percentile of the same" },
	[RM_SWPOUT_ZERO] = { "swpout-zero", "pages", BETTER_NONE, COMBINE_AMEAN,
			     "zero-filled pages swapped out without I/O before the re-read (/proc/vmstat swpout_zero)" },
	[RM_SWPIN_ZERO] = { "swpin-zero", "pages", BETTER_NONE, COMBINE_AMEAN,
			    "zero-filled pages swapped in without I/O during the re-read (/proc/vmstat swpin_zero)" },
	[RM_PSWPOUT] = { "pswpout-before-reread", "pages", BETTER_NONE, COMBINE_AMEAN,
			 "pages written to swap from the fill to the re-read (/proc/vmstat pswpout)" },
	{ .name = NULL },
};

struct reread_state {
	struct reread_opts o;
	size_t ps, n1, n2, step;
	char *buf1;
	char *state;
	struct pages_map pm;
	uint64_t salt;           /* pattern_salt(): the first buffer's; the second's is salt + 1 */
	uint64_t ram, swap;
};

/* /proc/vmstat's counter key ("\nname "); *have says whether it is there. */
static uint64_t reread_vmstat(const char *key, bool *have)
{
	char *buf, *p;
	uint64_t v = 0;
	*have = false;
	if (vmr_read_file("/proc/vmstat", &buf, NULL) < 0)
		return 0;
	if ((p = strstr(buf, key))) {
		v = strtoull(p + strlen(key), NULL, 10);
		*have = true;
	}
	free(buf);
	return v;
}

/* sp_tester's Ram and Swap: the sandbox's limit and swap, else the host's. */
static uint64_t reread_ram(const struct wl_env *env)
{
	if (env->sandboxed)
		return env->limit_bytes;
	return (uint64_t)sysconf(_SC_PHYS_PAGES) * env->page_size;
}

static uint64_t reread_swap(const struct wl_env *env)
{
	return env->sandboxed ? env->swap_bytes : meminfo_now("SwapTotal");
}

/* The buffers: the options', or sp_tester's formula, each half of
 * min(ram + swap/2, 1.5 x ram), in whole pages. */
static void reread_sizes(const struct reread_opts *o, const struct wl_env *env, uint64_t *a, uint64_t *b)
{
	uint64_t ram = reread_ram(env), total = ram + reread_swap(env) / 2;
	if (total > ram / 2 * 3)
		total = ram / 2 * 3;
	uint64_t half = total / 2 / env->page_size * env->page_size;
	*a = o->size.bytes || o->size.factor ? units_rsize_bytes(&o->size, ram) : half;
	*b = o->second.bytes || o->second.factor ? units_rsize_bytes(&o->second, ram) : half;
}

static const char *reread_supported(const void *opts, const struct wl_env *env)
{
	static char why[200];
	const struct reread_opts *o = opts;
	uint64_t a, b;
	reread_sizes(o, env, &a, &b);
	if (a < env->page_size || b < env->page_size)
		return "the buffers must be at least a page";
	if (env->sandboxed && a > env->limit_bytes + env->swap_bytes) {
		snprintf(why, sizeof(why), "the first buffer (%" PRIu64 " bytes) does not fit in the sandbox's "
			 "memory and swap", a);
		return why;
	}
	if (!env->sandboxed && !env->force &&
	    a + b > (uint64_t)sysconf(_SC_AVPHYS_PAGES) * env->page_size)
		return "the buffers are larger than free memory (--force to run anyway)";
	return NULL;
}

static const char *const reread_touch_names[] = { "byte", "line", "page" };
static const char *const reread_fill_names[] = { "pattern", "zero" };

static void *reread_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct reread_state *st = xcalloc(1, sizeof(*st));
	uint64_t a, b;
	st->o = *(const struct reread_opts *)opts;
	st->ps = env->page_size;
	st->salt = pattern_salt();
	st->step = st->o.touch == TOUCH_BYTE ? 1 : st->o.touch == TOUCH_LINE ? 64 : st->ps;
	st->ram = reread_ram(env);
	st->swap = reread_swap(env);
	reread_sizes(&st->o, env, &a, &b);
	st->n1 = a / st->ps;
	st->n2 = b / st->ps;
	if (st->o.corrupt_page >= (long)st->n1) {
		result_set_outcome(r, OUTCOME_ERROR, "--corrupt-page %ld is beyond the first buffer's %zu pages",
				   st->o.corrupt_page, st->n1);
		goto free_state;
	}
	int err = pages_open(&st->pm);
	if (err) {
		result_set_outcome(r, OUTCOME_SKIP, "cannot open /proc/self/pagemap: %s", strerror(-err));
		goto free_state;
	}
	st->pm.private_anon = true;
	st->buf1 = mmap(NULL, st->n1 * st->ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->buf1 == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map %zu pages: %s", st->n1, strerror(errno));
		goto close_pm;
	}
	madvise(st->buf1, st->n1 * st->ps, MADV_NOHUGEPAGE);
	st->state = xmalloc(st->n1 + 1);
	result_info_set(r, "ram", json_integer((json_int_t)st->ram));
	result_info_set(r, "swap", json_integer((json_int_t)st->swap));
	result_info_set(r, "first_bytes", json_integer((json_int_t)(st->n1 * st->ps)));
	result_info_set(r, "second_bytes", json_integer((json_int_t)(st->n2 * st->ps)));
	result_info_set(r, "sizing", json_string(st->o.size.bytes || st->o.size.factor ? "--size"
						 : "sp_tester's: half of min(ram + swap/2, 1.5 x ram) each"));
	result_info_set(r, "sleep_ns", json_integer((json_int_t)st->o.sleep_ns));
	result_info_set(r, "touch", json_string(reread_touch_names[st->o.touch]));
	result_info_set(r, "fill", json_string(reread_fill_names[st->o.fill]));
	return st;
close_pm:
	pages_close(&st->pm);
free_state:
	free(st);
	return NULL;
}

/* Read and check every page of the first buffer; time those not present.
 * Returns the first bad page, or -1. */
static long reread_check(struct reread_state *st, struct hist *h, uint64_t *bad_found)
{
	long bad = -1;
	uint64_t found, salt = st->salt;
	size_t ps = st->ps, step = st->step;
	int fill = st->o.fill;
	for (size_t i = 0; i < st->n1; i++) {
		const char *p = st->buf1 + i * ps;
		bool ok;
		if (h && st->state[i] != '#') {
			uint64_t t = vmr_now_ns();
			ok = touch_page(p, ps, step, i, salt, fill, &found);
			hist_add(h, vmr_now_ns() - t);
		} else {
			ok = touch_page(p, ps, step, i, salt, fill, &found);
		}
		if (__builtin_expect(!ok, 0) && bad < 0) {
			bad = (long)i;
			*bad_found = found;
		}
	}
	return bad;
}

/* Fill a second buffer, read it backwards as the seed did, and free it. */
static int reread_push(struct reread_state *st, struct result *r)
{
	size_t len = st->n2 * st->ps;
	char *b = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t found;
	if (b == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map the second buffer: %s", strerror(errno));
		return -1;
	}
	madvise(b, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < st->n2; i++)
		touch_fill_page(b + i * st->ps, st->ps, i, st->salt + 1, st->o.fill);
	for (size_t i = st->n2; i-- > 0;) {
		if (!touch_page(b + i * st->ps, st->ps, st->step, i, st->salt + 1, st->o.fill, &found)) {
			result_set_outcome(r, OUTCOME_FAIL, "page %zu of the second buffer read back wrong data "
					   "(first word %#" PRIx64 ")", i, found);
			break;
		}
	}
	munmap(b, len);
	return 0;
}

static void reread_sleep(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull), .tv_nsec = (long)(ns % 1000000000ull) };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void reread_fail(struct reread_state *st, struct result *r, long bad, uint64_t found, const char *when)
{
	result_set_outcome(r, OUTCOME_FAIL, "page %ld of %zu read back wrong data %s (first word %#" PRIx64
			   ", expected %#" PRIx64 ")", bad, st->n1, when, found,
			   st->o.fill == FILL_ZERO ? 0 : pattern_word((uint64_t)bad, st->salt));
}

/* The counters read around the phases. */
struct reread_counts {
	uint64_t pswpin, pswpout, swpin_zero, swpout_zero;
	bool have_zero;
};

static void reread_counts(struct reread_counts *c)
{
	bool have, hin, hout;
	c->pswpin = reread_vmstat("\npswpin ", &have);
	c->pswpout = reread_vmstat("\npswpout ", &have);
	c->swpin_zero = reread_vmstat("\nswpin_zero ", &hin);
	c->swpout_zero = reread_vmstat("\nswpout_zero ", &hout);
	c->have_zero = hin && hout;
}

/* One push out, sleep and re-read, and what it counted. */
struct reread_pass {
	uint64_t ns;
	size_t swapped;
	struct reread_counts c0, c1, c2;   /* before the push, before and after the re-read */
	struct rusage_counts d;            /* the re-read's */
};

static int reread_pass(struct reread_state *st, struct hist *h, struct reread_pass *p, struct result *r)
{
	struct rusage_counts a, b;
	uint64_t found;
	if (reread_push(st, r) < 0 || r->outcome != OUTCOME_PASS)
		return -1;
	reread_sleep(st->o.sleep_ns);
	if (st->o.corrupt_page >= 0)
		pattern_corrupt(st->buf1 + (size_t)st->o.corrupt_page * st->ps);
	pages_state(&st->pm, st->buf1, st->n1, st->state, &p->swapped);
	reread_counts(&p->c1);
	rusage_self(&a);
	uint64_t t0 = vmr_now_ns();
	long bad = reread_check(st, h, &found);
	p->ns = vmr_now_ns() - t0;
	rusage_self(&b);
	reread_counts(&p->c2);
	rusage_delta(&a, &b, &p->d);
	if (bad >= 0) {
		reread_fail(st, r, bad, found, "on the re-read");
		return -1;
	}
	return 0;
}

/* The pass whose re-read took the median time (the lower of two). */
static const struct reread_pass *reread_median(const struct reread_pass *ps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t below = 0, same_before = 0;
		for (size_t j = 0; j < n; j++) {
			below += ps[j].ns < ps[i].ns;
			same_before += j < i && ps[j].ns == ps[i].ns;
		}
		if (below + same_before == (n - 1) / 2)
			return &ps[i];
	}
	return &ps[0];
}

static int reread_run(void *state, struct result *r)
{
	struct reread_state *st = state;
	struct hist *h = hist_new();
	struct reread_counts c0;
	uint64_t found;
	size_t np = 0;
	struct reread_pass *ps = xcalloc((size_t)st->o.passes, sizeof(*ps));
	reread_counts(&c0);
	for (size_t i = 0; i < st->n1; i++)
		touch_fill_page(st->buf1 + i * st->ps, st->ps, i, st->salt, st->o.fill);
	uint64_t t0 = vmr_now_ns();
	long bad = reread_check(st, NULL, &found);
	uint64_t read_ns = vmr_now_ns() - t0;
	if (bad >= 0)
		reread_fail(st, r, bad, found, "on the first read");
	json_t *times = json_array();
	while (np < (size_t)st->o.passes && r->outcome == OUTCOME_PASS) {
		if (np)
			reread_counts(&ps[np].c0);
		else
			ps[0].c0 = c0;  /* the first pass's push counts from the fill */
		int e = reread_pass(st, h, &ps[np], r);
		if (e < 0 && !ps[np].ns)
			break;  /* the push failed: no re-read */
		json_array_append_new(times, json_integer((json_int_t)ps[np++].ns));
		if (e < 0)
			break;  /* a re-read that read wrong data: its figures are still shown */
	}
	if (st->o.passes > 1)
		result_info_set(r, "reread-time-passes", times);
	else
		json_decref(times);
	if (!np)
		goto out;
	const struct reread_pass *m = reread_median(ps, np);
	result_metric_def(r, &reread_metrics[RM_READ], (double)read_ns);
	result_metric_def(r, &reread_metrics[RM_REREAD], (double)m->ns);
	result_metric_def(r, &reread_metrics[RM_RATIO], read_ns ? (double)m->ns / (double)read_ns : 0);
	result_metric_def(r, &reread_metrics[RM_SWAPPED], (double)m->swapped);
	result_metric_def(r, &reread_metrics[RM_PSWPIN], (double)(m->c2.pswpin - m->c1.pswpin));
	result_metric_def(r, &reread_metrics[RM_PSWPOUT], (double)(m->c1.pswpout - m->c0.pswpout));
	result_metric_def(r, &reread_metrics[RM_MAJ], (double)m->d.majflt);
	if (m->c0.have_zero && m->c2.have_zero) {
		result_metric_def(r, &reread_metrics[RM_SWPOUT_ZERO], (double)(m->c1.swpout_zero - m->c0.swpout_zero));
		result_metric_def(r, &reread_metrics[RM_SWPIN_ZERO], (double)(m->c2.swpin_zero - m->c1.swpin_zero));
	}
	if (h->count) {
		result_metric_def(r, &reread_metrics[RM_P50], hist_percentile(h, 50));
		result_metric_def(r, &reread_metrics[RM_P99], hist_percentile(h, 99));
	}
out:
	free(ps);
	result_hist(r, "reread-latency", "ns", h);
	return 0;
}

static void reread_teardown(void *state, struct result *r)
{
	struct reread_state *st = state;
	munmap(st->buf1, st->n1 * st->ps);
	pages_close(&st->pm);
	free(st->state);
	free(st);
}

const struct workload wl_reread = {
	.name = "reread",
	.summary = "the swap-prefetch tester sp_tester.c: time re-reading memory pushed out to swap",
	.opts = reread_opts,
	.opts_size = sizeof(struct reread_opts),
	.metrics = reread_metrics,
	.needs_root = true,
	.supported = reread_supported,
	.setup = reread_setup,
	.run = reread_run,
	.teardown = reread_teardown,
};
