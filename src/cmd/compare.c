/* vmregress compare BASE RUN [RUN...]: mmtests-style comparison. */
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "report/compare_fmt.h"
#include "report/runsrc.h"
#include "stats/compare.h"

struct compare_cmd {
	char *db;
	int format;
	bool json;
	double alpha;
	char *metrics, *cases;
	bool only_significant;
};

const struct opt compare_cmd_opts[] = {
	{ .name = "format", .type = OPT_ENUM, .off = offsetof(struct compare_cmd, format), .def = "text",
	  .choices = CMP_FORMAT_CHOICES, .metavar = "FORMAT", .help = "output format", .short_name = 'f' },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct compare_cmd, json),
	  .help = "the same as --format=json" },
	{ .name = "alpha", .type = OPT_DOUBLE, .off = offsetof(struct compare_cmd, alpha), .def = "0.05",
	  .min = 1e-12, .max = 0.5, .metavar = "P", .help = "significance level of Welch's t-test" },
	{ .name = "metrics", .type = OPT_STR, .off = offsetof(struct compare_cmd, metrics), .metavar = "GLOB",
	  .help = "only metrics whose name matches (fnmatch)" },
	{ .name = "cases", .type = OPT_STR, .off = offsetof(struct compare_cmd, cases), .metavar = "GLOB",
	  .help = "only cases whose name matches (fnmatch)" },
	{ .name = "only-significant", .type = OPT_FLAG, .off = offsetof(struct compare_cmd, only_significant),
	  .help = "only metrics with a significant change in some run" },
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct compare_cmd, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	OPT_END,
};

static int compare_print(const struct comparison *cmp, int format)
{
	switch (format) {
	case CMP_FMT_JSON:
		return cmd_print_json(compare_to_json(cmp));
	case CMP_FMT_CSV:
		compare_write_csv(stdout, cmp);
		break;
	case CMP_FMT_MARKDOWN:
		compare_write_markdown(stdout, cmp);
		break;
	default:
		compare_write_text(stdout, cmp);
	}
	if (fflush(stdout) == EOF || ferror(stdout)) {
		vmr_errno("cannot write to standard output");
		return VMR_EXIT_CANNOT;
	}
	return VMR_EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_cmd o = { 0 };
	struct optset set = { compare_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos = 0, rc = VMR_EXIT_USAGE;
	bool help = false;
	OPT_DEFAULTS(compare_cmd_opts, &o);
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("compare"));
		rc = VMR_EXIT_OK;
		goto free_opts;
	}
	if (npos < 2) {
		vmr_err("compare: needs a base run and at least one run to compare (see --help)");
		goto free_opts;
	}
	struct run_set runs = { 0 };
	if (runsrc_load(o.db, pos, (size_t)npos, &runs) < 0)
		goto free_opts;
	struct compare_opts co = { .alpha = o.alpha, .metrics = o.metrics, .cases = o.cases,
				   .only_significant = o.only_significant };
	struct comparison cmp = { 0 };
	compare_runs((const struct run *const *)runs.runs, runs.n, &co, &cmp);
	rc = compare_print(&cmp, o.json ? CMP_FMT_JSON : o.format);
	compare_free(&cmp);
	runsrc_free(&runs);
free_opts:
	opt_free(compare_cmd_opts, &o);
	free(pos);
	return rc;
}
