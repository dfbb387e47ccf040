/* vmregress run SUITE: every case of a suite, each iteration in a sandbox
 * with the monitor and the latency probe beside it, stored as one run. */
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/progress.h"
#include "core/monitor.h"
#include "core/probe.h"
#include "core/runner.h"
#include "core/suite.h"
#include "core/trace_hook.h"
#include "core/util.h"
#include "probe/system.h"
#include "store/store.h"
#include "store/summary.h"

struct run_opts {
	char *iterations, *monitor_interval, *probe_period;  /* checked by suite_opts */
	char *name, *db, *tag;
	char *trace;                /* checked by trace_opts */
	struct strlist set;
	bool json, quiet, no_monitor, no_probe, profile;
};

const struct opt run_cmd_opts[] = {
	{ .name = "iterations", .type = OPT_STR, .off = offsetof(struct run_opts, iterations), .metavar = "N",
	  .help = "run each case N times (default: the suite's, else 1)", .short_name = 'n' },
	{ .name = "name", .type = OPT_STR, .off = offsetof(struct run_opts, name), .metavar = "NAME",
	  .help = "name the run (default SUITE-YYYYmmdd-HHMMSS); must be unused" },
	{ .name = "set", .type = OPT_LIST, .off = offsetof(struct run_opts, set), .metavar = "KNOB=VALUE",
	  .help = "set an allow-listed kernel knob in every case's sandbox (repeatable)" },
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
	{ .name = "tag", .type = OPT_STR, .off = offsetof(struct run_opts, tag), .metavar = "TAG",
	  .help = "a label stored with the run", .flags = OPTF_HIDDEN },
	OPT_END,
};

static int run_overrides(struct suite *s, const struct run_opts *o)
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
	for (size_t i = 0; i < o->set.n; i++)
		if (suite_override(s, sandbox_opts, "set", o->set.v[i], "--set") < 0)
			return -1;
	if (o->trace && suite_override(s, trace_opts, "trace", o->trace, "--trace") < 0)
		return -1;
	if (o->profile && suite_override(s, trace_opts, "profile", "yes", "--profile") < 0)
		return -1;
	for (size_t i = 0; i < s->ncases; i++)
		if (sandbox_cfg_check(&s->cases[i].sandbox) < 0)
			return -1;
	return 0;
}

/* The workloads' own checks of their options, once traces are in place. */
static int run_validate(struct suite *s)
{
	for (size_t i = 0; i < s->ncases; i++) {
		struct suite_case *c = &s->cases[i];
		if (c->w->validate && c->w->validate(c->wopts) < 0)
			return -1;
	}
	return 0;
}

/* The state of one run in progress. */
struct run_state {
	struct suite *suite;
	const struct run_opts *o;
	struct store *st;
	int64_t run_id;
	int64_t *case_ids;
	struct sandbox *sb;
	json_t *sb_echo;            /* the open sandbox's configuration */
	json_t *out;                /* --json: cases with their results */
	struct progress *prog;
	bool any_failed;
};

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
	/* Without root, a workload that does not need a sandbox runs bare,
	 * so that anyone can run the harness's own suites. */
	if (!vmr_is_root() && !c->w->needs_root && !c->sandbox.no_sandbox)
		return 0;
	int rc = sandbox_open(&rs->sb, &c->sandbox);
	if (rc == -1)
		return VMR_EXIT_USAGE;
	return rc < 0 ? VMR_EXIT_CANNOT : 0;
}

static int run_iteration(struct run_state *rs, size_t ci, long it, struct runner_cfg *cfg, json_t *results)
{
	struct suite_case *c = &rs->suite->cases[ci];
	struct result r;
	progress_begin(rs->prog, ci, it);
	runner_run(c->w, c->wopts, rs->sb, cfg, &r);  /* the progress ticker runs as its first hook */
	if (r.outcome != OUTCOME_PASS && r.outcome != OUTCOME_SKIP)
		rs->any_failed = true;
	progress_end(rs->prog, ci, it, &r);
	int rc = store_result_add(rs->st, rs->case_ids[ci], (int)it, &r);
	if (results)
		json_array_append_new(results, result_to_json(&r));
	result_free(&r);
	return rc < 0 ? VMR_EXIT_CANNOT : 0;
}

static int run_case(struct run_state *rs, size_t ci)
{
	struct suite_case *c = &rs->suite->cases[ci];
	int rc = run_sandbox(rs, c);
	if (rc)
		return rc;
	struct monitor mon;
	struct probe probe;
	struct runner_hook hooks[5];
	size_t nhooks = 0, ntrace;
	hooks[nhooks++] = progress_hook(rs->prog);
	monitor_init(&mon, c->set.monitor_interval_ns);
	probe_init(&probe, c->set.probe_period_ns);
	if (!c->set.no_monitor)
		hooks[nhooks++] = monitor_hook(&mon);
	if (!c->set.no_probe)
		hooks[nhooks++] = probe_hook(&probe);
	struct trace_hooks *th = trace_hooks_new(&c->trace);
	struct runner_hook *trace_hooks = trace_hooks_list(th, &ntrace);
	for (size_t i = 0; i < ntrace && nhooks < ARRAY_SIZE(hooks); i++)
		hooks[nhooks++] = trace_hooks[i];
	struct runner_cfg cfg = { .timeout_ns = c->sandbox.timeout_ns, .force = c->sandbox.force, .hooks = hooks,
				  .nhooks = nhooks };
	json_t *results = NULL;
	if (rs->out) {
		results = json_array();
		json_array_append_new(rs->out, json_pack("{ss ss so so}", "name", c->name, "workload", c->w->name,
							  "options", suite_case_json(c), "results", results));
	}
	for (long it = 0; it < c->set.iterations && !rc; it++)
		rc = run_iteration(rs, ci, it, &cfg, results);
	trace_hooks_free(th);
	monitor_destroy(&mon);
	probe_destroy(&probe);
	return rc;
}

static int run_begin(struct run_state *rs)
{
	const struct run_opts *o = rs->o;
	int64_t id;
	if (o->name && store_resolve_quiet(rs->st, o->name, &id) == 0) {
		vmr_err("--name %s: a run with this name is stored already (id %lld)", o->name, (long long)id);
		return VMR_EXIT_USAGE;
	}
	json_t *env = system_fingerprint();
	int rc = store_run_begin(rs->st, o->name, rs->suite->name, rs->suite->text, env, o->tag, &rs->run_id);
	json_decref(env);
	if (rc < 0)
		return VMR_EXIT_CANNOT;
	rs->case_ids = xcalloc(rs->suite->ncases, sizeof(*rs->case_ids));
	for (size_t i = 0; i < rs->suite->ncases; i++) {
		struct suite_case *c = &rs->suite->cases[i];
		json_t *opts = suite_case_json(c);
		rc = store_case_add(rs->st, rs->run_id, c->name, c->w->name, opts, &rs->case_ids[i]);
		json_decref(opts);
		if (rc < 0)
			return VMR_EXIT_CANNOT;
	}
	return 0;
}

static int run_print(struct run_state *rs)
{
	struct run *run = NULL;
	if (store_load_run(rs->st, rs->run_id, &run) < 0)
		return VMR_EXIT_CANNOT;
	int rc = VMR_EXIT_OK;
	if (rs->o->json) {
		json_t *j = json_pack("{so sO}", "run", run_info_to_json(&run->info), "cases", rs->out);
		rc = cmd_print_json(j);
	} else if (!rs->o->quiet) {
		summary_print_brief(stdout, run);
		printf("Stored as run %lld in %s\n", (long long)run->info.id, store_path(rs->st));
	}
	run_free(run);
	return rc;
}

static int run_suite(struct suite *s, const struct run_opts *o)
{
	struct run_state rs = { .suite = s, .o = o };
	char *path = o->db ? xstrdup(o->db) : store_default_path();
	int rc = VMR_EXIT_CANNOT;
	if (store_open(&rs.st, path, true) < 0)
		goto free_path;
	rs.prog = progress_new(s, rs.st, o->quiet);
	if ((rc = run_begin(&rs)) != 0)
		goto close_store;
	if (o->json)
		rs.out = json_array();
	sandbox_install_signal_handlers();
	for (size_t i = 0; i < s->ncases && !rc; i++)
		rc = run_case(&rs, i);
	if (rs.sb)
		sandbox_close(rs.sb);
	progress_finish(rs.prog);
	if (store_run_end(rs.st, rs.run_id, rc ? "failed" : "complete") < 0 && !rc)
		rc = VMR_EXIT_CANNOT;
	int prc = run_print(&rs);
	if (!rc)
		rc = prc ? prc : rs.any_failed ? VMR_EXIT_FAIL : VMR_EXIT_OK;
close_store:
	progress_free(rs.prog);
	json_decref(rs.out);
	json_decref(rs.sb_echo);
	free(rs.case_ids);
	store_close(rs.st);
free_path:
	free(path);
	return rc;
}

/* Reference traces made for the run (refs-generate), one per distinct
 * argument string, in a directory removed when the run ends. */
struct run_traces {
	char *dir;
	struct strlist args, paths;
};

static void run_traces_free(struct run_traces *t)
{
	for (size_t i = 0; i < t->paths.n; i++)
		unlink(t->paths.v[i]);
	if (t->dir)
		rmdir(t->dir);
	free(t->dir);
	strlist_free(&t->args);
	strlist_free(&t->paths);
}

/* `vmregress refs generate ARGS -o path`, run as a child of this binary. */
static int run_trace_generate(const char *args, const char *path)
{
	char *copy = xstrdup(args), *save = NULL;
	struct strlist av = { 0 };
	strlist_add(&av, "vmregress");
	strlist_add(&av, "refs");
	strlist_add(&av, "generate");
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		strlist_add(&av, w);
	strlist_add(&av, "-o");
	strlist_add(&av, path);
	char **argv = xcalloc(av.n + 1, sizeof(char *));
	memcpy(argv, av.v, av.n * sizeof(char *));
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	int status = 0;
	while (pid > 0 && waitpid(pid, &status, 0) < 0)
		;
	free(argv);
	strlist_free(&av);
	free(copy);
	return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int run_traces_make(struct suite *s, struct run_traces *t)
{
	for (size_t i = 0; i < s->ncases; i++) {
		struct suite_case *c = &s->cases[i];
		const char *args = c->set.refs_generate;
		if (!args)
			continue;
		size_t k = 0;
		while (k < t->args.n && strcmp(t->args.v[k], args))
			k++;
		if (k == t->args.n) {
			if (!t->dir) {
				const char *base = getenv("TMPDIR");
				t->dir = xasprintf("%s/vmregress-traces-%ld-XXXXXX", base && *base ? base : "/var/tmp",
						   (long)getpid());
				if (!mkdtemp(t->dir)) {
					vmr_errno("cannot make a directory for reference traces");
					free(t->dir);
					t->dir = NULL;
					return -1;
				}
			}
			char *path = xasprintf("%s/trace-%zu.refs", t->dir, k);
			int rc = run_trace_generate(args, path);
			strlist_add(&t->args, args);
			strlist_add(&t->paths, path);
			free(path);
			if (rc < 0) {
				vmr_err("%s: refs-generate '%s': cannot generate the trace", c->name, args);
				return -1;
			}
		}
		char where[256];
		snprintf(where, sizeof(where), "%s: refs-generate", c->name);
		if (opt_set(opt_find(c->w->opts, "refs"), c->wopts, t->paths.v[k], where) < 0)
			return -1;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct optset set = { run_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos, rc = VMR_EXIT_USAGE;
	bool help = false;
	struct suite s = { 0 };
	struct run_traces traces = { 0 };
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
	if (suite_load(&s, pos[0]) < 0 || run_overrides(&s, &o) < 0 || run_traces_make(&s, &traces) < 0 ||
	    run_validate(&s) < 0)
		goto free_suite;
	rc = run_suite(&s, &o);
free_suite:
	run_traces_free(&traces);
	suite_free(&s);
free_opts:
	opt_free(run_cmd_opts, &o);
	free(pos);
	return rc;
}
