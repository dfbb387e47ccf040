/* zswap: a working set larger than the sandbox's limit, with zswap in
 * front of the sandbox's swap, then re-read.  What the fill pushed out went
 * to zswap's compressed pool (zswpout), or past it to the swap device
 * (pswpout: pages zswap rejected, or written back from the pool, zswpwb);
 * zero-filled pages go to neither (swpout_zero).  The re-read brings them
 * back from the pool (zswpin) or the disk (pswpin), each page timed.
 *
 * --fill decides how well pages compress: zero (no data at all), text
 * (words from a small vocabulary, about 3:1 with lzo) and random (nothing
 * to gain, which zswap refuses to keep).  Every page is checked against a
 * copy made again from its index, so a page that comes back from either
 * place with the wrong bytes fails the run.
 *
 * zswap is host-wide: it is enabled, limited and given its shrinker with
 * the sandbox's knobs (--set zswap.enabled=Y --set zswap.max_pool_percent=N
 * --set zswap.shrinker_enabled=Y), which vmregress restores.  The counters
 * are the host's too. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/hist.h"
#include "core/timer.h"
#include "core/units.h"
#include "core/util.h"
#include "probe/meminfo.h"
#include "probe/swapinfo.h"
#include "probe/sysfsdir.h"
#include "probe/vmstat.h"
#include "workload/pages.h"
#include "workload/pattern.h"
#include "workload/workload.h"
#include "workload/zswap.h"

#define ZSWAP_SALT 0x7a73ull

enum zswap_fill { ZF_ZERO, ZF_TEXT, ZF_RANDOM };

struct zswap_opts {
	struct vmr_rsize size;
	int fill;
	int zswap;
	long corrupt_page;
};

static const struct opt zswap_opts[] = {
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct zswap_opts, size), .def = "2x",
	  .metavar = "SIZE", .help = "the working set (relative sizes are of the sandbox limit)" },
	{ .name = "fill", .type = OPT_ENUM, .off = offsetof(struct zswap_opts, fill), .def = "text",
	  .choices = "zero|text|random", .help = "page contents: zero-filled, text-like (compresses about "
	  "3:1) or random (does not compress)" },
	{ .name = "zswap", .type = OPT_ENUM, .off = offsetof(struct zswap_opts, zswap), .def = "on",
	  .choices = "on|off", .help = "expect zswap on, or off for the same run straight to the swap device "
	  "(a skip when the knob in force says otherwise)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct zswap_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N while it is away" },
	OPT_END,
};

enum { ZM_FILL, ZM_REREAD, ZM_P50, ZM_P99, ZM_MEAN, ZM_SWAPPED, ZM_ZSWPOUT, ZM_ZSWPIN, ZM_ZSWPWB, ZM_PSWPOUT,
       ZM_PSWPIN, ZM_ZEROOUT, ZM_ZEROIN, ZM_STORED, ZM_POOL, ZM_RATIO, ZM_N };
static const struct metric_def zswap_metrics[] = {
	[ZM_FILL] = { "fill-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "writing the working set (and pushing it out)" },
	[ZM_REREAD] = { "reread-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "reading it all back and checking it" },
	[ZM_P50] = { "reread-latency-p50", "ns", BETTER_LOWER, COMBINE_AMEAN, "median time to bring an absent page back" },
	[ZM_P99] = { "reread-latency-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, "99th percentile of the same" },
	[ZM_MEAN] = { "reread-latency-mean", "ns", BETTER_LOWER, COMBINE_AMEAN, "mean of the same" },
	[ZM_SWAPPED] = { "swapped-pages", "pages", BETTER_NONE, COMBINE_AMEAN, "pages away when the re-read began" },
	[ZM_ZSWPOUT] = { "zswpout", "pages", BETTER_NONE, COMBINE_AMEAN,
			 "pages stored in zswap (by the fill, and by the re-read pushing others out)" },
	[ZM_ZSWPIN] = { "zswpin", "pages", BETTER_NONE, COMBINE_AMEAN, "pages loaded from zswap by the re-read" },
	[ZM_ZSWPWB] = { "zswpwb", "pages", BETTER_NONE, COMBINE_AMEAN, "pages written back from zswap to the swap device" },
	[ZM_PSWPOUT] = { "pswpout", "pages", BETTER_NONE, COMBINE_AMEAN, "pages written to the swap device" },
	[ZM_PSWPIN] = { "pswpin", "pages", BETTER_NONE, COMBINE_AMEAN, "pages read from the swap device by the re-read" },
	[ZM_ZEROOUT] = { "swpout-zero", "pages", BETTER_NONE, COMBINE_AMEAN,
			 "zero-filled pages swapped out without I/O (fill and re-read)" },
	[ZM_ZEROIN] = { "swpin-zero", "pages", BETTER_NONE, COMBINE_AMEAN, "zero-filled pages swapped in without I/O" },
	[ZM_STORED] = { "zswap-stored-bytes", "bytes", BETTER_NONE, COMBINE_AMEAN,
			"data in zswap after the fill (Zswapped, host-wide; absent where the kernel has none)" },
	[ZM_POOL] = { "zswap-pool-bytes", "bytes", BETTER_NONE, COMBINE_AMEAN,
		      "memory zswap's pool took for it (Zswap, host-wide; absent where the kernel has none)" },
	[ZM_RATIO] = { "compression-ratio", "x", BETTER_HIGHER, COMBINE_AMEAN,
		       "Zswapped over Zswap after the fill (absent when the pool is empty)" },
	{ .name = NULL },
};

static const char *const zswap_words[] = {
	"the ", "page ", "of ", "memory ", "swap ", "is ", "a ", "and ", "to ", "reclaim ", "kernel ", "in ",
	"that ", "zone ", "for ", "cache ", "with ", "it ", "on ", "file ", "as ", "was ", "anon ", "by ",
	"lru ", "be ", "at ", "folio ", "this ", "from ", "or ", "node ",
};

static uint64_t zswap_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The page's contents from its index alone; pattern words at both ends
 * for all but zero pages (which must stay all zero). */
static void zswap_make(char *p, size_t ps, uint64_t idx, int fill)
{
	uint64_t x = pattern_word(idx, ZSWAP_SALT) | 1;
	if (fill == ZF_ZERO) {
		memset(p, 0, ps);
		return;
	}
	if (fill == ZF_RANDOM) {
		for (size_t i = 0; i < ps / 8; i++)
			((uint64_t *)p)[i] = zswap_next(&x);
	} else {
		size_t off = 0;
		while (off < ps) {
			const char *w = zswap_words[zswap_next(&x) % ARRAY_SIZE(zswap_words)];
			size_t n = strlen(w) < ps - off ? strlen(w) : ps - off;
			memcpy(p + off, w, n);
			off += n;
		}
	}
	pattern_stamp(p, ps, idx, ZSWAP_SALT);
}

struct zswap_state {
	struct zswap_opts o;
	size_t ps, npages;
	char *buf, *scratch, *state;
	struct pages_map pm;
};

static uint64_t zswap_base(const struct wl_env *env)
{
	return env->sandboxed ? env->limit_bytes : (uint64_t)sysconf(_SC_PHYS_PAGES) * env->page_size;
}

static const char *zswap_supported(const void *opts, const struct wl_env *env)
{
	static char why[200];
	const struct zswap_opts *o = opts;
	struct sysfs_dir d = { 0 };
	uint64_t bytes = units_rsize_bytes(&o->size, zswap_base(env));
	if (!env->sandboxed || !env->swap_bytes)
		return "needs a sandbox with swap of its own for zswap to sit in front of (--swap file)";
	if (bytes <= env->limit_bytes || bytes > env->limit_bytes + env->swap_bytes / 4 * 3) {
		snprintf(why, sizeof(why), "the working set (--size) must be over the sandbox's limit and fit in "
			 "it plus 3/4 of its swap");
		return why;
	}
	if (sysfs_dir_read(&d, SWAPINFO_ZSWAP_PARAMS, NULL) < 0)
		return "this kernel has no zswap (no " SWAPINFO_ZSWAP_PARAMS ")";
	const struct sysfs_value *en = sysfs_dir_get(&d, "enabled");
	bool on = en && (!strcmp(en->value, "Y") || !strcmp(en->value, "1"));
	sysfs_dir_free(&d);
	if (!on && o->zswap == 0)
		return "zswap is off: run with --set zswap.enabled=Y (and zswap.max_pool_percent=N for its pool limit)";
	if (on && o->zswap == 1)
		return "zswap is on and --zswap off was asked for: run with --set zswap.enabled=N";
	return NULL;
}

static void *zswap_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct zswap_state *st = xcalloc(1, sizeof(*st));
	st->o = *(const struct zswap_opts *)opts;
	st->ps = env->page_size;
	st->npages = units_rsize_bytes(&st->o.size, zswap_base(env)) / st->ps;
	if (st->o.corrupt_page >= (long)st->npages) {
		result_set_outcome(r, OUTCOME_ERROR, "--corrupt-page %ld is beyond the working set's %zu pages",
				   st->o.corrupt_page, st->npages);
		goto free_state;
	}
	int err = pages_open(&st->pm);
	if (err) {
		result_set_outcome(r, OUTCOME_SKIP, "cannot open /proc/self/pagemap: %s", strerror(-err));
		goto free_state;
	}
	st->buf = mmap(NULL, st->npages * st->ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->buf == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map %zu pages: %s", st->npages, strerror(errno));
		goto close_pm;
	}
	madvise(st->buf, st->npages * st->ps, MADV_NOHUGEPAGE);   /* zswap stores pages, not PMDs */
	st->scratch = xmalloc(st->ps);
	st->state = xmalloc(st->npages + 1);
	result_info_set(r, "working_set_bytes", json_integer((json_int_t)(st->npages * st->ps)));
	return st;
close_pm:
	pages_close(&st->pm);
free_state:
	free(st);
	return NULL;
}

/* The counters around the phases: /proc/vmstat's swap ones and meminfo's
 * Zswap/Zswapped, by name. */
struct zswap_snap {
	struct vmstat vs;
	struct zswap_pool pool;
};

void zswap_pool_read(const struct meminfo *mi, struct zswap_pool *p)
{
	*p = (struct zswap_pool){ .pool_bytes = 0 };
	p->have_pool = meminfo_get(mi, "Zswap", &p->pool_bytes) == 0;
	p->have_stored = meminfo_get(mi, "Zswapped", &p->stored_bytes) == 0;
}

void zswap_pool_metrics(struct result *r, const struct zswap_pool *p)
{
	if (p->have_stored)
		result_metric_def(r, &zswap_metrics[ZM_STORED], (double)p->stored_bytes);
	if (p->have_pool)
		result_metric_def(r, &zswap_metrics[ZM_POOL], (double)p->pool_bytes);
	if (p->have_pool && p->have_stored && p->pool_bytes)
		result_metric_def(r, &zswap_metrics[ZM_RATIO], (double)p->stored_bytes / (double)p->pool_bytes);
}

static void zswap_snap_take(struct zswap_snap *s)
{
	struct meminfo mi = { 0 };
	char err[PROBE_ERR_MAX] = "";
	vmstat_read(&s->vs, NULL, err);
	s->pool = (struct zswap_pool){ .pool_bytes = 0 };
	if (meminfo_read(&mi, NULL, err) == 0)
		zswap_pool_read(&mi, &s->pool);
	meminfo_free(&mi);
}

static double zswap_d(const struct zswap_snap *a, const struct zswap_snap *b, const char *name)
{
	uint64_t x = 0, y = 0;
	vmstat_get(&a->vs, name, &x);
	vmstat_get(&b->vs, name, &y);
	return (double)(y - x);
}

/* Check every page against a fresh copy, timing those that were away.
 * The first bad page, or -1. */
static long zswap_check(struct zswap_state *st, struct hist *h)
{
	for (size_t i = 0; i < st->npages; i++) {
		char *p = st->buf + i * st->ps;
		zswap_make(st->scratch, st->ps, i, st->o.fill);
		uint64_t t = vmr_now_ns();
		bool ok = memcmp(p, st->scratch, st->ps) == 0;
		if (st->state[i] != PAGE_STATE_PRESENT)
			hist_add(h, vmr_now_ns() - t);
		if (!ok)
			return (long)i;
	}
	return -1;
}

static void zswap_metrics_add(struct result *r, const double *v, const bool *have)
{
	for (int m = 0; m < ZM_N; m++)
		if (have[m])
			result_metric_def(r, &zswap_metrics[m], v[m]);
}

static int zswap_run(void *state, struct result *r)
{
	struct zswap_state *st = state;
	struct zswap_snap s[3] = { 0 };
	struct hist *h = hist_new();
	size_t swapped = 0;
	for (int i = 0; i < 3; i++)
		vmstat_init(&s[i].vs);
	zswap_snap_take(&s[0]);
	uint64_t t0 = vmr_now_ns();
	for (size_t i = 0; i < st->npages; i++)
		zswap_make(st->buf + i * st->ps, st->ps, i, st->o.fill);
	uint64_t fill_ns = vmr_now_ns() - t0;
	zswap_snap_take(&s[1]);
	pages_state(&st->pm, st->buf, st->npages, st->state, &swapped);
	if (st->o.corrupt_page >= 0)
		pattern_corrupt(st->buf + (size_t)st->o.corrupt_page * st->ps + 8);
	t0 = vmr_now_ns();
	long bad = zswap_check(st, h);
	uint64_t reread_ns = vmr_now_ns() - t0;
	zswap_snap_take(&s[2]);
	if (bad >= 0)
		result_set_outcome(r, OUTCOME_FAIL, "page %ld of %zu came back with the wrong data", bad, st->npages);
	double v[ZM_N] = {
		[ZM_FILL] = (double)fill_ns, [ZM_REREAD] = (double)reread_ns,
		[ZM_P50] = h->count ? hist_percentile(h, 50) : 0, [ZM_P99] = h->count ? hist_percentile(h, 99) : 0,
		[ZM_MEAN] = h->count ? hist_mean(h) : 0, [ZM_SWAPPED] = (double)swapped,
		[ZM_ZSWPOUT] = zswap_d(&s[0], &s[2], "zswpout"), [ZM_ZSWPIN] = zswap_d(&s[1], &s[2], "zswpin"),
		[ZM_ZSWPWB] = zswap_d(&s[0], &s[2], "zswpwb"), [ZM_PSWPOUT] = zswap_d(&s[0], &s[2], "pswpout"),
		[ZM_PSWPIN] = zswap_d(&s[1], &s[2], "pswpin"), [ZM_ZEROOUT] = zswap_d(&s[0], &s[2], "swpout_zero"),
		[ZM_ZEROIN] = zswap_d(&s[1], &s[2], "swpin_zero"),
	};
	uint64_t dummy;
	bool have[ZM_N];
	for (int m = 0; m < ZM_N; m++)
		have[m] = true;
	have[ZM_STORED] = have[ZM_POOL] = have[ZM_RATIO] = false;   /* zswap_pool_metrics' */
	have[ZM_P50] = have[ZM_P99] = have[ZM_MEAN] = h->count > 0;
	have[ZM_ZSWPWB] = vmstat_get(&s[0].vs, "zswpwb", &dummy) == 0;       /* 6.8 on */
	have[ZM_ZEROOUT] = have[ZM_ZEROIN] = vmstat_get(&s[0].vs, "swpout_zero", &dummy) == 0;   /* 6.12 on */
	zswap_metrics_add(r, v, have);
	zswap_pool_metrics(r, &s[1].pool);
	result_hist(r, "reread-latency", "ns", h);
	for (int i = 0; i < 3; i++)
		vmstat_free(&s[i].vs);
	return 0;
}

static void zswap_teardown(void *state, struct result *r)
{
	struct zswap_state *st = state;
	munmap(st->buf, st->npages * st->ps);
	pages_close(&st->pm);
	free(st->scratch);
	free(st->state);
	free(st);
}

const struct workload wl_zswap = {
	.name = "zswap",
	.summary = "a working set over the limit with zswap in front of the swap file, then re-read: "
		   "stored, rejected, written back, and where the re-read came from",
	.opts = zswap_opts,
	.opts_size = sizeof(struct zswap_opts),
	.metrics = zswap_metrics,
	.needs_root = true,
	.supported = zswap_supported,
	.setup = zswap_setup,
	.run = zswap_run,
	.teardown = zswap_teardown,
};
