/* vmregress plan SUITE --effect 5% [--from GROUP]: the iterations a
 * variant needs to see that change at compare's FDR and power, from the
 * spread of a stored group (an A/A group at best) or, without one, of a
 * short A/A pilot run made first (into --db, else a scratch store). */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/scratch.h"
#include "core/util.h"
#include "report/plan_text.h"
#include "report/runsrc.h"
#include "store/store.h"
#include "stats/compare.h"
#include "stats/plan.h"
#include "workload/workload.h"

struct plan_cmd {
	char *db, *from, *effect;
	double alpha;
	long pilot;
};

const struct opt plan_cmd_opts[] = {
	{ .name = "effect", .type = OPT_STR, .off = offsetof(struct plan_cmd, effect), .def = "5%", .metavar = "PCT",
	  .help = "the change to see, in percent (5% or 0.05)" },
	{ .name = "from", .type = OPT_STR, .off = offsetof(struct plan_cmd, from), .metavar = "GROUP",
	  .help = "the stored group whose spread to plan from (an A/A group at best)" },
	{ .name = "pilot", .type = OPT_INT, .off = offsetof(struct plan_cmd, pilot), .def = "4", .min = 3, .max = 100,
	  .metavar = "N", .help = "without --from: the blocks of the A/A pilot run made first (in the sandbox, into --db "
				  "or a scratch store)" },
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

/* The A/A pilot: `run SUITE --variant a: --variant b: -n BLOCKS --quiet`
 * into --db, else a store in a scratch directory (*scratch, removed by the
 * caller); o->from becomes its group.  0, or run's exit code. */
static int plan_run_pilot(struct plan_cmd *o, const char *suite, struct plan_pilot *pilot, char **scratch)
{
	char *db = o->db ? xstrdup(o->db) : NULL, blocks[32], *name = store_default_name(suite, vmr_wall_s());
	if (!db && (*scratch = scratch_make("plan")))
		db = xasprintf("%s/pilot.db", *scratch);
	if (!db) {
		vmr_errno("plan: cannot make a scratch directory for the pilot run in %s", scratch_base());
		free(name);
		return VMR_EXIT_CANNOT;
	}
	pilot->group = xasprintf("pilot-%s", name);
	free(name);
	snprintf(blocks, sizeof(blocks), "%ld", pilot->blocks);
	fprintf(stderr, "vmregress: plan: no --from: a pilot run first, %ld interleaved blocks of two alike variants "
			"of %s (group %s, %s)\n",
		pilot->blocks, suite, pilot->group, o->db ? o->db : "a scratch store");
	char *argv[] = { "run", (char *)suite, "--variant", "a:", "--variant", "b:", "-n", blocks, "--name", pilot->group,
			 "--db", db, "--quiet", NULL };
	uint64_t t0 = vmr_now_ns();
	int rc = cmd_run((int)ARRAY_SIZE(argv) - 1, argv);
	pilot->took_s = (double)(vmr_now_ns() - t0) / 1e9;
	pilot->kept = o->db != NULL;
	if (rc)
		vmr_err("plan: the pilot run of %s did not complete (exit %d): nothing to plan from", suite, rc);
	free(o->db);
	o->db = db;
	o->from = pilot->group;
	pilot->db = db;
	return rc;
}

int cmd_plan(int argc, char **argv)
{
	struct plan_cmd o = { 0 };
	struct optset set = { plan_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos = 0, rc = VMR_EXIT_USAGE;
	bool help = false;
	struct plan_pilot pilot = { 0 };
	char *scratch = NULL;
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
	pilot.blocks = o.pilot;
	if (!o.from && (rc = plan_run_pilot(&o, pos[0], &pilot, &scratch)) != 0)
		goto free_opts;
	rc = VMR_EXIT_USAGE;
	struct strlist specs = { 0 };
	struct run_set runs = { 0 };
	/* compare's statistics need each iteration's metrics alone */
	if (cmd_resolve_runs(o.db, &o.from, 1, &specs) < 0 ||
	    runsrc_load_parts(o.db, specs.v, specs.n, RESULT_METRICS, &runs) < 0) {
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
		plan_write_text(stdout, &p, pos[0], o.from, pilot.group ? &pilot : NULL);
		rc = fflush(stdout) == EOF ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
	}
	plan_free(&p);
	compare_free(&cmp);
	runsrc_free(&runs);
free_opts:
	if (pilot.group)
		o.from = NULL;  /* the pilot's name, freed below */
	free(pilot.group);
	if (scratch)
		scratch_remove(scratch);
	free(scratch);
	opt_free(plan_cmd_opts, &o);
	free(pos);
	return rc;
}
