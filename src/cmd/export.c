/* vmregress export RUN|GROUP...: tidy rows (one per value, with the run's
 * name, uuid, group, variant, kernel, host and knobs, the case, iteration
 * and outcome), ready for pandas or R. */
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "report/export.h"
#include "report/kcidb.h"
#include "report/runsrc.h"

struct export_opts {
	char *db;
	int format;
	struct kcidb_source kcidb;
};

enum { EXPORT_CSV, EXPORT_JSON, EXPORT_KCIDB };

const struct opt export_cmd_opts[] = {
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct export_opts, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	{ .name = "format", .type = OPT_ENUM, .off = offsetof(struct export_opts, format), .def = "csv",
	  .choices = "csv|json|kcidb",
	  .help = "csv (a header line, then one row per value), json (an array of rows) or kcidb (KernelCI's KCIDB v5.3)" },
	KCIDB_SOURCE_OPTS(struct export_opts, kcidb),
	OPT_END,
};

int cmd_export(int argc, char **argv)
{
	struct export_opts o = { 0 };
	OPT_DEFAULTS(export_cmd_opts, &o);
	struct optset set = { export_cmd_opts, &o, NULL };
	char **pos = NULL;
	int npos = 0, rc = VMR_EXIT_USAGE;
	struct strlist specs = { 0 };
	struct run_set runs = { 0 };
	int p = cmd_parse("export", &set, 1, argc, argv, &pos, &npos);
	if (p) {
		rc = p > 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
		goto free_opts;
	}
	if (!npos) {
		vmr_err("export: which run? (usage: vmregress %s)", cmd_find("export")->usage);
		goto free_opts;
	}
	const char *bad = kcidb_source_invalid(&o.kcidb);
	if (bad) {
		vmr_err("export: %s", bad);
		goto free_opts;
	}
	if (cmd_resolve_runs(o.db, pos, (size_t)npos, &specs) < 0 ||
	    runsrc_load_parts(o.db, specs.v, specs.n, RESULT_METRICS, &runs) < 0)
		goto free_specs;
	if (o.format == EXPORT_KCIDB) {
		rc = cmd_print_json(kcidb_runs((const struct run *const *)runs.runs, runs.n, &o.kcidb));
	} else if (o.format == EXPORT_JSON) {
		rc = cmd_print_json(export_rows_json(runs.runs, runs.n));
	} else {
		export_rows_csv(stdout, runs.runs, runs.n);
		rc = fflush(stdout) == EOF ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
		if (rc)
			vmr_errno("cannot write to standard output");
	}
	runsrc_free(&runs);
free_specs:
	strlist_free(&specs);
free_opts:
	opt_free(export_cmd_opts, &o);
	free(pos);
	return rc;
}
