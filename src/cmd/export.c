/* vmregress export RUN|GROUP...: tidy rows (one per value, with the run's
 * name, uuid, group, variant, kernel, host and knobs, the case, iteration
 * and outcome), ready for pandas or R. */
#include <errno.h>
#include <stdbool.h>
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

/* The rows of one run, written as it is read (runsrc_each_run). */
struct export_writer {
	bool json;
	struct export_json x;
	bool failed;   /* standard output failed: read no more */
};

static int export_run(void *ctx, size_t i, const struct run *r)
{
	struct export_writer *w = ctx;
	/* begun with the first run read: a run that cannot be read first
	 * leaves nothing written */
	if (i == 0 && w->json)
		export_json_begin(&w->x, stdout);
	else if (i == 0)
		export_csv_header(stdout);
	if (w->json)
		export_json_run(&w->x, r);
	else
		export_csv_run(stdout, r);
	w->failed = ferror(stdout);
	return w->failed ? -1 : 0;
}

/* CSV or JSON rows, each run's written as it is read: one run's metrics
 * held at a time.  A run that cannot be read after others were written
 * cuts the output short (exit 2, as when it is the first). */
static int export_write(const struct export_opts *o, const struct strlist *specs)
{
	struct export_writer w = { .json = o->format == EXPORT_JSON };
	if (runsrc_each_run(o->db, specs->v, specs->n, RESULT_METRICS, export_run, &w) < 0 && !w.failed)
		return VMR_EXIT_USAGE;
	if (!w.failed && w.json)
		export_json_end(&w.x);
	if (!w.failed && fflush(stdout) != EOF && !ferror(stdout))
		return VMR_EXIT_OK;
	/* as cmd_print_json and the CSV writer before said it */
	if (w.json && errno == EPIPE)
		return VMR_EXIT_CLOSED;
	vmr_errno(w.json ? "cannot write JSON to standard output" : "cannot write to standard output");
	return VMR_EXIT_CANNOT;
}

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
	if (cmd_resolve_runs(o.db, pos, (size_t)npos, &specs) < 0)
		goto free_specs;
	if (o.format == EXPORT_KCIDB) {
		if (runsrc_load_parts(o.db, specs.v, specs.n, RESULT_METRICS, &runs) < 0)
			goto free_specs;
		rc = cmd_print_json(kcidb_runs((const struct run *const *)runs.runs, runs.n, &o.kcidb));
		runsrc_free(&runs);
	} else {
		rc = export_write(&o, &specs);
	}
free_specs:
	strlist_free(&specs);
free_opts:
	opt_free(export_cmd_opts, &o);
	free(pos);
	return rc;
}
