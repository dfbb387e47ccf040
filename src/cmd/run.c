/* vmregress run SUITE: every case of a suite, each iteration in a sandbox
 * with the monitor and the latency probe beside it, stored as one run. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/run_int.h"
#include "cmd/run_traces.h"
#include "core/scratch.h"
#include "core/signals.h"
#include "core/util.h"
#include "harness/hostenv.h"
#include "harness/pin.h"
#include "harness/plan.h"
#include "harness/progress.h"
#include "harness/run.h"
#include "harness/runner.h"
#include "harness/suite.h"
#include "harness/trace_hook.h"
#include "probe/system.h"
#include "report/compare_fmt.h"
#include "report/outcome_text.h"
#include "report/run_json.h"
#include "report/run_text.h"
#include "sandbox/knobs.h"
#include "sandbox/sandbox.h"
#include "stats/precision.h"
#include "store/store.h"
#include "stats/summary.h"
#include "vm/lava.h"

struct run_opts {
	char *iterations, *monitor_interval, *probe_period;  /* checked by suite_opts */
	char *name, *db, *tag;
	char *trace;                /* checked by trace_opts */
	char *order, *seed;         /* checked by suite_opts */
	char *precision, *effect, *budget, *warmup, *cpu;  /* checked by suite_opts and runcmd_check */
	struct strlist set, variant, lava;
	bool json, quiet, no_monitor, no_probe, profile, no_sandbox, force, reset_between;
};

const struct opt run_cmd_opts[] = {
	{ .name = "iterations", .type = OPT_STR, .off = offsetof(struct run_opts, iterations), .metavar = "N",
	  .help = "run each case N times, or auto: until --precision or --budget (default: the suite's, else 1)",
	  .short_name = 'n' },
	{ .name = "precision", .type = OPT_STR, .off = offsetof(struct run_opts, precision), .metavar = "P",
	  .help = "with --iterations auto: stop when every headline metric's 95% interval is within P of its mean "
	  "(default 2%)" },
	{ .name = "effect", .type = OPT_STR, .off = offsetof(struct run_opts, effect), .metavar = "E",
	  .help = "with --iterations auto, instead of --precision: stop each case when compare could see a change "
	  "of E (5%) in every headline metric, as `vmregress plan` counts" },
	{ .name = "budget", .type = OPT_STR, .off = offsetof(struct run_opts, budget), .metavar = "TIME",
	  .help = "with --iterations auto: stop adding iterations when the run has taken TIME (default 2m)" },
	{ .name = "warmup", .type = OPT_STR, .off = offsetof(struct run_opts, warmup), .metavar = "N",
	  .help = "N warm-up iterations of each case and variant first, stored as skipped, not counted" },
	{ .name = "cpu", .type = OPT_STR, .off = offsetof(struct run_opts, cpu), .metavar = "LIST",
	  .help = "pin the workload to these CPUs (0,2-3), the latency probe to the others" },
	{ .name = "reset-between", .type = OPT_FLAG, .off = offsetof(struct run_opts, reset_between),
	  .help = "before every iteration, reclaim the sandbox's memory and turn its swap off and on "
	  "(suite files: reset-between = yes)" },
	{ .name = "name", .type = OPT_STR, .off = offsetof(struct run_opts, name), .metavar = "NAME",
	  .help = "name the run (default SUITE-YYYYmmdd-HHMMSS-PID): unused, printable, at most 128 bytes, not a number" },
	{ .name = "set", .type = OPT_LIST, .off = offsetof(struct run_opts, set), .metavar = "KNOB=VALUE",
	  .help = "set an allow-listed kernel knob in every case's sandbox (repeatable)" },
	{ .name = "variant", .type = OPT_LIST, .off = offsetof(struct run_opts, variant),
	  .metavar = "NAME:KEY=VALUE[,...]", .help = "run under this variant too, interleaved with the others "
	  "(repeatable; the first is the base, 'NAME:' the suite as it is); KEY: a knob, a sandbox or suite "
	  "option, or [CASE.|WORKLOAD.]OPTION" },
	{ .name = "order", .type = OPT_STR, .off = offsetof(struct run_opts, order), .metavar = "ORDER",
	  .help = "how the variants' iterations interleave: abba (default) or random" },
	{ .name = "seed", .type = OPT_STR, .off = offsetof(struct run_opts, seed), .metavar = "N",
	  .help = "the seed of --order random (default: drawn, and stored with the runs)" },
	{ .name = "no-sandbox", .type = OPT_FLAG, .off = offsetof(struct run_opts, no_sandbox),
	  .help = "run every case on the host, without a cgroup or swap of its own (suite files: no-sandbox = yes)" },
	{ .name = "force", .type = OPT_FLAG, .off = offsetof(struct run_opts, force),
	  .help = "with --no-sandbox, allow sizes beyond free memory (suite files: force = yes)" },
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct run_opts, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	{ .name = "monitor-interval", .type = OPT_STR, .off = offsetof(struct run_opts, monitor_interval),
	  .metavar = "TIME", .help = "sample vmstat, meminfo, pressure and memcg stats this often (default 1s, min 50ms)" },
	{ .name = "probe-period", .type = OPT_STR, .off = offsetof(struct run_opts, probe_period), .metavar = "TIME",
	  .help = "the latency probe's period (default 10ms)" },
	{ .name = "no-monitor", .type = OPT_FLAG, .off = offsetof(struct run_opts, no_monitor),
	  .help = "do not run the monitor" },
	{ .name = "no-probe", .type = OPT_FLAG, .off = offsetof(struct run_opts, no_probe),
	  .help = "do not run the latency probe" },
	{ .name = "trace", .type = OPT_STR, .off = offsetof(struct run_opts, trace), .metavar = "WHAT",
	  .help = "trace every case: none, reclaim, faults, compaction or all (suite files: trace = WHAT)" },
	{ .name = "profile", .type = OPT_FLAG, .off = offsetof(struct run_opts, profile),
	  .help = "perf counters and top kernel symbols for every case (suite files: profile = yes)" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct run_opts, json),
	  .help = "print the run and every iteration's result as JSON" },
	{ .name = "quiet", .type = OPT_FLAG, .off = offsetof(struct run_opts, quiet), .short_name = 'q',
	  .help = "no progress lines and no summary" },
	{ .name = "lava", .type = OPT_LIST, .off = offsetof(struct run_opts, lava), .metavar = "KEY=VALUE",
	  .help = "record the LAVA job this run belongs to in its environment: job_id=ID, device=NAME, "
	  "device_type=TYPE (repeatable; lava testdef passes them)" },
	{ .name = "tag", .type = OPT_STR, .off = offsetof(struct run_opts, tag), .metavar = "TAG",
	  .help = "a label stored with the run", .flags = OPTF_HIDDEN },
	OPT_END,
};

static int runcmd_overrides(struct suite *s, const struct run_opts *o)
{
	if (o->iterations && suite_override(s, suite_opts, "iterations", o->iterations, "--iterations") < 0)
		return -1;
	if (o->monitor_interval &&
	    suite_override(s, suite_opts, "monitor-interval", o->monitor_interval, "--monitor-interval") < 0)
		return -1;
	if (o->probe_period && suite_override(s, suite_opts, "probe-period", o->probe_period, "--probe-period") < 0)
		return -1;
	if (o->no_monitor && suite_override(s, suite_opts, "no-monitor", "yes", "--no-monitor") < 0)
		return -1;
	if (o->no_probe && suite_override(s, suite_opts, "no-probe", "yes", "--no-probe") < 0)
		return -1;
	if (o->reset_between && suite_override(s, suite_opts, "reset-between", "yes", "--reset-between") < 0)
		return -1;
	if (plan_set_knobs(s, &o->set, "--set") < 0)
		return -1;
	if (o->no_sandbox && suite_override(s, sandbox_opts, "no-sandbox", "yes", "--no-sandbox") < 0)
		return -1;
	if (o->force && suite_override(s, sandbox_opts, "force", "yes", "--force") < 0)
		return -1;
	if (o->trace && suite_override(s, trace_opts, "trace", o->trace, "--trace") < 0)
		return -1;
	if (o->profile && suite_override(s, trace_opts, "profile", "yes", "--profile") < 0)
		return -1;
	if (o->order && suite_override(s, suite_opts, "order", o->order, "--order") < 0)
		return -1;
	if (o->seed && suite_override(s, suite_opts, "seed", o->seed, "--seed") < 0)
		return -1;
	const char *const keys[] = { "precision", "effect", "budget", "warmup", "cpu" };
	const char *const vals[] = { o->precision, o->effect, o->budget, o->warmup, o->cpu };
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char where[32] = "";
		snprintf(where, sizeof(where), "--%s", keys[i]);
		if (vals[i] && suite_override(s, suite_opts, keys[i], vals[i], where) < 0)
			return -1;
	}
	if ((o->precision || o->effect || o->budget) && !s->global.iterations_auto) {
		vmr_err("--%s: only iterations chosen by precision have one (add --iterations auto)",
			o->precision ? "precision" : o->effect ? "effect" : "budget");
		return -1;
	}
	if (o->precision && o->effect) {
		vmr_err("--precision and --effect: two rules for when to stop; give one");
		return -1;
	}
	return 0;
}

static int runcmd_check(struct suite *s)
{
	double frac = 0;
	if (s->global.iterations_auto && precision_parse(s->global.precision, &frac) < 0) {
		vmr_err("precision %s: not a fraction of the mean (2%% or 0.02)", s->global.precision);
		return -1;
	}
	if (s->global.iterations_auto && s->global.effect && precision_parse(s->global.effect, &frac) < 0) {
		vmr_err("effect %s: not a fraction of the mean (5%% or 0.05)", s->global.effect);
		return -1;
	}
	for (size_t i = 0; i < s->ncases; i++) {
		struct pin pin = { 0 };
		const char *why = NULL;
		if (s->cases[i].set.cpu && pin_parse(s->cases[i].set.cpu, &pin, &why) < 0) {
			vmr_err("cpu %s: %s", s->cases[i].set.cpu, why);
			return -1;
		}
		if (sandbox_cfg_check(&s->cases[i].sandbox) < 0)
			return -1;
	}
	return 0;
}

/* Every case may run here (sandbox_plan), checked before the first one
 * starts, before traces are made and before the store is written: a run
 * that cannot finish does nothing at all.  A variant's cases are checked
 * with its settings applied, by the same rule as the options of a run. */
static int runcmd_plan(const struct suite *s, const struct variant *v)
{
	for (size_t i = 0; i < s->ncases; i++) {
		const char *why = NULL;
		if (sandbox_plan(&s->cases[i].sandbox, &why) != SANDBOX_REFUSED)
			continue;
		if (v)
			vmr_err("--variant %s: %s: %s", v->name, s->cases[i].name, why);
		else
			vmr_err("%s: %s", s->cases[i].name, why);
		return -1;
	}
	return 0;
}

/* The workloads' own checks of their options, once traces are in place. */
static int runcmd_validate(struct suite *s)
{
	for (size_t i = 0; i < s->ncases; i++) {
		struct suite_case *c = &s->cases[i];
		if (c->w->validate && c->w->validate(c->wopts) < 0)
			return -1;
	}
	return 0;
}

/* The exit status when the output was closed (EPIPE): that of a process
 * killed by SIGPIPE, which is what a shell expects of such a writer. */
#define RUN_EXIT_CLOSED (128 + SIGPIPE)

static bool runcmd_name_taken(struct run_state *rs, const char *name)
{
	int64_t id, *ids;
	size_t n;
	if (store_resolve_quiet(rs->st, name, &id) == 0)
		return true;
	int rc = store_resolve_group_quiet(rs->st, name, &ids, &n);
	if (rc == 0)
		free(ids);
	return rc != -1;
}

/* A name for the group's runs: none of its runs', nor the group's own, may
 * be taken. */
static int runcmd_name_free(struct run_state *rs, const char *name, const char *what)
{
	int64_t id;
	if (name && store_resolve_quiet(rs->st, name, &id) == 0) {
		vmr_err("%s %s: a run with this name is stored already (id %lld)", what, name, (long long)id);
		return VMR_EXIT_USAGE;
	}
	if (name && rs->group.uuid && runcmd_name_taken(rs, name)) {
		vmr_err("%s %s: a group with this name is stored already", what, name);
		return VMR_EXIT_USAGE;
	}
	return 0;
}

static int runcmd_begin_var(struct run_state *rs, struct run_var *var, size_t index, json_t *env)
{
	struct store_group g = rs->group;
	int rc;
	if ((rc = runcmd_name_free(rs, var->name, rs->group.uuid ? "variant" : "--name")) != 0)
		return rc;
	g.variant = var->variant ? var->variant->name : NULL;
	g.index = (int)index;
	if (store_run_begin_group(rs->st, var->name, var->suite->name, var->suite->text, env, rs->o->tag,
				  rs->group.uuid ? &g : NULL, &var->run_id) < 0)
		return VMR_EXIT_CANNOT;
	var->case_ids = xcalloc(var->suite->ncases, sizeof(*var->case_ids));
	for (size_t i = 0; i < var->suite->ncases; i++) {
		struct suite_case *c = &var->suite->cases[i];
		json_t *opts = suite_case_json(c);
		rc = store_case_add(rs->st, var->run_id, c->name, c->w->name, opts, &var->case_ids[i]);
		json_decref(opts);
		if (rc < 0)
			return VMR_EXIT_CANNOT;
	}
	return 0;
}

/* The runs' names: GROUP-VARIANT.  A group named by default
 * (SUITE-YYYYmmdd-HHMMSS-PID) that is taken, by a group this process
 * began in the same second, becomes SUITE-YYYYmmdd-HHMMSS-PID-2, -3 ... */
static void runcmd_group_names(struct run_state *rs)
{
	char *base = xstrdup(rs->group.name);
	for (int k = 2; !rs->o->name && k < 1000; k++) {
		bool taken = runcmd_name_taken(rs, rs->group.name);
		for (size_t v = 0; v < rs->nvars && !taken; v++) {
			char *name = xasprintf("%s-%s", rs->group.name, rs->vars[v].variant->name);
			taken = runcmd_name_taken(rs, name);
			free(name);
		}
		if (!taken)
			break;
		free((char *)rs->group.name);
		rs->group.name = xasprintf("%s-%d", base, k);
	}
	free(base);
	for (size_t v = 0; v < rs->nvars; v++)
		rs->vars[v].name = xasprintf("%s-%s", rs->group.name, rs->vars[v].variant->name);
}

/* Sandboxes of other live vmregress processes, which press on the same
 * host while this run measures: part of its environment, so that compare
 * can say so.  Null where the state cannot be read (no root). */
static json_t *runcmd_other_sandboxes(void)
{
	json_t *st = NULL, *j;
	size_t i, n = 0;
	if (!vmr_is_root() || sandbox_status(&st) < 0)
		return json_null();
	json_array_foreach(json_object_get(st, "journals"), i, j)
		n += json_is_true(json_object_get(j, "owner_alive")) &&
		     json_integer_value(json_object_get(j, "owner_pid")) != (json_int_t)getpid();
	json_decref(st);
	return json_integer((json_int_t)n);
}

static int runcmd_begin(struct run_state *rs)
{
	if (rs->group.uuid)
		runcmd_group_names(rs);
	int rc = rs->group.uuid ? runcmd_name_free(rs, rs->group.name, "--name") : 0;
	rs->env = system_fingerprint();
	hostenv_own_values(rs->env);  /* not another run's knobs as the host's */
	json_object_set_new(rs->env, "other_sandboxes", runcmd_other_sandboxes());
	json_t *lava = rs->o->lava.n ? lava_env_parse(&rs->o->lava) : NULL;
	if (json_object_size(lava))
		json_object_set(rs->env, "lava", lava);  /* the LAVA job's, as its test shell knew it */
	json_decref(lava);
	for (size_t v = 0; v < rs->nvars && !rc; v++)
		rc = runcmd_begin_var(rs, &rs->vars[v], v, rs->env);
	return rc;
}

/* A run's summary, or its JSON appended to runs (--json). */
static int runcmd_print_var(struct run_state *rs, struct run_var *var, json_t *runs)
{
	struct run *run = NULL;
	/* the summaries read the iterations' metrics alone */
	if (store_load_run_parts(rs->st, var->run_id, RESULT_METRICS, &run) < 0)
		return VMR_EXIT_CANNOT;
	bool base = var == rs->vars;
	if (runs) {
		json_array_append_new(runs, json_pack("{so sO}", "run", run_info_to_json(&run->info), "cases", var->out));
	} else if (!rs->o->quiet) {
		if (var->variant)
			outcome_run_variant(stdout, var->variant->name, var->variant->settings, base);
		struct case_summary *s = summary_build(run);
		struct summary_totals t = { 0 };
		summary_totals(run, &t);
		run_text_brief(stdout, run, s, &t, workload_metric_headline);
		summary_free(s, run->ncases);
		if (!var->variant)
			outcome_run_stored(stdout, (long long)run->info.id, store_path(rs->st));
	}
	run_free(run);
	return 0;
}

/* --json: a run of one configuration as it always was; a group as
 * {"group": {uuid, name, plan}, "runs": [each run as that]}. */
static int runcmd_print_json(struct run_state *rs, json_t *runs)
{
	if (!rs->group.uuid) {
		json_t *one = json_incref(json_array_get(runs, 0));
		json_decref(runs);
		return cmd_print_json(one);
	}
	return cmd_print_json(json_pack("{s{ss ss sO} so}", "group", "uuid", rs->group.uuid, "name", rs->group.name,
					"plan", rs->plan, "runs", runs));
}

static void runcmd_print_group(const struct run_state *rs)
{
	long long *ids = xcalloc(rs->nvars, sizeof(*ids));
	const char **names = xcalloc(rs->nvars, sizeof(*names));
	for (size_t v = 0; v < rs->nvars; v++) {
		ids[v] = (long long)rs->vars[v].run_id;
		names[v] = rs->vars[v].variant->name;
	}
	outcome_run_group(stdout, rs->group.name, store_path(rs->st), ids, names, rs->nvars);
	free(ids);
	free(names);
}

static int runcmd_print(struct run_state *rs)
{
	json_t *runs = rs->o->json ? json_array() : NULL;
	int rc = VMR_EXIT_OK;
	for (size_t v = 0; v < rs->nvars && !rc; v++)
		rc = runcmd_print_var(rs, &rs->vars[v], runs);
	if (runs && !rc)
		return runcmd_print_json(rs, runs);
	json_decref(runs);
	if (!rc && !runs && rs->group.uuid && !rs->o->quiet)
		runcmd_print_group(rs);
	return rc;
}

/* iterations = auto: the rule and why each case stopped, added to the
 * run's environment ("iterations_auto": {"precision" or "effect", "budget_s", CASE:
 * "budget after 9 iterations"}, "iterations_auto_reached": {"CASE.METRIC":
 * 0.031}), where show prints it and compare's environment diff finds it. */
static int runcmd_auto_store(struct run_state *rs, struct run_var *var)
{
	const struct suite_settings *g = &var->suite->global;
	if (!g->iterations_auto)
		return 0;
	double target = 0, effect = 0;
	json_t *env = json_deep_copy(rs->env), *stops = var->stops ? json_deep_copy(var->stops) : json_object();
	if (g->effect && precision_parse(g->effect, &effect) == 0)
		json_object_set_new(stops, "effect", json_real(effect));
	else if (precision_parse(g->precision, &target) == 0)
		json_object_set_new(stops, "precision", json_real(target));
	json_object_set_new(stops, "budget_s", json_real((double)g->budget_ns / 1e9));
	json_object_set_new(env, "iterations_auto", stops);
	json_object_set(env, "iterations_auto_reached", var->reached ? var->reached : json_object());
	int rc = store_run_env_set(rs->st, var->run_id, env);
	json_decref(env);
	return rc;
}

static int runcmd_suite(struct run_state *rs)
{
	const struct run_opts *o = rs->o;
	const struct suite *s0 = rs->vars[0].suite;
	char *path = o->db ? xstrdup(o->db) : store_default_path();
	int e = store_open(&rs->st, path, STORE_CREATE), rc = e == -2 ? VMR_EXIT_USAGE : VMR_EXIT_CANNOT;
	if (e < 0)
		goto free_path;
	rs->prog = progress_new(s0, rs->nvars, rs->st, o->quiet);
	if ((rc = runcmd_begin(rs)) != 0)
		goto close_store;
	runcmd_note_begin(rs, o->db);
	for (size_t v = 0; o->json && v < rs->nvars; v++)
		rs->vars[v].out = json_array();
	for (size_t i = 0; i < s0->ncases && !rc && !progress_closed(rs->prog); i++)
		rc = run_case(rs, i);
	if (rs->sb)
		sandbox_close(rs->sb);
	if (progress_closed(rs->prog)) {
		/* the reader of our output left: stop as a signal would, but
		 * with the sandbox undone and the runs left interrupted */
		rc = RUN_EXIT_CLOSED;
		goto close_store;
	}
	if (rc && !rs->seq) {
		/* refused before any iteration began, for what only the open
		 * run could check (a value the kernel refuses, a sandbox the
		 * host cannot afford): a run that never started is not stored */
		for (size_t v = 0; v < rs->nvars; v++)
			if (rs->vars[v].run_id)
				store_delete_run(rs->st, rs->vars[v].run_id);
		goto close_store;
	}
	progress_finish(rs->prog);
	for (size_t v = 0; v < rs->nvars; v++)
		if (runcmd_auto_store(rs, &rs->vars[v]) < 0 && !rc)
			rc = VMR_EXIT_CANNOT;
	for (size_t v = 0; v < rs->nvars; v++)
		if (store_run_end(rs->st, rs->vars[v].run_id, rc ? "failed" : "complete") < 0 && !rc)
			rc = VMR_EXIT_CANNOT;
	int prc = runcmd_print(rs);
	if (fflush(stdout) == EOF && errno == EPIPE)
		prc = RUN_EXIT_CLOSED;
	if (!rc)
		rc = prc ? prc : rs->any_failed ? VMR_EXIT_FAIL : VMR_EXIT_OK;
close_store:
	runcmd_note_end();
	progress_free(rs->prog);
	json_decref(rs->sb_echo);
	json_decref(rs->env);
	for (size_t v = 0; v < rs->nvars; v++) {
		json_decref(rs->vars[v].stops);
		json_decref(rs->vars[v].reached);
		precision_track_free(&rs->vars[v].track);
		json_decref(rs->vars[v].out);
		free(rs->vars[v].case_ids);
	}
	store_close(rs->st);
free_path:
	free(path);
	return rc;
}

/* The variants to run: --variant's, else the suite's [variants]; none is a
 * run of one configuration.  0 or -1 after one error. */
static int runcmd_variants_parse(const struct run_opts *o, const struct suite *s, struct variant **out, size_t *n)
{
	size_t want = o->variant.n ? o->variant.n : s->nvariants;
	*out = xcalloc(want + 1, sizeof(**out));
	*n = 0;
	if (!o->variant.n) {
		for (; *n < s->nvariants; (*n)++)
			variant_copy(&(*out)[*n], &s->variants[*n]);
		return 0;
	}
	for (; *n < o->variant.n; (*n)++)
		if (variant_parse(&(*out)[*n], o->variant.v[*n], "--variant") < 0)
			return -1;
	return variants_check(*out, *n, "--variant");
}

static void runcmd_variants_free(struct variant *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		variant_free(&v[i]);
	free(v);
}

/* One configuration checked: the command line's settings, then the
 * variant's, then whether it may run here.  0, or an exit code after one
 * error. */
static int runcmd_prepare_check(struct suite *s, const struct run_opts *o, const struct variant *v)
{
	char where[PATH_MAX + 32] = "--variant";
	if (v && v->line)
		snprintf(where, sizeof(where), "%s:%u: variant", s->path, v->line);
	if (runcmd_overrides(s, o) < 0 || (v && variant_apply(s, v, where) < 0) || runcmd_check(s) < 0)
		return VMR_EXIT_USAGE;
	for (size_t i = 0; s->global.iterations_auto && i < s->ncases; i++)
		s->cases[i].set.iterations = RUN_AUTO_MIN;  /* so far: grows as blocks are added */
	return runcmd_plan(s, v) < 0 ? VMR_EXIT_CANNOT : 0;
}

/* A checked configuration's traces made and its workloads' options
 * checked.  0, or an exit code after one error. */
static int runcmd_prepare_make(struct suite *s, struct runcmd_traces *t)
{
	return runcmd_traces_make(s, t) < 0 || runcmd_validate(s) < 0 ? VMR_EXIT_USAGE : 0;
}

/* What is stored with every run of a group about how it ran. */
static json_t *runcmd_plan_json(const struct suite *s, const struct variant *v, size_t n)
{
	json_t *vars = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(vars, json_pack("{ss ss}", "name", v[i].name, "settings", v[i].settings));
	bool random = s->global.order == PLAN_RANDOM;
	return json_pack("{ss so so}", "order", random ? "random" : "abba", "seed",
			 random ? json_integer((json_int_t)s->global.seed) : json_null(), "variants", vars);
}

/* A run of several variants: each one's suite, its run's name, and the
 * group that holds them.  0 or an exit code. */
static int runcmd_group_prepare(struct run_state *rs, struct suite *s, const struct run_opts *o,
			     const struct variant *v, size_t n, struct runcmd_traces *t)
{
	rs->vars = xcalloc(n, sizeof(*rs->vars));
	for (size_t i = 0; i < n; i++) {
		struct suite *sv = xcalloc(1, sizeof(*sv));
		rs->vars[rs->nvars++] = (struct run_var){ .suite = sv, .variant = &v[i] };
		if (suite_parse(sv, s->path, s->text) < 0)
			return VMR_EXIT_USAGE;
		free(sv->name);
		sv->name = xstrdup(s->name);
		int rc = runcmd_prepare_check(sv, o, &v[i]);
		if (rc)
			return rc;
	}
	for (size_t i = 0; i < n; i++) {  /* every variant may run before any trace is made */
		int rc = runcmd_prepare_make(rs->vars[i].suite, t);
		if (rc)
			return rc;
	}
	struct suite *s0 = rs->vars[0].suite;
	if (o->seed && s0->global.order != PLAN_RANDOM) {
		vmr_err("--seed: only the random order has a seed (add --order random)");
		return VMR_EXIT_USAGE;
	}
	if (s0->global.order == PLAN_RANDOM && s0->global.seed < 0) {
		long seed = (long)plan_random_seed();
		for (size_t i = 0; i < n; i++)
			rs->vars[i].suite->global.seed = seed;
	}
	char uuid[40];
	store_uuid(uuid, sizeof(uuid));
	char *name = o->name ? xstrdup(o->name) : store_default_name(s->name, vmr_wall_s());
	rs->plan = runcmd_plan_json(s0, v, n);
	rs->group = (struct store_group){ .uuid = xstrdup(uuid), .name = name, .plan = rs->plan };
	return 0;
}

static void runcmd_state_free(struct run_state *rs, bool own_suites)
{
	for (size_t i = 0; i < rs->nvars; i++) {
		if (own_suites && rs->vars[i].suite) {
			suite_free(rs->vars[i].suite);
			free(rs->vars[i].suite);
		}
		free(rs->vars[i].name);
	}
	free(rs->vars);
	free((char *)rs->group.uuid);
	free((char *)rs->group.name);
	json_decref(rs->plan);
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct optset set = { run_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos, rc = VMR_EXIT_USAGE;
	bool help = false;
	struct suite s = { 0 };
	struct runcmd_traces traces = { 0 };
	struct run_state rs = { .o = &o };
	struct variant *variants = NULL;
	size_t nvariants = 0;
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("run"));
		rc = VMR_EXIT_OK;
		goto free_opts;
	}
	if (npos != 1) {
		vmr_err("run: %s (usage: vmregress run SUITE|FILE [options])", npos ? "one suite at a time" : "which suite?");
		goto free_opts;
	}
	const char *bad_name = o.name ? store_name_invalid(o.name) : NULL;
	if (bad_name) {
		vmr_err("--name: %s", bad_name);
		goto free_opts;
	}
	json_t *lava = o.lava.n ? lava_env_parse(&o.lava) : NULL;
	if (o.lava.n && !lava)
		goto free_opts;
	json_decref(lava);
	/* from here a signal undoes what the run made (traces, sandboxes) */
	sandbox_install_signal_handlers();
	if (suite_load(&s, pos[0]) < 0 || runcmd_variants_parse(&o, &s, &variants, &nvariants) < 0)
		goto free_suite;
	if (!nvariants && (o.order || o.seed)) {
		vmr_err("%s: only a run of several variants has an order (add --variant)", o.order ? "--order" : "--seed");
		goto free_suite;
	}
	if (nvariants) {
		if ((rc = runcmd_group_prepare(&rs, &s, &o, variants, nvariants, &traces)) != 0)
			goto free_suite;
	} else {
		if ((rc = runcmd_prepare_check(&s, &o, NULL)) != 0 || (rc = runcmd_prepare_make(&s, &traces)) != 0)
			goto free_suite;
		rs.vars = xcalloc(1, sizeof(*rs.vars));
		rs.vars[rs.nvars++] = (struct run_var){ .suite = &s, .name = o.name ? xstrdup(o.name) : store_default_name(s.name, vmr_wall_s()) };
	}
	rc = runcmd_suite(&rs);
free_suite:
	runcmd_state_free(&rs, nvariants > 0);
	runcmd_variants_free(variants, nvariants);
	runcmd_traces_free(&traces);
	suite_free(&s);
free_opts:
	opt_free(run_cmd_opts, &o);
	free(pos);
	return rc;
}
