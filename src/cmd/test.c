/* vmregress test: run one workload once, inside a sandbox, and print its
 * report (the workload's own layout when it has one, else a generic one). */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "harness/runner.h"
#include "harness/trace_hook.h"
#include "core/util.h"
#include "report/outcome_text.h"
#include "report/result_text.h"
#include "sandbox/sandbox.h"
#include "workload/workload.h"

struct test_opts {
	bool list;
	bool json;
	bool map;
	bool no_map;
};

const struct opt test_cmd_opts[] = {
	{ .name = "list", .type = OPT_FLAG, .off = offsetof(struct test_opts, list),
	  .help = "list the workloads with their summaries", .flags = OPTF_NO_ECHO },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct test_opts, json),
	  .help = "print the result as one JSON document", .flags = OPTF_NO_ECHO },
	{ .name = "map", .type = OPT_FLAG, .off = offsetof(struct test_opts, map),
	  .help = "print the present/swapped map of each pass after the report", .flags = OPTF_NO_ECHO },
	{ .name = "no-map", .type = OPT_FLAG, .off = offsetof(struct test_opts, no_map),
	  .help = "leave out the compact map (the last pass in the seed's encoding) printed after a report that has maps",
	  .flags = OPTF_NO_ECHO },
	OPT_END,
};

static bool test_takes_value(const struct opt *opts, const char *arg)
{
	const char *name = arg + 2;
	if (strncmp(arg, "--", 2) || strchr(name, '='))
		return false;
	const struct opt *o = opt_find(opts, name);
	return o && o->type != OPT_FLAG;
}

/* The workload's name: the first word that is not an option or the value
 * of one of test's or the sandbox's options. */
static int test_find_name(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return i + 1 < argc ? i + 1 : -1;
		if (argv[i][0] != '-')
			return i;
		if (test_takes_value(test_cmd_opts, argv[i]) || test_takes_value(sandbox_opts, argv[i]) ||
		    test_takes_value(trace_opts, argv[i]))
			i++;
	}
	return -1;
}

static int test_list(bool json)
{
	if (json) {
		json_t *a = json_array();
		for (size_t i = 0; workloads[i]; i++)
			json_array_append_new(a, json_pack("{ss ss sb}", "name", workloads[i]->name,
							   "summary", workloads[i]->summary,
							   "needs_root", workloads[i]->needs_root));
		return cmd_print_json(a);
	}
	outcome_workloads(stdout, workloads);
	return VMR_EXIT_OK;
}

static void test_help(FILE *f, const struct workload *w)
{
	if (!w) {
		cmd_help(f, cmd_find("test"));
		fputs("\nSandbox options:\n", f);
		opt_help(f, sandbox_opts);
		fputs("\nTracing options:\n", f);
		opt_help(f, trace_opts);
		fputs("\nWorkloads (see 'vmregress test NAME --help'):\n", f);
		for (size_t i = 0; workloads[i]; i++)
			fprintf(f, "  %-10s %s\n", workloads[i]->name, workloads[i]->summary);
		return;
	}
	fprintf(f, "usage: vmregress test %s [workload options] [sandbox options] [--json] [--map]\n\n"
		"%s\n", w->name, w->summary);
	if (w->opts && w->opts->name) {
		fputs("\nWorkload options:\n", f);
		opt_help(f, w->opts);
	}
	fputs("\nSandbox options:\n", f);
	opt_help(f, sandbox_opts);
	fputs("\nTracing options:\n", f);
	opt_help(f, trace_opts);
	fputs("\nOutput options:\n", f);
	opt_help(f, test_cmd_opts + 1);
}

static int test_exit_code(const struct result *r)
{
	switch (r->outcome) {
	case OUTCOME_PASS:
		return VMR_EXIT_OK;
	case OUTCOME_SKIP:
		return VMR_EXIT_CANNOT;
	default:
		return VMR_EXIT_FAIL;
	}
}

static int test_open_sandbox(struct sandbox_cfg *cfg, struct sandbox **sb)
{
	*sb = NULL;
	if (sandbox_cfg_check(cfg) < 0)
		return VMR_EXIT_USAGE;
	/* without root: on the host with --no-sandbox, else refused (sandbox_plan) */
	sandbox_install_signal_handlers();
	int rc = sandbox_open(sb, cfg);
	if (rc == -1)
		return VMR_EXIT_USAGE;
	if (rc < 0)
		return VMR_EXIT_CANNOT;
	return VMR_EXIT_OK;
}

static int test_run(const struct workload *w, void *wopts, struct sandbox_cfg *cfg,
		    const struct trace_cfg *tc, const struct test_opts *to)
{
	struct sandbox *sb;
	struct result r = { 0 };
	int rc = test_open_sandbox(cfg, &sb);
	if (rc != VMR_EXIT_OK)
		return rc;
	struct runner_cfg rcfg = { .timeout_ns = cfg->timeout_ns, .force = cfg->force };
	struct trace_hooks *th = trace_hooks_new(tc);
	rcfg.hooks = trace_hooks_list(th, &rcfg.nhooks);
	runner_run(w, wopts, sb, &rcfg, &r);
	trace_hooks_say(th);
	trace_hooks_free(th);
	sandbox_close(sb);
	rc = test_exit_code(&r);
	if (r.outcome != OUTCOME_PASS)
		vmr_err("test %s: %s: %s", w->name, outcome_name(r.outcome), r.reason ? r.reason : "no reason given");
	if (to->json) {
		int prc = cmd_print_json(result_to_json(&r));
		if (prc != VMR_EXIT_OK)
			rc = prc;
	} else {
		result_text(stdout, &r, to->map, !to->no_map);
	}
	result_free(&r);
	return rc;
}

int cmd_test(int argc, char **argv)
{
	struct test_opts to = { 0 };
	struct sandbox_cfg cfg = { 0 };
	struct trace_cfg tc = { 0 };
	OPT_DEFAULTS(sandbox_opts, &cfg);
	OPT_DEFAULTS(trace_opts, &tc);
	int at = test_find_name(argc, argv);
	const struct workload *w = at > 0 ? workload_find(argv[at]) : NULL;
	void *wopts = xcalloc(1, w && w->opts_size ? w->opts_size : 1);
	struct optset sets[] = {
		{ w ? w->opts : NULL, wopts, "Workload options" },
		{ sandbox_opts, &cfg, "Sandbox options" },
		{ trace_opts, &tc, "Tracing options" },
		{ test_cmd_opts, &to, "Output options" },
	};
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	int npos, rc = VMR_EXIT_USAGE;
	bool help = false;
	if (w)
		opt_defaults(w->opts, wopts, w->opts_size);
	if (at > 0 && !w) {
		const char *near = workload_suggest(argv[at]);
		if (near)
			vmr_err("test: unknown workload '%s'; did you mean '%s'? (see vmregress test --list)", argv[at],
				near);
		else
			vmr_err("test: unknown workload '%s' (see vmregress test --list)", argv[at]);
		goto free_opts;
	}
	if (opt_parse(sets, ARRAY_SIZE(sets), argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		test_help(stdout, w);
		rc = VMR_EXIT_OK;
	} else if (npos > 1) {
		vmr_err("test: unexpected argument '%s' (one workload at a time)", pos[1]);
	} else if (to.list) {
		rc = test_list(to.json);
	} else if (!w) {
		vmr_err("test: no workload named (see vmregress test --list)");
	} else if (w->validate && w->validate(wopts) < 0) {
		rc = VMR_EXIT_USAGE;
	} else {
		workload_holds(w, &cfg.hold);
		rc = test_run(w, wopts, &cfg, &tc, &to);
	}
free_opts:
	if (w)
		opt_free(w->opts, wopts);
	opt_free(sandbox_opts, &cfg);
	opt_free(trace_opts, &tc);
	free(wopts);
	free(pos);
	return rc;
}
