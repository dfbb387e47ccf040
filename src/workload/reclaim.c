/* reclaim: proactive reclaim through cgroup v2's memory.reclaim (5.19 on).
 * Warm the sandbox with a working set (--size), then ask the kernel
 * --requests times to reclaim --amount bytes from it (with swappiness=N on
 * 6.7 on, --swappiness), timing each request and measuring what it really
 * took (memory.current before and after); then read the working set back,
 * checking every page, and count what had to come back (refaults).
 *
 * memory.reclaim is v2 only: on a host whose memory controller is bound
 * to cgroup v1 this is a skip with the reason (the kernel matrix runs it in
 * guests with v2). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/hist.h"
#include "core/timer.h"
#include "core/units.h"
#include "core/util.h"
#include "probe/vmstat.h"
#include "workload/pattern.h"
#include "workload/workload.h"

#define RECLAIM_SALT 0x72636cull

struct reclaim_opts {
	struct vmr_rsize size;
	struct vmr_rsize amount;
	long requests;
	long swappiness;
	long corrupt_page;
};

static const struct opt reclaim_opts[] = {
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct reclaim_opts, size), .def = "0.5x",
	  .metavar = "SIZE", .help = "the working set that warms the sandbox (relative sizes are of its limit)" },
	{ .name = "amount", .type = OPT_RSIZE, .off = offsetof(struct reclaim_opts, amount), .def = "0.05x",
	  .metavar = "SIZE", .help = "bytes asked of memory.reclaim per request (relative sizes are of the limit)" },
	{ .name = "requests", .type = OPT_INT, .off = offsetof(struct reclaim_opts, requests), .def = "8",
	  .min = 1, .max = 100000, .metavar = "N", .help = "reclaim requests, one after the other" },
	{ .name = "swappiness", .type = OPT_INT, .off = offsetof(struct reclaim_opts, swappiness), .def = "-1",
	  .min = -1, .max = 200, .metavar = "N",
	  .help = "pass swappiness=N with each request (6.7 on; -1: the cgroup's own)" },
	{ .name = "corrupt-page", .type = OPT_INT, .off = offsetof(struct reclaim_opts, corrupt_page),
	  .def = "-1", .min = -1, .max = 1e12, .metavar = "N", .flags = OPTF_HIDDEN,
	  .help = "damage page N while it is away" },
	OPT_END,
};

enum { RC_LAT_MEAN, RC_LAT_MAX, RC_ASKED, RC_GOT, RC_RATIO, RC_SHORT, RC_REFAULT, RC_REREAD, RC_N };
static const struct metric_def reclaim_metrics[] = {
	[RC_LAT_MEAN] = { "reclaim-latency-mean", "ns", BETTER_LOWER, COMBINE_AMEAN, "time of one memory.reclaim write" },
	[RC_LAT_MAX] = { "reclaim-latency-max", "ns", BETTER_LOWER, COMBINE_AMEAN, "the slowest of them" },
	[RC_ASKED] = { "asked-bytes", "bytes", BETTER_NONE, COMBINE_AMEAN, "bytes asked for, all requests" },
	[RC_GOT] = { "reclaimed-bytes", "bytes", BETTER_NONE, COMBINE_AMEAN,
		     "memory.current before the first request less after the last" },
	[RC_RATIO] = { "reclaimed-ratio", "x", BETTER_NONE, COMBINE_AMEAN, "reclaimed over asked" },
	[RC_SHORT] = { "short-requests", "requests", BETTER_LOWER, COMBINE_AMEAN,
		       "requests the kernel could not meet (EAGAIN)" },
	[RC_REFAULT] = { "refaults", "pages", BETTER_LOWER, COMBINE_AMEAN,
			 "anonymous pages brought back by the re-read (workingset_refault_anon)" },
	[RC_REREAD] = { "reread-time", "ns", BETTER_LOWER, COMBINE_AMEAN, "reading the working set back" },
	{ .name = NULL },
};

struct reclaim_state {
	struct reclaim_opts o;
	size_t ps, npages;
	uint64_t amount;
	char *buf;
	char *reclaim_path, *current_path;
};

static char *reclaim_file(const struct wl_env *env, const char *name)
{
	return env->cgroup ? xasprintf("%s/%s", env->cgroup, name) : NULL;
}

static const char *reclaim_supported(const void *opts, const struct wl_env *env)
{
	const struct reclaim_opts *o = opts;
	if (!env->sandboxed || !env->cgroup)
		return "needs a sandbox: memory.reclaim acts on its cgroup";
	char *path = reclaim_file(env, "memory.reclaim");
	bool have = access(path, W_OK) == 0;
	free(path);
	if (!have) {
		return "needs cgroup v2's memory.reclaim: the sandbox's memory cgroup has none (a v1 memory "
		       "controller, or a kernel before 5.19)";
	}
	if (units_rsize_bytes(&o->size, env->limit_bytes) >= env->limit_bytes)
		return "the working set (--size) must fit under the sandbox's limit";
	if (units_rsize_bytes(&o->amount, env->limit_bytes) < env->page_size)
		return "--amount must be at least a page";
	return NULL;
}

static void *reclaim_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	struct reclaim_state *st = xcalloc(1, sizeof(*st));
	st->o = *(const struct reclaim_opts *)opts;
	st->ps = env->page_size;
	st->npages = units_rsize_bytes(&st->o.size, env->limit_bytes) / st->ps;
	st->amount = units_rsize_bytes(&st->o.amount, env->limit_bytes);
	if (st->o.corrupt_page >= (long)st->npages) {
		result_set_outcome(r, OUTCOME_ERROR, "--corrupt-page %ld is beyond the working set's %zu pages",
				   st->o.corrupt_page, st->npages);
		free(st);
		return NULL;
	}
	st->buf = mmap(NULL, st->npages * st->ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->buf == MAP_FAILED) {
		result_set_outcome(r, OUTCOME_ERROR, "cannot map %zu pages: %s", st->npages, strerror(errno));
		free(st);
		return NULL;
	}
	st->reclaim_path = reclaim_file(env, "memory.reclaim");
	st->current_path = reclaim_file(env, "memory.current");
	return st;
}

/* One request: 0, 1 when the kernel reclaimed less than asked (EAGAIN),
 * or -errno. */
static int reclaim_request(struct reclaim_state *st)
{
	char req[64];
	int n = st->o.swappiness >= 0 ? snprintf(req, sizeof(req), "%" PRIu64 " swappiness=%ld", st->amount,
						 st->o.swappiness)
				      : snprintf(req, sizeof(req), "%" PRIu64, st->amount);
	int fd = open(st->reclaim_path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t w = write(fd, req, (size_t)n);
	int e = w < 0 ? errno : 0;
	close(fd);
	return e == EAGAIN ? 1 : -e;
}

static uint64_t reclaim_current(const struct reclaim_state *st)
{
	uint64_t v = 0;
	vmr_read_u64(st->current_path, &v);
	return v;
}

static uint64_t reclaim_refaults(void)
{
	struct vmstat vs = { 0 };
	char err[PROBE_ERR_MAX] = "";
	uint64_t v = 0;
	vmstat_init(&vs);
	if (vmstat_read(&vs, NULL, err) == 0)
		vmstat_get(&vs, "workingset_refault_anon", &v);
	vmstat_free(&vs);
	return v;
}

static int reclaim_run(void *state, struct result *r)
{
	struct reclaim_state *st = state;
	struct hist *h = hist_new();
	uint64_t found, shorts = 0;
	for (size_t i = 0; i < st->npages; i++)
		pattern_stamp(st->buf + i * st->ps, st->ps, i, RECLAIM_SALT);
	uint64_t before = reclaim_current(st);
	for (long k = 0; k < st->o.requests; k++) {
		uint64_t t0 = vmr_now_ns();
		int e = reclaim_request(st);
		hist_add(h, vmr_now_ns() - t0);
		if (e == -EINVAL && st->o.swappiness >= 0 && k == 0) {
			/* before 6.7 memory.reclaim takes a size and nothing else */
			result_set_outcome(r, OUTCOME_SKIP, "this kernel's memory.reclaim takes no swappiness= (6.7 on)");
			goto out;
		}
		if (e < 0) {
			result_set_outcome(r, OUTCOME_ERROR, "%s: %s", st->reclaim_path, strerror(-e));
			goto out;
		}
		shorts += e == 1;
	}
	uint64_t after = reclaim_current(st);
	if (st->o.corrupt_page >= 0)
		pattern_corrupt(st->buf + (size_t)st->o.corrupt_page * st->ps);
	uint64_t rf0 = reclaim_refaults(), t0 = vmr_now_ns();
	for (size_t i = 0; i < st->npages; i++)
		if (!pattern_check(st->buf + i * st->ps, st->ps, i, RECLAIM_SALT, &found)) {
			result_set_outcome(r, OUTCOME_FAIL, "page %zu of %zu came back with the wrong data "
					   "(first word %#" PRIx64 ")", i, st->npages, found);
			break;
		}
	uint64_t reread_ns = vmr_now_ns() - t0;
	double asked = (double)st->amount * (double)st->o.requests, got = before > after ? (double)(before - after) : 0;
	double v[RC_N] = {
		[RC_LAT_MEAN] = hist_mean(h), [RC_LAT_MAX] = (double)h->max, [RC_ASKED] = asked, [RC_GOT] = got,
		[RC_RATIO] = asked > 0 ? got / asked : 0, [RC_SHORT] = (double)shorts,
		[RC_REFAULT] = (double)(reclaim_refaults() - rf0), [RC_REREAD] = (double)reread_ns,
	};
	for (int m = 0; m < RC_N; m++)
		result_metric_def(r, &reclaim_metrics[m], v[m]);
out:
	result_hist(r, "reclaim-latency", "ns", h);
	return 0;
}

static void reclaim_teardown(void *state, struct result *r)
{
	struct reclaim_state *st = state;
	munmap(st->buf, st->npages * st->ps);
	free(st->reclaim_path);
	free(st->current_path);
	free(st);
}

const struct workload wl_reclaim = {
	.name = "reclaim",
	.summary = "proactive reclaim with cgroup v2's memory.reclaim: latency, bytes reclaimed against "
		   "asked, refaults",
	.opts = reclaim_opts,
	.opts_size = sizeof(struct reclaim_opts),
	.metrics = reclaim_metrics,
	.needs_root = true,
	.supported = reclaim_supported,
	.setup = reclaim_setup,
	.run = reclaim_run,
	.teardown = reclaim_teardown,
};
