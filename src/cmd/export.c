/* vmregress export RUN: tidy rows (run, case, iteration, metric, unit,
 * value), ready for pandas or R. */
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "store/store.h"
#include "store/summary.h"

struct export_opts {
	char *db;
	int format;
};

const struct opt export_cmd_opts[] = {
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct export_opts, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	{ .name = "format", .type = OPT_ENUM, .off = offsetof(struct export_opts, format), .def = "csv",
	  .choices = "csv|json", .help = "csv (a header line, then one row per value) or json (an array of rows)" },
	OPT_END,
};

int cmd_export(int argc, char **argv)
{
	struct export_opts o = { 0 };
	OPT_DEFAULTS(export_cmd_opts, &o);
	struct optset set = { export_cmd_opts, &o, NULL };
	char **pos;
	int rc;
	struct store *st = NULL;
	struct run *run = NULL;
	int64_t id;
	if (!cmd_parse_run("export", &set, argc, argv, &pos, &rc))
		goto free_opts;
	if (cmd_open_run(o.db, pos[0], &st, &id) < 0)
		goto close_store;
	rc = VMR_EXIT_CANNOT;
	if (store_load_run(st, id, &run) < 0)
		goto close_store;
	if (o.format == 1) {
		rc = cmd_print_json(summary_rows_json(run));
	} else {
		summary_rows_csv(stdout, run);
		rc = fflush(stdout) == EOF ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
		if (rc)
			vmr_errno("cannot write to standard output");
	}
	run_free(run);
close_store:
	store_close(st);
free_opts:
	opt_free(export_cmd_opts, &o);
	free(pos);
	return rc;
}
