/* vmregress show RUN: a stored run's one-screen summary, or with --all its
 * environment and every metric of every case. */
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "report/compare_fmt.h"
#include "report/run_json.h"
#include "report/run_text.h"
#include "store/store.h"
#include "stats/summary.h"
#include "workload/workload.h"

struct show_opts {
	char *db;
	bool json, all, verbose;
};

const struct opt show_cmd_opts[] = {
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct show_opts, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	{ .name = "all", .type = OPT_FLAG, .off = offsetof(struct show_opts, all),
	  .help = "the environment and every metric of every case, not the one-screen summary" },
	{ .name = "verbose", .type = OPT_FLAG, .off = offsetof(struct show_opts, verbose), .help = "the same as --all",
	  .short_name = 'v' },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct show_opts, json), .help = "print JSON" },
	OPT_END,
};

int cmd_show(int argc, char **argv)
{
	struct show_opts o = { 0 };
	struct optset set = { show_cmd_opts, &o, NULL };
	char **pos;
	int rc;
	struct store *st = NULL;
	struct run *run = NULL;
	int64_t id;
	if (!cmd_parse_run("show", &set, argc, argv, &pos, &rc))
		goto free_opts;
	if (cmd_open_run(o.db, pos[0], false, &st, &id) < 0)
		goto close_store;
	rc = VMR_EXIT_CANNOT;
	if (store_load_run_parts(st, id, RESULT_METRICS, &run) < 0)
		goto close_store;
	if (o.json) {
		struct case_summary *s = summary_build(run);
		rc = cmd_print_json(run_summary_json(run, s, true));
		summary_free(s, run->ncases);
	} else {
		struct case_summary *s = summary_build(run);
		struct summary_totals t = { 0 };
		summary_totals(run, &t);
		if (o.all || o.verbose)
			run_text_print(stdout, run, s, true);
		else
			run_text_brief(stdout, run, s, &t, workload_metric_headline);
		summary_free(s, run->ncases);
		rc = VMR_EXIT_OK;
	}
	run_free(run);
close_store:
	store_close(st);
free_opts:
	opt_free(show_cmd_opts, &o);
	free(pos);
	return rc;
}
