/* Running a plan: each case's iterations of every configuration in the
 * group's order, in their sandboxes, with the hooks beside them; see run.h. */
#include "harness/run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "harness/latency.h"
#include "harness/monitor.h"
#include "harness/pin.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "harness/trace_hook.h"
#include "stats/compare.h"

/* Open the case's sandbox, or keep the open one when its configuration is
 * the same.  0, or an exit code. */
static int run_sandbox(struct run_state *rs, const struct suite_case *c)
{
	json_t *echo = opt_echo(sandbox_opts, &c->sandbox);
	if (rs->sb_echo && json_equal(echo, rs->sb_echo)) {
		json_decref(echo);
		return 0;
	}
	if (rs->sb)
		sandbox_close(rs->sb);
	rs->sb = NULL;
	json_decref(rs->sb_echo);
	rs->sb_echo = echo;
	int rc = sandbox_open(&rs->sb, &c->sandbox);  /* NULL: on the host (sandbox_plan) */
	if (rc == -1)
		return VMR_EXIT_USAGE;
	return rc < 0 ? VMR_EXIT_CANNOT : 0;
}

/* A warm-up iteration is stored as skipped, so that no statistic counts
 * it; the headline figures of a counted one go to the variant's track. */
static void run_count(struct run_var *var, const struct suite_case *c, struct result *r, bool warmup)
{
	if (warmup && r->outcome == OUTCOME_PASS)
		result_set_outcome(r, OUTCOME_SKIP, "warm-up iteration, not counted");
	for (size_t i = 0; r->outcome == OUTCOME_PASS && i < r->nmetrics; i++)
		if (workload_metric_headline(c->w->name, r->metrics[i].name))
			precision_track_add(&var->track, r->metrics[i].name, r->metrics[i].value);
}


/* An iteration measured but not stored (the store failed: its disk full)
 * is kept in a file of its own, its result JSON with the run and case it
 * belongs to: beside the store, else in $TMPDIR (or /tmp), else in
 * /dev/shm (memory), and the message says where. */
static void run_keep_unsaved(struct run_state *rs, const struct run_var *var, const struct suite_case *c, long it,
			     const struct result *r)
{
	const char *tmp = getenv("TMPDIR");
	char *where[3] = { xasprintf("%s.unsaved-%d-%lld.json", store_path(rs->st), (int)getpid(), (long long)rs->seq),
			   xasprintf("%s/vmregress-unsaved-%d-%lld.json", tmp && *tmp == '/' ? tmp : "/tmp",
				     (int)getpid(), (long long)rs->seq),
			   xasprintf("/dev/shm/vmregress-unsaved-%d-%lld.json", (int)getpid(), (long long)rs->seq) };
	json_t *j = json_pack("{ss sI s{ss ss so} sI so}", "store", store_path(rs->st), "run_id",
			      (json_int_t)var->run_id, "case", "name", c->name, "workload", c->w->name, "options",
			      suite_case_json(c), "iteration", (json_int_t)it + 1, "result", result_to_json(r));
	size_t i;
	for (i = 0; i < ARRAY_SIZE(where); i++) {
		if (json_dump_file(j, where[i], JSON_INDENT(2) | JSON_REAL_PRECISION(17)) == 0)
			break;
		unlink(where[i]);  /* cut short: the disk is full there too */
	}
	if (i < ARRAY_SIZE(where))
		vmr_err("case %s, iteration %ld: measured but not stored; its result is kept in %s", c->name, it + 1,
			where[i]);
	else
		vmr_err("case %s, iteration %ld: measured but not stored, nor kept: no file could be written", c->name,
			it + 1);
	json_decref(j);
	for (i = 0; i < ARRAY_SIZE(where); i++)
		free(where[i]);
}

static int run_iteration(struct run_state *rs, struct run_var *var, size_t ci, long it, struct runner_cfg *cfg,
			 struct trace_hooks *th, json_t *results, const char *skip)
{
	struct suite_case *c = &var->suite->cases[ci];
	struct result r = { 0 };
	char reset[512] = "";
	uint64_t reset_ns = 0;
	if (!skip && c->set.reset_between) {
		uint64_t t0 = vmr_now_ns();
		if (sandbox_reset(rs->sb, reset, sizeof(reset)) < 0) {
			vmr_err("reset-between: %s", reset);
			return VMR_EXIT_CANNOT;
		}
		reset_ns = vmr_now_ns() - t0;
	}
	progress_begin(rs->prog, c, ci, it, var->variant ? var->variant->name : NULL);
	if (skip) {
		result_init(&r, c->w->name);
		result_set_outcome(&r, OUTCOME_SKIP, "%s", skip);
	} else {
		runner_run(c->w, c->wopts, rs->sb, cfg, &r);  /* the progress ticker runs as its first hook */
		trace_hooks_say(th);
	}
	if (reset[0])
		result_info_set(&r, "reset_between", json_pack("{ss sI}", "done", reset, "ns", (json_int_t)reset_ns));
	if (r.outcome != OUTCOME_PASS && r.outcome != OUTCOME_SKIP)
		rs->any_failed = true;
	run_count(var, c, &r, it < c->set.warmup);
	progress_end(rs->prog, &r);
	int rc = rs->group.uuid ? store_result_add_seq(rs->st, var->case_ids[ci], (int)it, rs->seq, &r)
				: store_result_add(rs->st, var->case_ids[ci], (int)it, &r);
	if (rc < 0)
		run_keep_unsaved(rs, var, c, it, &r);
	var->stored += rc == 0;
	if (rc == 0 && rs->on_stored)
		rs->on_stored(rs);
	rs->seq++;
	if (results)
		json_array_append_new(results, result_to_json(&r));
	result_free(&r);
	return rc < 0 ? VMR_EXIT_CANNOT : 0;
}

/* What runs beside one configuration's iterations of a case: the progress
 * ticker, the monitor, the latency probe and the case's traces. */
struct run_hooks {
	struct monitor mon;
	struct probe probe;
	struct trace_hooks *th;
	struct pin pin;
	struct runner_hook hooks[6];
	struct runner_cfg cfg;
	json_t *results;            /* --json: where the iterations go */
};

static void run_hooks_init(struct run_state *rs, struct run_var *var, size_t ci, struct run_hooks *h)
{
	struct suite_case *c = &var->suite->cases[ci];
	size_t nhooks = 0, ntrace;
	h->hooks[nhooks++] = progress_hook(rs->prog);
	monitor_init(&h->mon, c->set.monitor_interval_ns);
	probe_init(&h->probe, c->set.probe_period_ns);
	const char *why = NULL;
	if (c->set.cpu && pin_parse(c->set.cpu, &h->pin, &why) == 0) {  /* runcmd_check said it parses */
		h->hooks[nhooks++] = pin_hook(&h->pin);
		h->probe.cpus = h->pin.any_rest ? &h->pin.rest : NULL;
	}
	if (!c->set.no_monitor)
		h->hooks[nhooks++] = monitor_hook(&h->mon);
	if (!c->set.no_probe)
		h->hooks[nhooks++] = probe_hook(&h->probe);
	h->th = trace_hooks_new(&c->trace);
	struct runner_hook *trace_hooks = trace_hooks_list(h->th, &ntrace);
	for (size_t i = 0; i < ntrace && nhooks < ARRAY_SIZE(h->hooks); i++)
		h->hooks[nhooks++] = trace_hooks[i];
	h->cfg = (struct runner_cfg){ .timeout_ns = c->sandbox.timeout_ns, .force = c->sandbox.force,
				      .hooks = h->hooks, .nhooks = nhooks };
	h->results = NULL;
	if (var->out) {
		h->results = json_array();
		json_array_append_new(var->out, json_pack("{ss ss so so}", "name", c->name, "workload", c->w->name,
							  "options", suite_case_json(c), "results", h->results));
	}
}

static void run_hooks_destroy(struct run_hooks *h)
{
	trace_hooks_free(h->th);
	monitor_destroy(&h->mon);
	probe_destroy(&h->probe);
}

/* Case ci's share of the budget: what the cases before it left, divided
 * evenly between it and the cases after it, so that the time a case that
 * converged early did not need goes to the ones still to run. */
static double run_auto_share_s(const struct run_state *rs, size_t ci)
{
	const struct suite *s0 = rs->vars[0].suite;
	double left = ((double)s0->global.budget_ns - (double)rs->auto_spent_ns) / 1e9;
	return (left > 0 ? left : 0) / (double)(s0->ncases - ci);
}

/* The headline tests compare will make of the run, m of BH's alpha / m:
 * every case's headline figures (this one's as many as it measured), for
 * each variant against the base. */
static size_t run_auto_family(const struct run_state *rs, size_t ci)
{
	const struct suite *s0 = rs->vars[0].suite;
	size_t m = 0;
	for (size_t c = 0; c < s0->ncases; c++) {
		size_t k = workload_headline_count(s0->cases[c].w->name);
		m += c == ci && rs->vars[0].track.n > k ? rs->vars[0].track.n : k;
	}
	m *= rs->nvars > 1 ? rs->nvars - 1 : 1;
	return m ? m : 1;
}

/* --effect: whether every headline metric of case ci so far would show
 * the change against the base (paired by block), or alone without
 * variants. */
static bool run_auto_seen(const struct run_state *rs, size_t ci, double effect)
{
	const struct precision_track *t0 = &rs->vars[0].track;
	double level = 0.05 / (double)run_auto_family(rs, ci);  /* compare's default FDR */
	for (size_t m = 0; m < t0->n; m++)
		for (size_t v = rs->nvars > 1 ? 1 : 0; v < rs->nvars; v++) {
			const struct precision_series *x = &t0->s[m], *y = NULL;
			for (size_t j = 0; v && j < rs->vars[v].track.n && !y; j++)
				if (!strcmp(rs->vars[v].track.s[j].metric, x->metric))
					y = &rs->vars[v].track.s[j];
			if ((v && !y) || !precision_effect_seen(x->v, y ? y->v : NULL, y && y->n < x->n ? y->n : x->n,
								effect, level, compare_rank_tested(x->metric)))
				return false;
		}
	return t0->n > 0;
}

/* After a block of iterations auto: whether to run another.  Each
 * variant's headline figures so far, all within the precision or not. */
static enum precision_stop run_auto_decide(struct run_state *rs, size_t ci, long counted, uint64_t t0,
					   long blocks)
{
	const struct suite *s0 = rs->vars[0].suite;
	struct precision_rule rule = { .budget_s = run_auto_share_s(rs, ci),
				       .min_iterations = RUN_AUTO_MIN, .max_iterations = RUN_AUTO_MAX };
	precision_parse(s0->global.precision, &rule.target);  /* runcmd_check said it parses */
	if (s0->global.effect && precision_parse(s0->global.effect, &rule.effect) == 0)
		rule.seen = run_auto_seen(rs, ci, rule.effect);
	size_t n = 0;
	for (size_t v = 0; v < rs->nvars; v++)
		n += rs->vars[v].track.n;
	double *reached = xcalloc(n + 1, sizeof(*reached));
	n = 0;
	for (size_t v = 0; v < rs->nvars; v++)
		for (size_t m = 0; m < rs->vars[v].track.n; m++)
			reached[n++] = precision_of(rs->vars[v].track.s[m].v, rs->vars[v].track.s[m].n);
	enum precision_stop why =
		precision_decide(&rule, reached, n, counted, (double)(vmr_now_ns() - t0) / 1e9, blocks);
	free(reached);
	return why;
}

/* Why a case stopped ("precision after 12 iterations") and the precision
 * each headline metric reached ("CASE.METRIC": 0.018), into every
 * variant's record; its figures dropped for the next case. */
static void run_auto_record(struct run_state *rs, size_t ci, enum precision_stop why, long counted)
{
	for (size_t v = 0; v < rs->nvars; v++) {
		struct run_var *var = &rs->vars[v];
		const char *name = var->suite->cases[ci].name;
		if (!var->stops) {
			var->stops = json_object();
			var->reached = json_object();
		}
		for (size_t m = 0; why != PRECISION_GO && m < var->track.n; m++) {
			double p = precision_of(var->track.s[m].v, var->track.s[m].n);
			char *key = xasprintf("%s.%s", name, var->track.s[m].metric);
			json_object_set_new(var->reached, key, isfinite(p) ? json_real(p) : json_null());
			free(key);
		}
		if (why != PRECISION_GO)
			json_object_set_new(var->stops, name, json_sprintf("%s after %ld iterations",
									  precision_stop_name(why), counted));
		precision_track_free(&var->track);
	}
}

/* Every configuration's iterations of one case, in the plan's order
 * (harness/plan.h), a block (one iteration of each) at a time: first the
 * warm-up blocks, then the counted ones, as many as the suite says or,
 * with iterations = auto, until the precision is reached or the budget
 * spent.  Each configuration's sandbox, with its knobs, is opened for its
 * own iterations and closed when another's come. */
int run_case(struct run_state *rs, size_t ci)
{
	const struct suite *s0 = rs->vars[0].suite;
	const struct suite_settings *set = &s0->cases[ci].set;
	bool autom = s0->global.iterations_auto;
	long warmup = set->warmup, blocks = warmup + (autom ? RUN_AUTO_MAX : set->iterations);
	size_t nv = rs->nvars;
	size_t *order = xcalloc(nv * (size_t)blocks, sizeof(*order));
	long *done = xcalloc(nv, sizeof(*done));
	struct run_hooks *h = xcalloc(nv, sizeof(*h));
	plan_order((enum plan_order)s0->global.order, (uint64_t)s0->global.seed, ci, nv, blocks, order);
	for (size_t v = 0; v < nv; v++)
		run_hooks_init(rs, &rs->vars[v], ci, &h[v]);
	int rc = 0;
	enum precision_stop why = PRECISION_GO;
	uint64_t t0 = vmr_now_ns();
	for (long b = 0; b < blocks && !rc && why == PRECISION_GO && !progress_closed(rs->prog); b++) {
		for (size_t k = (size_t)b * nv; k < (size_t)(b + 1) * nv && !rc && !progress_closed(rs->prog); k++) {
			struct run_var *var = &rs->vars[order[k]];
			char skipwhy[600] = "";
			/* a case that cannot run here is a skip, and the others run */
			const char *skip = sandbox_cfg_cannot(&var->suite->cases[ci].sandbox, skipwhy, sizeof(skipwhy));
			rc = skip ? 0 : run_sandbox(rs, &var->suite->cases[ci]);
			if (!rc)
				rc = run_iteration(rs, var, ci, done[order[k]]++, &h[order[k]].cfg, h[order[k]].th,
						   h[order[k]].results, skip);
		}
		if (autom && !rc && b + 1 > warmup)
			why = run_auto_decide(rs, ci, b + 1 - warmup, t0, b + 1);
		long next = b + 2 - warmup;  /* the progress line's count: one more block */
		if (autom && why == PRECISION_GO && next > s0->cases[ci].set.iterations) {
			for (size_t v = 0; v < nv; v++)
				rs->vars[v].suite->cases[ci].set.iterations = next;
			progress_grow(rs->prog, nv);
		}
	}
	if (autom) {
		run_auto_record(rs, ci, why, done[0] - warmup);
		rs->auto_spent_ns += vmr_now_ns() - t0;
	}
	for (size_t v = 0; v < nv; v++)
		run_hooks_destroy(&h[v]);
	free(h);
	free(done);
	free(order);
	return rc;
}
