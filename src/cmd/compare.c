/* vmregress compare BASE RUN [RUN...]: the verdict on the headline
 * metrics and its trust warnings on one screen; with --all, the
 * mmtests-style comparison of every metric after it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "report/compare_bars.h"
#include "report/compare_fmt.h"
#include "report/compare_lkp.h"
#include "report/functional.h"
#include "report/kcidb.h"
#include "report/runsrc.h"
#include "stats/compare.h"
#include "stats/functional.h"
#include "workload/workload.h"

struct compare_cmd {
	char *db;
	int format;
	bool json;
	double alpha;
	char *metrics, *cases;
	bool only_significant;
	double noise_floor, unstable;
	char *headline, *noise_from;
	int fail_on;
	bool all;
	struct kcidb_source kcidb;
	int style;
	int bars;
};

enum { FAIL_ON_NONE, FAIL_ON_REGRESSION };
enum { STYLE_MMTESTS, STYLE_LKP };
enum { BARS_AUTO, BARS_ALWAYS, BARS_NEVER };

const struct opt compare_cmd_opts[] = {
	{ .name = "format", .type = OPT_ENUM, .off = offsetof(struct compare_cmd, format), .def = "text",
	  .choices = CMP_FORMAT_CHOICES, .metavar = "FORMAT", .help = "output format", .short_name = 'f' },
	{ .name = "style", .type = OPT_ENUM, .off = offsetof(struct compare_cmd, style), .def = "mmtests",
	  .choices = "mmtests|lkp", .metavar = "STYLE",
	  .help = "text layout: mmtests' compare-kernels, or lkp-tests' compare with LKP's marks beside ours" },
	{ .name = "bars", .type = OPT_ENUM, .off = offsetof(struct compare_cmd, bars), .def = "auto",
	  .choices = "auto|always|never", .metavar = "WHEN",
	  .help = "text: after it, a bar a headline metric and run, its change with the 95% interval and the "
	  "noise floor on a log scale, coloured by the verdict; auto: when standard output is a terminal" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct compare_cmd, json),
	  .help = "the same as --format=json" },
	{ .name = "alpha", .type = OPT_DOUBLE, .off = offsetof(struct compare_cmd, alpha), .def = "0.05",
	  .min = 1e-12, .max = 0.5, .metavar = "Q",
	  .help = "false-discovery rate (Benjamini-Hochberg) at which a change is called" },
	{ .name = "noise-floor", .type = OPT_DOUBLE, .off = offsetof(struct compare_cmd, noise_floor), .def = "0.01",
	  .min = 1e-6, .max = 1, .metavar = "FRACTION",
	  .help = "smallest change ever called; for runs made apart, each metric's own CV too (docs/statistics.md)" },
	{ .name = "noise-from", .type = OPT_STR, .off = offsetof(struct compare_cmd, noise_from), .metavar = "GROUP",
	  .help = "a stored A/A group (variants alike) whose spread sets each headline metric's noise floor and "
		  "minimal detectable effect" },
	{ .name = "unstable", .type = OPT_DOUBLE, .off = offsetof(struct compare_cmd, unstable), .def = "0.2",
	  .min = 0.001, .max = 100, .metavar = "CV", .help = "a side whose CV exceeds this marks the cell noisy (its CV shown beside a finding)" },
	{ .name = "headline", .type = OPT_STR, .off = offsetof(struct compare_cmd, headline), .metavar = "GLOB",
	  .help = "metrics to judge besides the workloads' own headline metrics (fnmatch)" },
	{ .name = "fail-on", .type = OPT_ENUM, .off = offsetof(struct compare_cmd, fail_on), .def = "none",
	  .choices = "none|regression", .metavar = "WHAT", .help = "exit 1 when a headline metric regressed" },
	{ .name = "metrics", .type = OPT_STR, .off = offsetof(struct compare_cmd, metrics), .metavar = "GLOB",
	  .help = "only metrics whose name matches (fnmatch)" },
	{ .name = "cases", .type = OPT_STR, .off = offsetof(struct compare_cmd, cases), .metavar = "GLOB",
	  .help = "only cases whose name matches (fnmatch)" },
	{ .name = "all", .type = OPT_FLAG, .off = offsetof(struct compare_cmd, all),
	  .help = "text: the table of every metric, the environment diff and what was left out too" },
	{ .name = "only-significant", .type = OPT_FLAG, .off = offsetof(struct compare_cmd, only_significant),
	  .help = "only metrics with a significant change in some run" },
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct compare_cmd, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	KCIDB_SOURCE_OPTS(struct compare_cmd, kcidb),
	OPT_END,
};

static int compare_print(const struct comparison *cmp, const struct functional *fn, int format, int style,
			 bool all, int bars)
{
	json_t *j;
	switch (format) {
	case CMP_FMT_JSON:
		j = compare_to_json(cmp);
		if (fn->any)
			json_object_set_new(j, "functional", functional_to_json(fn));
		return cmd_print_json(j);
	case CMP_FMT_CSV:
		compare_write_csv(stdout, cmp);
		break;
	case CMP_FMT_MARKDOWN:
		compare_write_markdown(stdout, cmp);
		break;
	case CMP_FMT_JUNIT:
		compare_write_junit(stdout, cmp, fn);
		break;
	case CMP_FMT_TAP:
		compare_write_tap(stdout, cmp, fn);
		break;
	default:
		functional_write_text(stdout, fn);  /* functional changes first */
		if (style == STYLE_LKP)
			compare_write_lkp(stdout, cmp);
		else if (all)
			compare_write_text(stdout, cmp);
		else
			compare_write_brief(stdout, cmp);
		if (bars == BARS_ALWAYS || (bars == BARS_AUTO && isatty(STDOUT_FILENO)))
			compare_write_bars(stdout, cmp);
	}
	if (fflush(stdout) == EOF || ferror(stdout)) {
		vmr_errno("cannot write to standard output");
		return VMR_EXIT_CANNOT;
	}
	return VMR_EXIT_OK;
}

/* Whether the runs are the variants of one group, two or more, whose
 * settings are all alike (an A/A group); why not in why (a static text
 * or one made for it, freed by the caller) when they are not. */
static bool compare_aa_like(const struct run_set *runs, char **why)
{
	const struct run_info *r0 = runs->n ? &runs->runs[0]->info : NULL;
	*why = NULL;
	if (runs->n < 2 || !r0->group_uuid) {
		*why = xstrdup("not a group of two variants or more");
		return false;
	}
	const char *first = NULL;
	for (size_t i = 0; i < runs->n; i++) {
		const struct run *r = runs->runs[i];
		if (!r->info.group_uuid || strcmp(r->info.group_uuid, r0->group_uuid)) {
			*why = xasprintf("%s is not a variant of group %s", r->info.name, r0->group_name);
			return false;
		}
	}
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(runs->runs[0]->group_plan, "variants"), i, v)
	{
		const char *set = json_string_value(json_object_get(v, "settings")) ?: "";
		if (!first)
			first = set;
		else if (strcmp(first, set)) {
			*why = xasprintf("not an A/A group: its variants differ ('%s' and '%s')", first, set);
			return false;
		}
	}
	return true;
}

/* --noise-from GROUP: the A/A group's variants loaded and compared into
 * ref.  0, or an exit code after one error line. */
static int compare_noise_load(const struct compare_cmd *o, struct run_set *aa, struct comparison *ref)
{
	struct strlist specs = { 0 };
	char *why = NULL;
	int rc = cmd_resolve_runs(o->db, (char *const *)&o->noise_from, 1, &specs);
	if (rc == 0)
		rc = runsrc_load(o->db, specs.v, specs.n, aa);
	strlist_free(&specs);
	if (rc < 0)
		return VMR_EXIT_USAGE;
	if (!compare_aa_like(aa, &why)) {
		vmr_err("compare: --noise-from '%s': %s; make one with vmregress run SUITE --variant a: --variant b: "
			"-n 6", o->noise_from, why);
		free(why);
		return VMR_EXIT_USAGE;
	}
	struct compare_opts co = { .alpha = o->alpha, .noise_min = o->noise_floor, .unstable_cv = o->unstable,
				   .headline = workload_metric_headline, .headline_glob = o->headline };
	compare_runs((const struct run *const *)aa->runs, aa->n, &co, ref);
	return 0;
}

/* Compare and print loaded runs, the first the base, however they were
 * chosen (named one by one, or the runs of one interleaved group, whose
 * variants' own settings setting_keys names: NULL-terminated globs of
 * environment keys not to flag, or NULL).  The exit code. */
static int compare_run_set(const struct compare_cmd *o, const struct run_set *runs,
			   const char *const *setting_keys)
{
	struct run_set aa = { 0 };
	struct comparison ref = { 0 };
	if (o->noise_from) {
		int e = compare_noise_load(o, &aa, &ref);
		if (e) {
			runsrc_free(&aa);
			return e;
		}
	}
	struct compare_opts co = { .alpha = o->alpha, .metrics = o->metrics, .cases = o->cases,
				   .only_significant = o->only_significant, .noise_min = o->noise_floor,
				   .unstable_cv = o->unstable, .headline = workload_metric_headline, .headline_glob = o->headline,
				   .setting_keys = setting_keys, .noise_ref = o->noise_from ? &ref : NULL,
				   .noise_ref_name = o->noise_from };
	struct comparison cmp = { 0 };
	compare_runs((const struct run *const *)runs->runs, runs->n, &co, &cmp);
	compare_free(&ref);
	runsrc_free(&aa);
	if (o->noise_from && !cmp.noise_from_rows && cmp.nshared) {
		vmr_err("compare: --noise-from '%s': shares no headline metric of a case with the runs compared "
			"(an A/A group of the same suite serves)", o->noise_from);
		compare_free(&cmp);
		return VMR_EXIT_USAGE;
	}
	struct functional fn = { 0 };
	functional_compare((const struct run *const *)runs->runs, runs->n, &fn);
	int rc = o->format == CMP_FMT_KCIDB && !o->json
			 ? cmd_print_json(kcidb_compare(&cmp, &o->kcidb))
			 : compare_print(&cmp, &fn, o->json ? CMP_FMT_JSON : o->format, o->style, o->all,
					 o->bars);
	if (rc == VMR_EXIT_OK && o->fail_on == FAIL_ON_REGRESSION && (cmp.tally.regressed || fn.count[FN_REGRESSION]))
		rc = VMR_EXIT_FAIL;
	/* Runs that share no case: nothing was compared, which is the input's fault. */
	if (rc == VMR_EXIT_OK && !cmp.nshared && !fn.any)
		rc = VMR_EXIT_USAGE;
	functional_free(&fn);
	compare_free(&cmp);
	return rc;
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
	struct strlist specs = { 0 };
	struct run_set runs = { 0 };
	const char *bad = kcidb_source_invalid(&o.kcidb);
	if (bad) {
		vmr_err("compare: %s", bad);
		goto free_opts;
	}
	if (npos < 1 || cmd_resolve_runs(o.db, pos, (size_t)npos, &specs) < 0 || specs.n < 2) {
		/* one argument that is not a group: what is wrong with it, if
		 * it is not a run either */
		bool one_run = specs.n == 1 && runsrc_load_parts(o.db, specs.v, 1, RESULT_METRICS, &runs) == 0;
		if (one_run)
			runsrc_free(&runs);
		if (npos < 1 || one_run)
			vmr_err("compare: needs a base run and at least one run to compare, or a group (see --help)");
		strlist_free(&specs);
		goto free_opts;
	}
	/* statistics read the metrics of each result alone */
	int loaded = runsrc_load_parts(o.db, specs.v, specs.n, RESULT_METRICS, &runs);
	strlist_free(&specs);
	if (loaded < 0)
		goto free_opts;
	rc = compare_run_set(&o, &runs, NULL);
	runsrc_free(&runs);
free_opts:
	opt_free(compare_cmd_opts, &o);
	free(pos);
	return rc;
}
