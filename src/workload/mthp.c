/* mthp: multi-size THP (Linux 6.8 on) size by size.  For each size S of
 * --sizes, fault a region in as folios of S, push it out to the sandbox's
 * swap with MADV_PAGEOUT and fault it back, checking every page: fault
 * throughput, the kernel's own per-size counters for each phase (allocated
 * and fallen back at fault, swapped out whole or split, swapped in whole
 * or page by page) and the time of each phase.
 *
 * One size at a time, without touching the per-size knobs: the region is
 * mapped as VMAs of exactly S bytes, aligned to S and kept apart by
 * PROT_NONE gaps so that they do not merge.  A fault can then get a folio
 * of S or a smaller enabled size, never a larger one, whatever else is
 * enabled; the sizes to test need their policy at madvise or always (the
 * region is MADV_HUGEPAGE), set with --set thp.64K.enabled=madvise.
 *
 * The base page size (4K) in --sizes is the baseline: the same region as
 * one VMA with MADV_NOHUGEPAGE, so that no THP of any size is used for it
 * whatever the knobs say, and every page is faulted, swapped out and in
 * alone.  With it in the list, each other size also gets its ratios to it
 * (faultin-ratio-S, pageout-ratio-S, swapin-ratio-S): the effect of the
 * size within one run.
 *
 * The counters under hugepages-*kB/stats are the host's, not the
 * sandbox's: another program faulting or swapping mTHPs of the same size
 * at the same time adds to them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/timer.h"
#include "core/units.h"
#include "core/util.h"
#include "probe/pagemap.h"
#include "probe/thp.h"
#include "workload/pattern.h"
#include "workload/workload.h"

#define MTHP_MAX_SIZES 16
/* VMAs the region may take (two per folio: data and gap), well below the
 * default vm.max_map_count of 65530 so that the program itself still maps. */
#define MTHP_MAX_VMAS 60000

struct mthp_opts {
	char *sizes;
	uint64_t size;
	long corrupt_page;
};

static const struct opt mthp_opts[] = {
	{ .name = "sizes", .type = OPT_STR, .off = offsetof(struct mthp_opts, sizes), .def = "64K",
	  .metavar = "LIST", .help = "mTHP sizes to measure, one at a time: 16K,64K,2M (each needs its "
	  "policy at madvise or always); 4K: the same region with no THP of any size, the baseline" },
	{ .name = "size", .type = OPT_SIZE, .off = offsetof(struct mthp_opts, size), .def = "16M",
	  .min = 2097152, .max = 1e12, .metavar = "SIZE",
	  .help = "the region faulted, pushed out and faulted back per size (at most 3/4 of --mem)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct mthp_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N of the region while it is in swap" },
	OPT_END,
};

/* Each size S gets its own copy of these, named "...-S" ("swpout-64K").
 * Folio counts are the deltas of hugepages-*kB/stats over the phase. */
enum { MM_FPS, MM_SPS, MM_TFAULT, MM_TOUT, MM_TIN, MM_ALLOC, MM_FALLBACK, MM_SWPOUT, MM_SWPOUT_FB,
       MM_SWAPPED, MM_SWPIN, MM_SWPIN_FB, MM_SPLIT, MM_THP, MM_IN_FAULTS, MM_IN_THP, MM_N };
/* Against the base page size's row, when --sizes has one: "faultin-ratio-64K". */
enum { MR_FAULT = MM_N, MR_OUT, MR_IN, MR_END };
static const struct metric_def mthp_metrics[] = {
	[MM_FPS] = { "faultin-per-sec", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, "pages faulted in per second" },
	[MM_SPS] = { "swapin-per-sec", "pages/s", BETTER_HIGHER, COMBINE_HMEAN,
		     "pages faulted back from swap per second" },
	[MM_TFAULT] = { "time-fault", "ns", BETTER_LOWER, COMBINE_AMEAN, "first touch of every page" },
	[MM_TOUT] = { "time-pageout", "ns", BETTER_LOWER, COMBINE_AMEAN, "MADV_PAGEOUT of the region (with any pass for pages the first left)" },
	[MM_TIN] = { "time-swapin", "ns", BETTER_LOWER, COMBINE_AMEAN, "reading every page back and checking it" },
	[MM_ALLOC] = { "fault-alloc", "folios", BETTER_NONE, COMBINE_AMEAN, "folios of the size allocated at fault" },
	[MM_FALLBACK] = { "fault-fallback", "folios", BETTER_LOWER, COMBINE_AMEAN,
			  "faults that fell back to a smaller size" },
	[MM_SWPOUT] = { "swpout", "folios", BETTER_NONE, COMBINE_AMEAN, "folios of the size swapped out whole" },
	[MM_SWPOUT_FB] = { "swpout-fallback", "folios", BETTER_LOWER, COMBINE_AMEAN,
			   "folios split before they were swapped out" },
	[MM_SWAPPED] = { "swapped-pages", "pages", BETTER_NONE, COMBINE_AMEAN,
			 "pages of the region in swap after the pageout (pagemap)" },
	[MM_SWPIN] = { "swpin", "folios", BETTER_NONE, COMBINE_AMEAN, "folios of the size swapped in whole" },
	[MM_SWPIN_FB] = { "swpin-fallback", "folios", BETTER_NONE, COMBINE_AMEAN,
			  "swap-ins that fell back to smaller folios" },
	[MM_SPLIT] = { "split", "folios", BETTER_LOWER, COMBINE_AMEAN, "folios of the size split, all phases" },
	[MM_THP] = { "thp-pages", "pages", BETTER_NONE, COMBINE_AMEAN,
		     "pages of the region in large folios after the fault (pagemap and kpageflags)" },
	/* These two show a swap-in of whole folios on kernels without the
	 * per-size swpin counter (6.12 has the swap-in, 6.13 the counter). */
	[MM_IN_FAULTS] = { "swapin-faults", "faults", BETTER_LOWER, COMBINE_AMEAN,
			   "major faults taken to read the region back (one per folio read whole)" },
	[MM_IN_THP] = { "swapin-thp-pages", "pages", BETTER_NONE, COMBINE_AMEAN,
			"pages of the region in large folios after the swap-in (pagemap and kpageflags)" },
	[MR_FAULT] = { "faultin-ratio", "x", BETTER_HIGHER, COMBINE_AMEAN,
		       "pages faulted in per second, over the base page size's" },
	[MR_OUT] = { "pageout-ratio", "x", BETTER_HIGHER, COMBINE_AMEAN,
		     "the base page size's MADV_PAGEOUT time over this size's" },
	[MR_IN] = { "swapin-ratio", "x", BETTER_HIGHER, COMBINE_AMEAN,
		    "pages faulted back from swap per second, over the base page size's" },
	{ .name = NULL },
};

static const char *const mthp_cols[] = {
	"size_kb", "faults_per_sec", "swapin_per_sec", "time_fault_ns", "time_pageout_ns", "time_swapin_ns",
	"fault_alloc", "fault_fallback", "swpout", "swpout_fallback", "swapped_pages", "swpin",
	"swpin_fallback", "split", "thp_pages", "swapin_faults", "swapin_thp_pages",
};

/* "16K,64K,2M" into kB sizes; -1 with *why. */
static int mthp_parse_sizes(const char *s, uint64_t *kb, size_t *n, const char **why)
{
	char *copy = xstrdup(s ? s : ""), *save = NULL;
	int r = 0;
	*n = 0;
	for (char *t = strtok_r(copy, ",", &save); t && r == 0; t = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (thp_parse_label(t, &v) < 0 || v * 1024 < (uint64_t)vmr_page_size()) {
			*why = "is not a list of mTHP sizes like 16K,64K,2M";
			r = -1;
		} else if (*n == MTHP_MAX_SIZES) {
			*why = "names more than 16 sizes";
			r = -1;
		}
		for (size_t i = 0; r == 0 && i < *n; i++)
			if (kb[i] == v) {
				*why = "names a size twice";
				r = -1;
			}
		if (r == 0)
			kb[(*n)++] = v;
	}
	if (r == 0 && !*n) {
		*why = "is empty";
		r = -1;
	}
	free(copy);
	return r;
}

static int mthp_validate(const void *opts)
{
	const struct mthp_opts *o = opts;
	uint64_t kb[MTHP_MAX_SIZES];
	size_t n;
	const char *why;
	if (mthp_parse_sizes(o->sizes, kb, &n, &why) < 0) {
		vmr_err("--sizes: '%s' %s", o->sizes ? o->sizes : "", why);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (o->size < kb[i] * 1024) {
			vmr_err("--size: smaller than the %" PRIu64 "K folios of --sizes", kb[i]);
			return -1;
		}
	return 0;
}

static const char *mthp_supported(const void *opts, const struct wl_env *env)
{
	static char why[240];
	const struct mthp_opts *o = opts;
	uint64_t kb[MTHP_MAX_SIZES];
	size_t n;
	const char *w;
	char pol[32] = "", err[PROBE_ERR_MAX] = "", label[24] = "";
	mthp_parse_sizes(o->sizes, kb, &n, &w);
	if (!env->sandboxed || !env->swap_bytes)
		return "needs a sandbox with swap of its own to push the region out (--swap file or zram)";
	if (o->size > env->limit_bytes / 4 * 3 || o->size > env->swap_bytes) {
		snprintf(why, sizeof(why), "the region (--size) must fit in 3/4 of the sandbox's limit and in its swap");
		return why;
	}
	for (size_t i = 0; i < n; i++) {
		if (kb[i] * 1024 == env->page_size)   /* the baseline: no THP wanted */
			continue;
		thp_size_label(kb[i], label, sizeof(label));
		if (thp_anon_policy(NULL, kb[i], pol, sizeof(pol), err) < 0) {
			snprintf(why, sizeof(why), "this kernel has no multi-size THP of %s for anonymous memory "
				 "(no %s/hugepages-%" PRIu64 "kB/enabled)", label, THP_ROOT, kb[i]);
			return why;
		}
		if (!strcmp(pol, "never")) {
			snprintf(why, sizeof(why), "thp.%s.enabled is never here: run with --set thp.%s.enabled=madvise",
				 label, label);
			return why;
		}
		if (o->size / (kb[i] * 1024) * 2 > MTHP_MAX_VMAS) {
			snprintf(why, sizeof(why), "--size needs more than %d VMAs at %s: make it smaller",
				 MTHP_MAX_VMAS, label);
			return why;
		}
	}
	return NULL;
}

struct mthp_state {
	struct mthp_opts o;
	uint64_t kb[MTHP_MAX_SIZES];
	size_t nsizes, ps;
	/* each size's fault-in, pageout and swap-in figures, for the ratios */
	double fps[MTHP_MAX_SIZES], tout[MTHP_MAX_SIZES], sps[MTHP_MAX_SIZES];
};

static void *mthp_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct mthp_state *st = xcalloc(1, sizeof(*st));
	const char *why;
	st->o = *(const struct mthp_opts *)opts;
	st->o.sizes = NULL;   /* the caller's string; parsed now */
	mthp_parse_sizes(((const struct mthp_opts *)opts)->sizes, st->kb, &st->nsizes, &why);
	st->ps = env->page_size;
	if (st->o.corrupt_page >= 0 && (uint64_t)st->o.corrupt_page >= st->o.size / st->ps) {
		result_set_outcome(r, OUTCOME_ERROR, "--corrupt-page %ld is beyond the region's %" PRIu64 " pages",
				   st->o.corrupt_page, st->o.size / st->ps);
		free(st);
		return NULL;
	}
	return st;
}

/* One size's region: folios of `bytes` each in its own VMA, `stride` apart. */
struct mthp_region {
	char *base, *first;
	size_t reserve, bytes, stride, nchunks, pages_per_chunk;
};

/* The base page size's region: one VMA that no THP of any size may back. */
static int mthp_map_base(struct mthp_region *g, uint64_t region, size_t ps)
{
	g->bytes = g->stride = g->reserve = region / ps * ps;
	g->nchunks = 1;
	g->pages_per_chunk = region / ps;
	g->base = mmap(NULL, g->reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->base == MAP_FAILED)
		return -errno;
	g->first = g->base;
	if (madvise(g->base, g->reserve, MADV_NOHUGEPAGE) < 0) {
		int e = errno;
		munmap(g->base, g->reserve);
		return -e;
	}
	return 0;
}

static int mthp_map(struct mthp_region *g, uint64_t region, uint64_t folio, size_t ps)
{
	if (folio == ps)
		return mthp_map_base(g, region, ps);
	g->bytes = folio;
	g->stride = 2 * folio;
	g->nchunks = region / folio;
	g->pages_per_chunk = folio / ps;
	g->reserve = g->nchunks * g->stride + folio;
	g->base = mmap(NULL, g->reserve, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (g->base == MAP_FAILED)
		return -errno;
	g->first = (char *)(((uintptr_t)g->base + folio - 1) & ~(uintptr_t)(folio - 1));
	for (size_t k = 0; k < g->nchunks; k++) {
		char *c = g->first + k * g->stride;
		if (mprotect(c, folio, PROT_READ | PROT_WRITE) < 0 || madvise(c, folio, MADV_HUGEPAGE) < 0) {
			int e = errno;
			munmap(g->base, g->reserve);
			return -e;
		}
	}
	return 0;
}

static char *mthp_page(const struct mthp_region *g, size_t i, size_t ps)
{
	return g->first + (i / g->pages_per_chunk) * g->stride + (i % g->pages_per_chunk) * ps;
}

/* The counters of one size now; missing ones (older kernels) read as 0 and
 * are left out of the metrics by mthp_have(). */
static void mthp_stats(uint64_t kb, struct sysfs_dir *d)
{
	char err[PROBE_ERR_MAX] = "";
	if (thp_size_stats_read(NULL, kb, d, err) < 0)
		d->n = 0;
}

static double mthp_delta(const struct sysfs_dir *a, const struct sysfs_dir *b, const char *name)
{
	const struct sysfs_value *x = sysfs_dir_get(a, name), *y = sysfs_dir_get(b, name);
	return x && y && x->is_number && y->is_number ? (double)(y->number - x->number) : 0;
}

struct mthp_size_run {
	uint64_t t_fault, t_out, t_in;
	struct sysfs_dir s[4];          /* before fault, after fault, after pageout, after swap-in */
	uint64_t swapped;
	uint64_t thp_pages, in_thp_pages;       /* after the fault, after the swap-in */
	bool thp_known;         /* kpageflags could be read */
	long in_faults;         /* major faults over the swap-in */
};

/* Pages of the region in large folios now; false when kpageflags cannot
 * be read. */
static bool mthp_thp_pages(const struct mthp_region *g, uint64_t *pages)
{
	struct pagemap_counts c = { 0 };
	char err[PROBE_ERR_MAX] = "";
	struct pagemap pm = { .fd = -1 };
	if (pagemap_open(&pm, 0, true, err) < 0)
		return false;
	bool ok = pagemap_scan(&pm, (uintptr_t)g->first, (uintptr_t)g->first + g->nchunks * g->stride, &c, NULL, err) == 0;
	pagemap_close(&pm);
	*pages = c.thp;
	return ok && c.thp_known;
}

static long mthp_major_faults(void)
{
	struct rusage ru = { .ru_majflt = 0 };
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_majflt;
}

/* Touch every page (the first touch of each folio faults it in whole). */
static void mthp_fault(const struct mthp_region *g, size_t ps, uint64_t salt)
{
	size_t n = g->nchunks * g->pages_per_chunk;
	for (size_t i = 0; i < n; i++)
		pattern_stamp(mthp_page(g, i, ps), ps, i, salt);
}

/* Read every page back; the index of the first bad one, or -1. */
static int64_t mthp_check(const struct mthp_region *g, size_t ps, uint64_t salt, uint64_t *found)
{
	size_t n = g->nchunks * g->pages_per_chunk;
	for (size_t i = 0; i < n; i++)
		if (!pattern_check(mthp_page(g, i, ps), ps, i, salt, found))
			return (int64_t)i;
	return -1;
}

static int mthp_pageout(struct mthp_state *st, const struct mthp_region *g, struct mthp_size_run *sr,
			struct result *r)
{
	struct pagemap_counts c = { 0 };
	char err[PROBE_ERR_MAX] = "";
	/* A page that reclaim, compaction or another CPU's batch holds off the
	 * LRU at that moment is skipped by MADV_PAGEOUT: such stragglers get
	 * up to two more passes, timed with the first, so that the swap-in
	 * reads the whole region back. */
	for (int pass = 0; pass < 3; pass++) {
		uint64_t t0 = vmr_now_ns();
		if (madvise(g->first, g->nchunks * g->stride, MADV_PAGEOUT) < 0) {
			result_set_outcome(r, OUTCOME_ERROR, "MADV_PAGEOUT: %s", strerror(errno));
			return -1;
		}
		sr->t_out += vmr_now_ns() - t0;
		c = (struct pagemap_counts){ 0 };       /* pagemap_self adds to it */
		if (pagemap_self(g->first, g->nchunks * g->stride, &c, NULL, err) < 0) {
			result_set_outcome(r, OUTCOME_ERROR, "pagemap: %s", err);
			return -1;
		}
		if (c.present == 0)
			break;
	}
	sr->swapped = c.swapped;
	if (st->o.corrupt_page >= 0 && pattern_corrupt(mthp_page(g, (size_t)st->o.corrupt_page, st->ps)) < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot damage page %ld", st->o.corrupt_page);
		return -1;
	}
	return 0;
}

static int mthp_one(struct mthp_state *st, size_t si, struct mthp_size_run *sr, struct result *r)
{
	struct mthp_region g = { .base = NULL };
	uint64_t kb = st->kb[si], found, salt = 0x6d746870ull + si;
	int e = mthp_map(&g, st->o.size, kb * 1024, st->ps);
	if (e < 0) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map the region as %" PRIu64 "K VMAs: %s", kb, strerror(-e));
		return -1;
	}
	mthp_stats(kb, &sr->s[0]);
	uint64_t t0 = vmr_now_ns();
	mthp_fault(&g, st->ps, salt);
	sr->t_fault = vmr_now_ns() - t0;
	mthp_stats(kb, &sr->s[1]);
	sr->thp_known = mthp_thp_pages(&g, &sr->thp_pages);
	int rc = mthp_pageout(st, &g, sr, r);
	mthp_stats(kb, &sr->s[2]);
	if (rc == 0) {
		long maj = mthp_major_faults();
		t0 = vmr_now_ns();
		int64_t bad = mthp_check(&g, st->ps, salt, &found);
		sr->t_in = vmr_now_ns() - t0;
		sr->in_faults = mthp_major_faults() - maj;
		mthp_stats(kb, &sr->s[3]);
		sr->thp_known = mthp_thp_pages(&g, &sr->in_thp_pages) && sr->thp_known;
		if (bad >= 0) {
			result_set_outcome(r, OUTCOME_FAIL, "page %" PRId64 " of the %" PRIu64 "K region came back from swap "
					   "with the wrong data (first word %#" PRIx64 ")", bad, kb, found);
			rc = -1;
		}
	}
	munmap(g.base, g.reserve);
	return rc;
}

static void mthp_metric(struct result *r, int m, const char *label, double v)
{
	char name[64];
	snprintf(name, sizeof(name), "%s-%s", mthp_metrics[m].name, label);
	result_metric(r, name, mthp_metrics[m].unit, mthp_metrics[m].better, mthp_metrics[m].combine, v);
}

static void mthp_record(struct mthp_state *st, size_t si, const struct mthp_size_run *sr, struct table *tab,
			struct result *r)
{
	char label[24];
	double pages = (double)(st->o.size / (st->kb[si] * 1024) * (st->kb[si] * 1024 / st->ps));
	const struct sysfs_dir *s = sr->s;
	double v[MM_N] = {
		[MM_FPS] = sr->t_fault ? pages / ((double)sr->t_fault / 1e9) : 0,
		[MM_SPS] = sr->t_in ? pages / ((double)sr->t_in / 1e9) : 0,
		[MM_TFAULT] = (double)sr->t_fault, [MM_TOUT] = (double)sr->t_out, [MM_TIN] = (double)sr->t_in,
		[MM_ALLOC] = mthp_delta(&s[0], &s[1], "anon_fault_alloc"),
		[MM_FALLBACK] = mthp_delta(&s[0], &s[1], "anon_fault_fallback"),
		[MM_SWPOUT] = mthp_delta(&s[1], &s[2], "swpout"),
		[MM_SWPOUT_FB] = mthp_delta(&s[1], &s[2], "swpout_fallback"),
		[MM_SWAPPED] = (double)sr->swapped,
		[MM_SWPIN] = mthp_delta(&s[2], &s[3], "swpin"),
		[MM_SWPIN_FB] = mthp_delta(&s[2], &s[3], "swpin_fallback"),
		[MM_SPLIT] = mthp_delta(&s[0], &s[3], "split"),
		[MM_THP] = (double)sr->thp_pages,
		[MM_IN_FAULTS] = (double)sr->in_faults, [MM_IN_THP] = (double)sr->in_thp_pages,
	};
	static const char *const need[MM_N] = {
		[MM_ALLOC] = "anon_fault_alloc", [MM_FALLBACK] = "anon_fault_fallback", [MM_SWPOUT] = "swpout",
		[MM_SWPOUT_FB] = "swpout_fallback", [MM_SWPIN] = "swpin", [MM_SWPIN_FB] = "swpin_fallback",
		[MM_SPLIT] = "split",
	};
	st->fps[si] = v[MM_FPS];
	st->tout[si] = v[MM_TOUT];
	st->sps[si] = v[MM_SPS];
	thp_size_label(st->kb[si], label, sizeof(label));
	for (int m = 0; m < MM_N; m++)
		if (m == MM_THP || m == MM_IN_THP ? sr->thp_known : !need[m] || sysfs_dir_get(&s[0], need[m]))   /* a counter this kernel lacks: no metric */
			mthp_metric(r, m, label, v[m]);
	double row[ARRAY_SIZE(mthp_cols)] = { (double)st->kb[si] };
	for (int m = 0; m < MM_N; m++)
		row[1 + m] = v[m];
	table_add_row(tab, row);
}

/* Each size against the base page size's row, when --sizes has one. */
static void mthp_record_ratios(struct mthp_state *st, struct result *r)
{
	size_t base = st->nsizes;
	for (size_t si = 0; si < st->nsizes; si++)
		if (st->kb[si] * 1024 == st->ps)
			base = si;
	if (base == st->nsizes || !st->fps[base] || !st->sps[base])
		return;
	for (size_t si = 0; si < st->nsizes; si++) {
		if (si == base)
			continue;
		char label[24];
		const double v[] = {
			st->fps[si] / st->fps[base],
			st->tout[si] > 0 ? st->tout[base] / st->tout[si] : 0,
			st->sps[si] / st->sps[base],
		};
		thp_size_label(st->kb[si], label, sizeof(label));
		for (int m = MR_FAULT; m < MR_END; m++)
			mthp_metric(r, m, label, v[m - MR_FAULT]);
	}
}

static int mthp_run(void *state, struct result *r)
{
	struct mthp_state *st = state;
	if (r->outcome != OUTCOME_PASS)
		return 0;
	struct table *tab = result_table(r, "sizes", ARRAY_SIZE(mthp_cols), mthp_cols);
	for (size_t si = 0; si < st->nsizes; si++) {
		struct mthp_size_run sr = { .t_fault = 0 };
		int rc = mthp_one(st, si, &sr, r);
		if (rc == 0)
			mthp_record(st, si, &sr, tab, r);
		for (size_t k = 0; k < ARRAY_SIZE(sr.s); k++)
			sysfs_dir_free(&sr.s[k]);
		if (rc < 0)
			return 0;
	}
	mthp_record_ratios(st, r);
	return 0;
}

static void mthp_teardown(void *state, struct result *r)
{
	free(state);
}

const struct workload wl_mthp = {
	.name = "mthp",
	.summary = "multi-size THP per size: fault in, MADV_PAGEOUT to swap, fault back, with the kernel's "
		   "per-size counters",
	.opts = mthp_opts,
	.opts_size = sizeof(struct mthp_opts),
	.metrics = mthp_metrics,
	.needs_root = true,
	.validate = mthp_validate,
	.supported = mthp_supported,
	.setup = mthp_setup,
	.run = mthp_run,
	.teardown = mthp_teardown,
};
