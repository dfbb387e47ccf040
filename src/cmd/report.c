/* vmregress report RUN [RUN...] -o DIR: the HTML report with graphs. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "report/bisect_fmt.h"
#include "report/html.h"
#include "report/outcome_text.h"
#include "report/plot.h"
#include "report/runsrc.h"
#include "stats/compare.h"
#include "stats/functional.h"
#include "stats/casegraphs.h"
#include "vm/bisect.h"
#include "workload/workload.h"

struct report_cmd {
	char *db, *out, *title, *cases;
	double alpha;
	bool no_graphs, json;
};

const struct opt report_cmd_opts[] = {
	{ .name = "output", .type = OPT_STR, .off = offsetof(struct report_cmd, out), .metavar = "DIR",
	  .help = "directory to write index.html into (created if missing)", .short_name = 'o' },
	{ .name = "alpha", .type = OPT_DOUBLE, .off = offsetof(struct report_cmd, alpha), .def = "0.05",
	  .min = 1e-12, .max = 0.5, .metavar = "Q",
	  .help = "false-discovery rate at which a change is called (docs/statistics.md)" },
	{ .name = "title", .type = OPT_STR, .off = offsetof(struct report_cmd, title), .metavar = "TEXT",
	  .help = "the page's title" },
	{ .name = "cases", .type = OPT_STR, .off = offsetof(struct report_cmd, cases), .metavar = "GLOB",
	  .help = "only cases whose name matches (fnmatch)" },
	{ .name = "no-graphs", .type = OPT_FLAG, .off = offsetof(struct report_cmd, no_graphs),
	  .help = "tables only: no gnuplot needed" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct report_cmd, json), .flags = OPTF_NO_ECHO,
	  .help = "print what was written as JSON" },
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct report_cmd, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	OPT_END,
};

/* A bisection's group: its answer and the metric along the series first. */
static void report_bisection(const struct bisect_result *r, struct report_opts *ro, char **lead, struct plot *p)
{
	size_t len = 0;
	FILE *f = open_memstream(lead, &len);
	bisect_html(f, r);
	fclose(f);
	ro->lead_html = *lead;
	bisect_plot(r, p);
	ro->lead_plot = p;
}

static int report_fold(void *ctx, size_t run, const struct result *res)
{
	case_graphs_add(ctx, run, res);
	return 0;
}

/* The report's hook for one case's graphs: the case's iterations read one
 * at a time and folded into what its graphs draw before its section
 * (never the case's detail all at once), that freed after. */
static int report_case_graphs(void *ctx, const char *case_name, bool load, struct case_graphs *g)
{
	struct run_set *runs = ctx;
	if (!load) {
		case_graphs_free(g);
		return 0;
	}
	case_graphs_begin(g, case_name, runs->n);
	if (runsrc_case_each(runs, case_name, RESULT_DETAIL, report_fold, g) < 0) {
		case_graphs_free(g);
		return -1;
	}
	case_graphs_finish(g);
	return 0;
}

static int report_run(struct report_cmd *o, char **specs, size_t n)
{
	if (!o->no_graphs && !plot_available()) {
		vmr_err("report: gnuplot not found (install gnuplot-nox, or use --no-graphs)");
		return VMR_EXIT_CANNOT;
	}
	struct run_set runs = { 0 };
	struct strlist all = { 0 };
	int loaded = cmd_resolve_runs(o->db, specs, n, &all) < 0 ? -1 : runsrc_load_parts(o->db, all.v, all.n, RESULT_METRICS, &runs);
	strlist_free(&all);
	if (loaded < 0)
		return VMR_EXIT_USAGE;
	struct report_opts ro = { .alpha = o->alpha, .graphs = !o->no_graphs, .title = o->title, .cases = o->cases,
				  .case_graphs = report_case_graphs, .case_ctx = &runs };
	struct report_stats st = { 0 };
	struct bisect_loaded bl = { 0 };
	struct plot bp = { 0 };
	char *lead = NULL;
	if (n == 1 && runs.n && json_is_object(json_object_get(runs.runs[0]->env, "bisect")) &&
	    bisect_load(o->db, specs[0], &bl) == VMR_EXIT_OK)
		report_bisection(&bl.res, &ro, &lead, &bp);
	const struct run *const *rv = (const struct run *const *)runs.runs;
	struct comparison cmp = { 0 };
	compare_runs(rv, runs.n, &(struct compare_opts){ .alpha = o->alpha, .cases = o->cases,
							 .headline = workload_metric_headline }, &cmp);
	struct functional fn = { 0 };
	functional_compare(rv, runs.n, &fn);
	int rc = report_write(o->out, rv, runs.n, &cmp, &fn, &ro, &st);
	functional_free(&fn);
	compare_free(&cmp);
	if (ro.lead_plot)
		plot_free(&bp);
	free(lead);
	bisect_loaded_free(&bl);
	runsrc_free(&runs);
	if (rc < 0)
		return VMR_EXIT_CANNOT;
	if (st.failed)
		vmr_warn("report: %zu of %zu graphs could not be drawn (see the page)", st.failed,
			 st.failed + st.graphs);
	size_t len = strlen(o->out);
	while (len > 1 && o->out[len - 1] == '/')
		len--;
	char *path = xasprintf("%.*s/index.html", (int)len, o->out);
	if (o->json) {
		rc = cmd_print_json(json_pack("{ss sI sI sI sI}", "index", path, "bytes", (json_int_t)st.bytes, "graphs",
					      (json_int_t)st.graphs, "png_graphs", (json_int_t)st.png, "failed_graphs",
					      (json_int_t)st.failed));
	} else {
		outcome_report(stdout, path, st.graphs, st.bytes);
		rc = VMR_EXIT_OK;
	}
	free(path);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_cmd o = { 0 };
	struct optset set = { report_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos = 0, rc = VMR_EXIT_USAGE;
	bool help = false;
	OPT_DEFAULTS(report_cmd_opts, &o);
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("report"));
		rc = VMR_EXIT_OK;
	} else if (!npos) {
		vmr_err("report: which runs? (usage: vmregress report RUN|GROUP [RUN|GROUP...] -o DIR)");
	} else if (!o.out) {
		vmr_err("report: needs an output directory (-o DIR)");
	} else {
		rc = report_run(&o, pos, (size_t)npos);
	}
free_opts:
	opt_free(report_cmd_opts, &o);
	free(pos);
	return rc;
}
