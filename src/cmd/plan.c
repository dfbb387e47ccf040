/* vmregress plan SUITE --effect 5% --from GROUP: the iterations a variant
 * needs to see that change at compare's FDR and power, from the spread of
 * a stored group (an A/A group at best). */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "report/plan_text.h"
#include "report/runsrc.h"
#include "stats/compare.h"
#include "stats/plan.h"
#include "workload/workload.h"

struct plan_cmd {
	char *db, *from, *effect;
	double alpha;
};

const struct opt plan_cmd_opts[] = {
	{ .name = "effect", .type = OPT_STR, .off = offsetof(struct plan_cmd, effect), .def = "5%", .metavar = "PCT",
	  .help = "the change to see, in percent (5% or 0.05)" },
	{ .name = "from", .type = OPT_STR, .off = offsetof(struct plan_cmd, from), .metavar = "GROUP",
	  .help = "the stored group whose spread to plan from (an A/A group at best)" },
	{ .name = "alpha", .type = OPT_DOUBLE, .off = offsetof(struct plan_cmd, alpha), .def = "0.05", .min = 1e-12,
	  .max = 0.5, .metavar = "Q", .help = "the false-discovery rate compare will use" },
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct plan_cmd, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	OPT_END,
};

/* "5%" or "0.05" as a fraction in (0, 10]; -1 when it is neither. */
static double plan_parse_effect(const char *s)
{
	char *end = NULL;
	double v = strtod(s, &end);
	if (end == s || !(v > 0))
		return -1;
	if (*end == '%' && !end[1])
		v /= 100;
	else if (*end)
		return -1;
	return v <= 10 ? v : -1;
}

int cmd_plan(int argc, char **argv)
{
	struct plan_cmd o = { 0 };
	struct optset set = { plan_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos = 0, rc = VMR_EXIT_USAGE;
	bool help = false;
	OPT_DEFAULTS(plan_cmd_opts, &o);
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("plan"));
		rc = VMR_EXIT_OK;
		goto free_opts;
	}
	double effect = plan_parse_effect(o.effect);
	if (npos != 1) {
		vmr_err("plan: needs one suite (see --help)");
		goto free_opts;
	}
	if (effect < 0) {
		vmr_err("plan: --effect '%s': not a change in percent (5%% or 0.05)", o.effect);
		goto free_opts;
	}
	if (!o.from) {
		vmr_err("plan: --from GROUP names the stored group to plan from; make one with "
			"vmregress run %s --variant a: --variant b: -n 6", pos[0]);
		goto free_opts;
	}
	struct strlist specs = { 0 };
	struct run_set runs = { 0 };
	if (cmd_resolve_runs(o.db, &o.from, 1, &specs) < 0 || runsrc_load(o.db, specs.v, specs.n, &runs) < 0) {
		strlist_free(&specs);
		goto free_opts;
	}
	strlist_free(&specs);
	if (runs.n < 2) {
		vmr_err("plan: --from '%s': not a group of two variants or more", o.from);
		runsrc_free(&runs);
		goto free_opts;
	}
	struct compare_opts co = { .alpha = o.alpha, .headline = workload_metric_headline };
	struct comparison cmp = { 0 };
	compare_runs((const struct run *const *)runs.runs, runs.n, &co, &cmp);
	struct plan p = { 0 };
	plan_from_comparison(&cmp, effect, &p);
	if (!p.nrows) {
		vmr_err("plan: --from '%s': no headline metric with values in both variants", o.from);
	} else {
		plan_write_text(stdout, &p, pos[0], o.from);
		rc = fflush(stdout) == EOF ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
	}
	plan_free(&p);
	compare_free(&cmp);
	runsrc_free(&runs);
free_opts:
	opt_free(plan_cmd_opts, &o);
	free(pos);
	return rc;
}
