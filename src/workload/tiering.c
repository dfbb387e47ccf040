/* tiering: memory tiering (Linux 6.1 on) with a working set larger than
 * the fast node.  (1) Fault a hot set and time sampled accesses to it;
 * (2) fill cold memory until the working set exceeds the fast node's free
 * memory by a margin, leaving the hot set idle, so that reclaim on the fast
 * node finds the hot set oldest and demotes it to the lower tier (with
 * numa.demotion_enabled=true; without, it swaps); time the same accesses
 * again; (3) re-read the hot set for a while, so that NUMA balancing in its
 * memory-tiering mode (kernel.numa_balancing=2) sees it hot on the slow
 * node and promotes it, and time them a third time.  Per phase: its time,
 * the kernel's pgdemote_*, pgpromote_* and numa_* counters, and where the
 * pages are (move_pages(2) asked where each one is).
 *
 * The working set is bound to the fast node (MPOL_BIND with
 * MPOL_F_NUMA_BALANCING).  Under the default policy an allocation beyond
 * the fast node's free memory simply falls back to the next node without
 * reclaim on the first, and nothing is demoted (--policy default shows it).
 * The sandbox's limit must be above the working set, or the cgroup's
 * reclaim comes first.
 *
 * The counters are the machine's: meant for a guest of the kernel matrix
 * (vmregress matrix --numa-tiered), where little else runs.  Under TCG the
 * slow node is no slower; the access times are what was measured. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/compat.h"
#include "core/hist.h"
#include "core/timer.h"
#include "core/units.h"
#include "core/util.h"
#include "probe/meminfo.h"
#include "probe/numa.h"
#include "probe/vmstat.h"
#include "workload/pattern.h"
#include "workload/workload.h"

/* Loads per timed sample: enough to hide the clock's own cost. */
#define TIERING_CHAIN 32
/* The sandbox limit a working set needs: its page tables, the arrays that
 * ask where its pages are (12 bytes a page) and the program. */
#define TIERING_LIMIT(size) ((uint64_t)((size) + (size) / 64 + (4ull << 20)))

enum { TP_BIND, TP_DEFAULT };

struct tiering_opts {
	struct vmr_rsize hot, size;
	long samples;
	uint64_t reaccess_ns;
	int policy;
	long corrupt_page;
};

static const struct opt tiering_opts[] = {
	{ .name = "hot", .type = OPT_RSIZE, .off = offsetof(struct tiering_opts, hot), .def = "0.25x",
	  .metavar = "SIZE", .help = "the hot set, faulted first (relative sizes are of what the fast node has free or in page "
	  "cache)" },
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct tiering_opts, size), .def = "1.2x",
	  .metavar = "SIZE", .help = "the whole working set, hot and cold: more than the fast node has free or in page cache "
	  "(relative sizes are of that)" },
	{ .name = "samples", .type = OPT_INT, .off = offsetof(struct tiering_opts, samples), .def = "2000",
	  .min = 10, .max = 1e7, .metavar = "N",
	  .help = "timed samples per measurement, each the mean of 32 dependent loads from random hot pages" },
	{ .name = "reaccess", .type = OPT_TIME, .off = offsetof(struct tiering_opts, reaccess_ns), .def = "3s",
	  .min = 0, .max = 3600e9, .metavar = "TIME",
	  .help = "how long the hot set is re-read after the fill (NUMA balancing's scan takes a second or more)" },
	{ .name = "policy", .type = OPT_ENUM, .off = offsetof(struct tiering_opts, policy), .def = "bind",
	  .choices = "bind|default", .help = "bind the working set to the fast node, or leave the default "
	  "policy (allocations fall back to the slow node: nothing is demoted)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct tiering_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the hot set after the fill" },
	OPT_END,
};

enum { TM_DEMOTED, TM_PROMOTED, TM_T_HOT, TM_T_FILL, TM_T_RE, TM_HOT_LOWER_FILL, TM_LOWER_FILL, TM_ABSENT_FILL,
       TM_HOT_LOWER_RE, TM_LOWER_RE, TM_B50, TM_B99, TM_A50, TM_A99, TM_R50, TM_R99, TM_PASSES, TM_N };
static const struct metric_def tiering_metrics[] = {
	[TM_DEMOTED] = { "demoted", "pages", BETTER_NONE, COMBINE_AMEAN,
			 "pages the kernel demoted while the hot set was faulted and the cold memory filled "
			 "(the sum of its pgdemote_* counters)", .headline = true },
	[TM_PROMOTED] = { "promoted", "pages", BETTER_NONE, COMBINE_AMEAN,
			  "pages the kernel promoted during the re-read (pgpromote_success)", .headline = true },
	[TM_T_HOT] = { "time-hot", "ns", BETTER_LOWER, COMBINE_AMEAN, "faulting the hot set in" },
	[TM_T_FILL] = { "time-fill", "ns", BETTER_LOWER, COMBINE_AMEAN, "faulting the cold memory in beyond the fast node" },
	[TM_T_RE] = { "time-reaccess", "ns", BETTER_NONE, COMBINE_AMEAN, "re-reading the hot set (--reaccess)" },
	[TM_HOT_LOWER_FILL] = { "hot-lower-after-fill", "pages", BETTER_NONE, COMBINE_AMEAN,
				"pages of the hot set on a lower tier after the fill" },
	[TM_LOWER_FILL] = { "lower-after-fill", "pages", BETTER_NONE, COMBINE_AMEAN,
			    "pages of the working set on a lower tier after the fill" },
	[TM_ABSENT_FILL] = { "absent-after-fill", "pages", BETTER_NONE, COMBINE_AMEAN,
			     "pages of the working set in no node's memory after the fill (swapped)" },
	[TM_HOT_LOWER_RE] = { "hot-lower-after-reaccess", "pages", BETTER_LOWER, COMBINE_AMEAN,
			      "pages of the hot set still on a lower tier after the re-read" },
	[TM_LOWER_RE] = { "lower-after-reaccess", "pages", BETTER_NONE, COMBINE_AMEAN,
			  "pages of the working set on a lower tier after the re-read" },
	[TM_B50] = { "access-before-p50", "ns", BETTER_LOWER, COMBINE_AMEAN,
		     "median time of a load from a random hot page, before the fill" },
	[TM_B99] = { "access-before-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, "99th percentile of the same" },
	[TM_A50] = { "access-after-p50", "ns", BETTER_LOWER, COMBINE_AMEAN,
		     "the same after the fill (the hot set demoted)", .headline = true },
	[TM_A99] = { "access-after-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, "99th percentile of the same" },
	[TM_R50] = { "access-reaccessed-p50", "ns", BETTER_LOWER, COMBINE_AMEAN,
		     "the same after the re-read (the hot set promoted)" },
	[TM_R99] = { "access-reaccessed-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, "99th percentile of the same" },
	[TM_PASSES] = { "reaccess-passes", "passes", BETTER_NONE, COMBINE_AMEAN, "re-reads of the whole hot set" },
	{ .name = NULL },
};

/* The same from the sandbox cgroup's memory.stat, where it has them: its
 * pages alone, where /proc/vmstat counts the machine's. */
static const struct metric_def tiering_cg_metrics[] = {
	{ "cgroup-demoted", "pages", BETTER_NONE, COMBINE_AMEAN, "demoted, counted by the sandbox's memory.stat", .headline = false },
	{ "cgroup-promoted", "pages", BETTER_NONE, COMBINE_AMEAN, "promoted, counted by the sandbox's memory.stat", .headline = false },
	{ "cgroup-promoted-by-fill", "pages", BETTER_NONE, COMBINE_AMEAN,
	  "pages promoted back before the re-read (demoted early, then touched while sampled)", .headline = false },
};

/* One row per phase (1 hot, 2 fill, 3 re-read): counter deltas over it and
 * where the pages were at its end. */
static const char *const tiering_cols[] = {
	"phase", "time_ns", "pgdemote", "pgpromote_success", "pgpromote_candidate", "numa_hint_faults",
	"numa_pages_migrated", "pswpout", "hot_fast", "hot_lower", "all_fast", "all_lower", "all_absent",
};

/* The counters reported, by prefix: the kernel's names, whatever it has. */
static const char *const tiering_counters[] = { "pgdemote_", "pgpromote_", "numa_", "pswpout", NULL };

struct tiering_where {
	uint64_t hot_fast, hot_lower, fast, lower, absent;
};

struct tiering_state {
	struct tiering_opts o;
	size_t ps, hot_pages, npages;
	int fast;                    /* the fast node: the first of the top tier */
	uint64_t fast_free;
	char *buf;
	void **addrs;
	int *status;
	uint64_t salt;
	char *memstat;               /* the sandbox cgroup's memory.stat, or NULL */
};

/* The fast node and what it has free or in page cache (which reclaim gives
 * up before anything is demoted), or a reason they cannot be had. */
static const char *tiering_topology(int *fast, uint64_t *free_bytes)
{
	static char why[240];
	struct numa_topology t;
	char err[PROBE_ERR_MAX] = "";
	if (numa_read(&t, NULL, NULL, err) < 0) {
		snprintf(why, sizeof(why), "cannot read the NUMA topology: %s", err);
		return why;
	}
	unsigned nodes = numa_count(t.has_memory);
	if (nodes < 2) {
		snprintf(why, sizeof(why), "needs two memory tiers; this machine has %u NUMA node%s with memory "
			 "(a matrix guest has two with --numa-tiered)", nodes, nodes == 1 ? "" : "s");
		return why;
	}
	if (!t.have_tiers)
		return "needs two memory tiers; this kernel has none (no " NUMA_TIER_ROOT ", before 6.1)";
	if (t.ntiers < 2) {
		snprintf(why, sizeof(why), "needs two memory tiers; this machine's %u NUMA nodes are all in one "
			 "(the firmware's HMAT must say one is slower)", nodes);
		return why;
	}
	*fast = numa_first(t.tiers[0].nodes & t.has_memory);
	char *path = xasprintf("%s/node%d/meminfo", NUMA_NODE_ROOT, *fast);
	struct meminfo mi = { 0 };
	uint64_t active = 0, inactive = 0;
	int r = meminfo_read(&mi, path, err) == 0 && meminfo_get(&mi, "MemFree", free_bytes) == 0 ? 0 : -1;
	if (r == 0 && meminfo_get(&mi, "Active(file)", &active) == 0 && meminfo_get(&mi, "Inactive(file)", &inactive) == 0)
		*free_bytes += active + inactive;
	meminfo_free(&mi);
	if (r < 0)
		snprintf(why, sizeof(why), "cannot read MemFree from %s: %s", path, err[0] ? err : "no such line");
	free(path);
	return r < 0 ? why : NULL;
}

static int tiering_validate(const void *opts)
{
	const struct tiering_opts *o = opts;
	if (o->size.factor && o->size.factor <= 1) {
		vmr_err("--size: %gx is not more than the fast node has free: nothing would be demoted",
			o->size.factor);
		return -1;
	}
	if (o->hot.factor && o->size.factor && o->hot.factor >= o->size.factor) {
		vmr_err("--hot: must be smaller than --size");
		return -1;
	}
	return 0;
}

static const char *tiering_supported(const void *opts, const struct wl_env *env)
{
	static char why[240];
	const struct tiering_opts *o = opts;
	int fast = -1;
	uint64_t fast_free = 0;
	const char *no = tiering_topology(&fast, &fast_free);
	if (no)
		return no;
	uint64_t hot = units_rsize_bytes(&o->hot, fast_free), size = units_rsize_bytes(&o->size, fast_free);
	if (hot < env->page_size || hot >= size) {
		snprintf(why, sizeof(why), "the hot set (--hot, %" PRIu64 " MiB here) must be smaller than the working "
			 "set (--size, %" PRIu64 " MiB)", hot >> 20, size >> 20);
		return why;
	}
	if (size <= fast_free) {
		snprintf(why, sizeof(why), "the working set (--size, %" PRIu64 " MiB) must be larger than what node %d "
			 "has free or in page cache (%" PRIu64 " MiB)", size >> 20, fast, fast_free >> 20);
		return why;
	}
	if (env->sandboxed && env->limit_bytes < TIERING_LIMIT(size)) {
		snprintf(why, sizeof(why), "the sandbox's limit (--mem) must be at least %" PRIu64 " MiB, above the "
			 "working set (%" PRIu64 " MiB here), or the cgroup's reclaim comes before node %d's",
			 TIERING_LIMIT(size) >> 20, size >> 20, fast);
		return why;
	}
	return NULL;
}

static void *tiering_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct tiering_state *st = xcalloc(1, sizeof(*st));
	st->o = *(const struct tiering_opts *)opts;
	st->ps = env->page_size;
	const char *no = tiering_topology(&st->fast, &st->fast_free);
	if (no) {
		result_set_outcome(r, OUTCOME_SKIP, "%s", no);
		goto free_state;
	}
	st->hot_pages = units_rsize_bytes(&st->o.hot, st->fast_free) / st->ps;
	st->npages = units_rsize_bytes(&st->o.size, st->fast_free) / st->ps;
	if (st->o.corrupt_page >= (long)st->hot_pages) {
		result_set_outcome(r, OUTCOME_ERROR, "--corrupt-page %ld is beyond the hot set's %zu pages",
				   st->o.corrupt_page, st->hot_pages);
		goto free_state;
	}
	st->buf = mmap(NULL, st->npages * st->ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->buf == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map %zu pages: %s", st->npages, strerror(errno));
		goto free_state;
	}
	madvise(st->buf, st->npages * st->ps, MADV_NOHUGEPAGE);   /* pages, not PMDs, in the counts */
	st->addrs = xmalloc(st->npages * sizeof(*st->addrs));
	st->status = xmalloc(st->npages * sizeof(*st->status));
	for (size_t i = 0; i < st->npages; i++)
		st->addrs[i] = st->buf + i * st->ps;
	/* Locked, so that the only pages of the sandbox that can be demoted
	 * are the working set's (and the cgroup's count is the workload's).
	 * Without the lock the counts are merely a little off. */
	mlock(st->addrs, st->npages * sizeof(*st->addrs));
	mlock(st->status, st->npages * sizeof(*st->status));
	st->salt = pattern_salt();
	if (env->cgroup)
		st->memstat = xasprintf("%s/memory.stat", env->cgroup);
	unsigned long mask = 1ul << st->fast;
	if (st->o.policy == TP_BIND &&
	    compat_set_mempolicy(COMPAT_MPOL_BIND | COMPAT_MPOL_F_NUMA_BALANCING, &mask, sizeof(mask) * 8) < 0) {
		result_set_outcome(r, OUTCOME_SKIP, "cannot bind to node %d with NUMA balancing "
				   "(set_mempolicy MPOL_F_NUMA_BALANCING, 5.12 on): %s", st->fast, strerror(errno));
		goto unmap;
	}
	char *nb = NULL;
	result_info_set(r, "fast_node", json_integer(st->fast));
	result_info_set(r, "fast_node_free_bytes", json_integer((json_int_t)st->fast_free));
	result_info_set(r, "hot_bytes", json_integer((json_int_t)(st->hot_pages * st->ps)));
	result_info_set(r, "working_set_bytes", json_integer((json_int_t)(st->npages * st->ps)));
	if (vmr_read_line("/proc/sys/kernel/numa_balancing", &nb) == 0)
		result_info_set(r, "numa_balancing", json_string(nb));
	free(nb);
	return st;
unmap:
	munmap(st->buf, st->npages * st->ps);
	free(st->addrs);
	free(st->status);
	free(st->memstat);
free_state:
	free(st);
	return NULL;
}

/* Where every page of the working set is now.  A page off the fast node
 * counts as on a lower tier: bound to the fast node, a page gets nowhere
 * else but by demotion (under --policy default, on a machine with two fast
 * nodes, the other one would count too). 0, or -errno. */
static int tiering_where(struct tiering_state *st, struct tiering_where *w)
{
	memset(w, 0, sizeof(*w));
	if (compat_move_pages_query(st->npages, st->addrs, st->status) < 0)
		return -errno;
	for (size_t i = 0; i < st->npages; i++) {
		int s = st->status[i];
		bool hot = i < st->hot_pages;
		if (s == st->fast) {
			w->fast++;
			w->hot_fast += hot;
		} else if (s >= 0) {
			w->lower++;
			w->hot_lower += hot;
		} else {
			w->absent++;
		}
	}
	return 0;
}

static uint64_t tiering_next(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/* Sampled access times of the hot set.  Each sample is a chain of loads,
 * each from a page chosen by a PRNG mixed with what the last load read
 * (zero when the page is right): the CPU cannot overlap them, so a sample
 * is the latency of one access, TLB miss and page walk included, not the
 * memory's bandwidth.  False when a page read wrong. */
static bool tiering_sample(struct tiering_state *st, struct hist *h, uint64_t seed)
{
	uint64_t x = seed | 1, mix = 0, wrong = 0;
	for (long s = 0; s < st->o.samples; s++) {
		uint64_t t0 = vmr_now_ns();
		/* no branch on mix here: the compiler would then know it is 0 */
		for (int k = 0; k < TIERING_CHAIN; k++) {
			x = tiering_next(x ^ mix);
			size_t i = (size_t)(x % st->hot_pages);
			mix = *(const volatile uint64_t *)(st->buf + i * st->ps) ^ pattern_word(i, st->salt);
			wrong |= mix;
		}
		hist_add(h, (vmr_now_ns() - t0) / TIERING_CHAIN);
	}
	return wrong == 0;
}

/* Read pages [from, to) and check each; the first bad one, or -1. */
static long tiering_check(const struct tiering_state *st, size_t from, size_t to)
{
	uint64_t found;
	for (size_t i = from; i < to; i++)
		if (!pattern_check(st->buf + i * st->ps, st->ps, i, st->salt, &found))
			return (long)i;
	return -1;
}

struct tiering_phase {
	uint64_t time_ns;
	struct tiering_where where;  /* at its end (tiering_settle_where) */
	struct vmstat vs, cg;        /* /proc/vmstat and the cgroup's memory.stat then */
};

static double tiering_d(const struct vmstat *a, const struct vmstat *b, const char *name)
{
	uint64_t x = 0, y = 0;
	vmstat_get(a, name, &x);
	vmstat_get(b, name, &y);
	return y >= x ? (double)(y - x) : 0;
}

/* The sum of every pgdemote_* counter's change (kswapd, direct, khugepaged,
 * proactive: whichever this kernel has). */
static double tiering_demoted(const struct vmstat *a, const struct vmstat *b)
{
	double sum = 0;
	for (size_t i = 0; i < b->n; i++)
		if (!strncmp(b->items[i].name, "pgdemote_", 9))
			sum += tiering_d(a, b, b->items[i].name);
	return sum;
}

/* The sum of the counters named prefix* now. */
static double tiering_sum(const struct vmstat *s, const char *prefix)
{
	double sum = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!strncmp(s->items[i].name, prefix, strlen(prefix)))
			sum += (double)s->items[i].value;
	return sum;
}

static void tiering_row(struct table *tab, int phase, const struct tiering_phase *p, const struct vmstat *before)
{
	const struct vmstat *b = &p->vs;
	const struct tiering_where *w = &p->where;
	double row[ARRAY_SIZE(tiering_cols)] = {
		phase, (double)p->time_ns, tiering_demoted(before, b), tiering_d(before, b, "pgpromote_success"),
		tiering_d(before, b, "pgpromote_candidate"), tiering_d(before, b, "numa_hint_faults"),
		tiering_d(before, b, "numa_pages_migrated"), tiering_d(before, b, "pswpout"), (double)w->hot_fast,
		(double)w->hot_lower, (double)w->fast, (double)w->lower, (double)w->absent,
	};
	table_add_row(tab, row);
}

static const char *tiering_unit(const char *counter)
{
	return strstr(counter, "fault") ? "faults" : strstr(counter, "pte_updates") ? "ptes" : "pages";
}

/* Each counter of tiering_counters that this kernel has, as its change over
 * the whole run, under the kernel's own name. */
static void tiering_counter_metrics(struct result *r, const struct vmstat *a, const struct vmstat *b)
{
	for (size_t i = 0; i < b->n; i++)
		for (const char *const *c = tiering_counters; *c; c++)
			if (!strncmp(b->items[i].name, *c, strlen(*c))) {
				result_metric(r, b->items[i].name, tiering_unit(b->items[i].name), BETTER_NONE,
					      COMBINE_AMEAN, tiering_d(a, b, b->items[i].name));
				break;
			}
}

/* Phase 3: re-read the hot set, checking it, for --reaccess.  The first bad
 * page or -1; *passes the whole re-reads done. */
static long tiering_reaccess(struct tiering_state *st, uint64_t *passes)
{
	uint64_t t0 = vmr_now_ns();
	*passes = 0;
	do {
		long bad = tiering_check(st, 0, st->hot_pages);
		if (bad >= 0)
			return bad;
		(*passes)++;
	} while (vmr_now_ns() - t0 < st->o.reaccess_ns);
	return -1;
}

static void tiering_fault(struct tiering_state *st, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		pattern_stamp(st->buf + i * st->ps, st->ps, i, st->salt);
}

static double tiering_demoted_now(struct vmstat *vs)
{
	char err[PROBE_ERR_MAX] = "";
	return vmstat_read(vs, NULL, err) == 0 ? tiering_sum(vs, "pgdemote_") : -1;
}

/* Where the pages are at the end of a phase.  kswapd goes on demoting
 * until the fast node is back above its watermark, and may sleep in
 * reclaim's throttling meanwhile: wait, up to three seconds, until
 * /proc/vmstat's pgdemote_* have stayed still for 150 ms, then ask where
 * the pages are, again until no demotion happened while it asked, so that
 * the pages found and the counters read next describe the same moment.
 * 0, or -errno. */
static int tiering_settle_where(struct tiering_state *st, struct tiering_where *w)
{
	struct vmstat vs;
	double last = -1, now;
	int still = 0, e = 0;
	vmstat_init(&vs);
	for (int i = 0; i < 60 && still < 3; i++) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		now = tiering_demoted_now(&vs);
		still = now == last ? still + 1 : 0;
		last = now;
	}
	for (int i = 0; i < 10; i++) {
		last = tiering_demoted_now(&vs);
		if ((e = tiering_where(st, w)) < 0 || tiering_demoted_now(&vs) == last)
			break;
	}
	vmstat_free(&vs);
	return e;
}

struct tiering_run {
	struct vmstat start, cg_start;
	bool have_cg;                /* memory.stat counts demotions (cgroup v2; Debian's 6.12 does) */
	struct tiering_phase ph[3];
	struct hist *h[3];           /* access times: before the fill, after it, after the re-read */
	uint64_t passes;
	long bad;
	const char *bad_when;
};

static int tiering_phases(struct tiering_state *st, struct tiering_run *tr, struct result *r)
{
	char err[PROBE_ERR_MAX] = "";
	static const char *const when[] = { "sampled before the fill", "sampled after the fill",
					    "sampled after the re-read" };
	int e = 0;
	if (vmstat_read(&tr->start, NULL, err) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "/proc/vmstat: %s", err);
		return -1;
	}
	uint64_t dummy;
	tr->have_cg = st->memstat && vmstat_read(&tr->cg_start, st->memstat, err) == 0 &&
		      vmstat_get(&tr->cg_start, "pgdemote_kswapd", &dummy) == 0;
	for (int p = 0; p < 3 && tr->bad < 0 && e == 0; p++) {
		uint64_t t0 = vmr_now_ns();
		if (p == 0)
			tiering_fault(st, 0, st->hot_pages);
		else if (p == 1)
			tiering_fault(st, st->hot_pages, st->npages);
		else if ((tr->bad = tiering_reaccess(st, &tr->passes)) >= 0)
			tr->bad_when = "in the re-read";
		tr->ph[p].time_ns = vmr_now_ns() - t0;
		if ((e = tiering_settle_where(st, &tr->ph[p].where)) < 0 || vmstat_read(&tr->ph[p].vs, NULL, err) < 0 ||
		    (tr->have_cg && vmstat_read(&tr->ph[p].cg, st->memstat, err) < 0)) {
			if (e < 0)
				result_set_outcome(r, OUTCOME_ERROR, "move_pages: %s", strerror(-e));
			else
				result_set_outcome(r, OUTCOME_ERROR, "%s", err);
			return -1;
		}
		if (p == 1 && st->o.corrupt_page >= 0)
			pattern_corrupt(st->buf + (size_t)st->o.corrupt_page * st->ps);
		if (tr->bad < 0 && !tiering_sample(st, tr->h[p], st->salt + (uint64_t)p)) {
			tr->bad = tiering_check(st, 0, st->hot_pages);
			tr->bad_when = when[p];
		}
	}
	if (tr->bad < 0) {
		tr->bad = tiering_check(st, 0, st->npages);
		tr->bad_when = "at the end";
	}
	if (tr->bad >= 0)
		result_set_outcome(r, OUTCOME_FAIL, "page %ld of %zu came back with the wrong data (%s)", tr->bad,
				   st->npages, tr->bad_when);
	return 0;
}

static void tiering_record(struct tiering_run *tr, struct result *r)
{
	const struct tiering_phase *ph = tr->ph;
	struct table *tab = result_table(r, "phases", ARRAY_SIZE(tiering_cols), tiering_cols);
	for (int p = 0; p < 3; p++)
		tiering_row(tab, p + 1, &ph[p], p ? &ph[p - 1].vs : &tr->start);
	double v[TM_N] = {
		[TM_DEMOTED] = tiering_demoted(&tr->start, &ph[1].vs),
		[TM_PROMOTED] = tiering_d(&ph[1].vs, &ph[2].vs, "pgpromote_success"),
		[TM_T_HOT] = (double)ph[0].time_ns, [TM_T_FILL] = (double)ph[1].time_ns,
		[TM_T_RE] = (double)ph[2].time_ns,
		[TM_HOT_LOWER_FILL] = (double)ph[1].where.hot_lower, [TM_LOWER_FILL] = (double)ph[1].where.lower,
		[TM_ABSENT_FILL] = (double)ph[1].where.absent, [TM_HOT_LOWER_RE] = (double)ph[2].where.hot_lower,
		[TM_LOWER_RE] = (double)ph[2].where.lower, [TM_PASSES] = (double)tr->passes,
	};
	for (int k = 0; k < 3; k++)
		if (tr->h[k]->count) {
			v[TM_B50 + 2 * k] = hist_percentile(tr->h[k], 50);
			v[TM_B99 + 2 * k] = hist_percentile(tr->h[k], 99);
		}
	for (int m = 0; m < TM_N; m++)
		result_metric_def(r, &tiering_metrics[m], v[m]);
	tiering_counter_metrics(r, &tr->start, &ph[2].vs);
	if (tr->have_cg) {
		result_metric_def(r, &tiering_cg_metrics[0], tiering_demoted(&tr->cg_start, &ph[1].cg));
		result_metric_def(r, &tiering_cg_metrics[1], tiering_d(&ph[1].cg, &ph[2].cg, "pgpromote_success"));
		result_metric_def(r, &tiering_cg_metrics[2], tiering_d(&tr->cg_start, &ph[1].cg, "pgpromote_success"));
	}
	static const char *const names[] = { "access-before", "access-after", "access-reaccessed" };
	for (int k = 0; k < 3; k++) {
		result_hist(r, names[k], "ns", tr->h[k]);
		tr->h[k] = NULL;
	}
}

static int tiering_run(void *state, struct result *r)
{
	struct tiering_state *st = state;
	struct tiering_run tr = { .bad = -1, .bad_when = "" };
	vmstat_init(&tr.start);
	vmstat_init(&tr.cg_start);
	for (int p = 0; p < 3; p++) {
		vmstat_init(&tr.ph[p].vs);
		vmstat_init(&tr.ph[p].cg);
		tr.h[p] = hist_new();
		mlock(tr.h[p], sizeof(*tr.h[p]));   /* as the arrays: not the sandbox's pages to demote */
	}
	if (tiering_phases(st, &tr, r) == 0 && tr.bad < 0)
		tiering_record(&tr, r);
	vmstat_free(&tr.start);
	vmstat_free(&tr.cg_start);
	for (int p = 0; p < 3; p++) {
		vmstat_free(&tr.ph[p].vs);
		vmstat_free(&tr.ph[p].cg);
		free(tr.h[p]);
	}
	return 0;
}

static void tiering_teardown(void *state, struct result *r)
{
	struct tiering_state *st = state;
	compat_set_mempolicy(COMPAT_MPOL_DEFAULT, NULL, 0);
	munmap(st->buf, st->npages * st->ps);
	free(st->addrs);
	free(st->status);
	free(st->memstat);
	free(st);
}

const struct workload wl_tiering = {
	.name = "tiering",
	.summary = "memory tiering: a working set beyond the fast node, its hot set demoted and promoted back, "
		   "with pgdemote/pgpromote and access times before and after",
	.opts = tiering_opts,
	.opts_size = sizeof(struct tiering_opts),
	.metrics = tiering_metrics,
	.needs_root = true,
	.validate = tiering_validate,
	.supported = tiering_supported,
	.setup = tiering_setup,
	.run = tiering_run,
	.teardown = tiering_teardown,
};
