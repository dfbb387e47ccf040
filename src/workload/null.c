/* null: does nothing measurable, so the harness can test itself without root
 * or a sandbox.  Its options exercise every option type. */
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "workload/workload.h"

struct null_opts {
	uint64_t spin_ns;
	uint64_t jitter_ns;
	bool fail;
	bool error;
	bool crash;
};

static const struct opt null_opts[] = {
	{ .name = "spin", .type = OPT_TIME, .off = offsetof(struct null_opts, spin_ns), .def = "0",
	  .min = 0, .max = 60e9, .metavar = "TIME", .help = "busy-wait this long, to test timing" },
	{ .name = "jitter", .type = OPT_TIME, .off = offsetof(struct null_opts, jitter_ns), .def = "0",
	  .min = 0, .max = 60e9, .metavar = "TIME", .help = "spin up to this much longer, at random, "
	  "to test iterations chosen by precision", .flags = OPTF_HIDDEN },
	{ .name = "fail", .type = OPT_FLAG, .off = offsetof(struct null_opts, fail),
	  .help = "report a failed check, to test the harness", .flags = OPTF_HIDDEN },
	{ .name = "error", .type = OPT_FLAG, .off = offsetof(struct null_opts, error),
	  .help = "report a set-up error, to test the harness", .flags = OPTF_HIDDEN },
	{ .name = "crash", .type = OPT_FLAG, .off = offsetof(struct null_opts, crash),
	  .help = "die of SIGABRT, to test the harness", .flags = OPTF_HIDDEN },
	OPT_END,
};

static const struct metric_def null_metrics[] = {
	{ "time", "ns", BETTER_LOWER, COMBINE_AMEAN, "time spent in run()", .headline = true },
	{ .name = NULL },
};

static void *null_setup(const void *opts, const struct wl_env *env, struct result *r)
{
	const struct null_opts *o = opts;
	if (o->error) {
		result_set_outcome(r, OUTCOME_ERROR, "asked to fail set-up");
		return NULL;
	}
	struct null_opts *st = xmalloc(sizeof(*st));
	*st = *o;
	return st;
}

static int null_run(void *state, struct result *r)
{
	struct null_opts *st = state;
	uint64_t t0 = vmr_now_ns();
	/* uniform in [0, jitter): the low bits of the clock are random enough */
	uint64_t spin = st->spin_ns + (st->jitter_ns ? t0 * 2654435761u % st->jitter_ns : 0);
	while (vmr_now_ns() - t0 < spin)
		;
	result_metric_def(r, &null_metrics[0], (double)(vmr_now_ns() - t0));
	/* the CPUs it may run on: what run --cpu gave it */
	cpu_set_t cpus;
	CPU_ZERO(&cpus);
	if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0)
		result_info_set(r, "cpus", json_integer(CPU_COUNT(&cpus)));
	if (st->crash)
		abort();   /* SIGABRT: sanitizers leave it alone, unlike SIGSEGV */
	if (st->fail)
		result_set_outcome(r, OUTCOME_FAIL, "asked to fail");
	return 0;
}

static void null_teardown(void *state, struct result *r) { free(state); }

const struct workload wl_null = {
	.name = "null",
	.summary = "does nothing measurable; tests the harness itself",
	.opts = null_opts,
	.opts_size = sizeof(struct null_opts),
	.metrics = null_metrics,
	.setup = null_setup,
	.run = null_run,
	.teardown = null_teardown,
};
