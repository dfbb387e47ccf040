/* vmregress bisect: find the first kernel of a series where a metric went
 * bad, with the chance of a wrong answer stated.  Parsing and wiring only;
 * the search lives in vm/bisect.c, the test in stats/sprt.c, the output in
 * report/bisect_fmt.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/cmd.h"
#include "cmd/matrix_int.h"
#include "core/util.h"
#include "report/bisect_fmt.h"
#include "vm/bisect.h"
#include "vm/series.h"

#define O(f) offsetof(struct bisect_opts, f)
#define OM(f) offsetof(struct bisect_opts, m.f)
const struct opt bisect_cmd_opts[] = {
	{ "series", OPT_STR, O(series_file), NULL, 0, 0, NULL, "FILE",
	  "the candidates, oldest first, one a line: a kernel image or Debian kernel package, optionally "
	  "followed by '-- ARGS' for its command line", 0, 0 },
	{ "case", OPT_STR, O(case_name), NULL, 0, 0, NULL, "CASE", "the case of the suite each candidate runs", 0, 0 },
	{ "metric", OPT_STR, O(metric), NULL, 0, 0, NULL, "METRIC", "the metric that went bad", 0, 0 },
	{ "suite", OPT_STR, OM(suite), "quick", 0, 0, NULL, "SUITE", "suite name or file holding the case", 0, 0 },
	{ "alpha", OPT_DOUBLE, O(alpha), "0.01", 1e-6, 0.2, NULL, "P",
	  "each step's error (Wald's bound a/(1-a)), the references' and the confirmation's false-discovery rate",
	  0, 0 },
	{ "budget", OPT_TIME, O(budget_ns), "30m", 1e9, 30 * 86400e9, NULL, "TIME",
	  "the whole bisection's time; each step gets its share of what is left", 0, 0 },
	{ "good", OPT_INT, O(good), "0", 0, 100000, NULL, "I", "the known good candidate's position (0: the first)",
	  0, 0 },
	{ "bad", OPT_INT, O(bad), "0", 0, 100000, NULL, "J", "the known bad candidate's position (0: the last)", 0, 0 },
	{ "references", OPT_INT, O(references), "10", 2, 1000, NULL, "N", "iterations of each reference", 0, 0 },
	{ "batch", OPT_INT, O(batch), "5", 1, 1000, NULL, "N", "iterations a boot of a step", 0, 0 },
	{ "max-iterations", OPT_INT, O(max_iterations), "30", 1, 10000, NULL, "N",
	  "a step's most iterations before it is undecided", 0, 0 },
	{ "name", OPT_STR, OM(name), NULL, 0, 0, NULL, "NAME",
	  "the bisection's name: its group and the tag of its runs (default: bisect-DATE)", 0, 0 },
	MATRIX_GUEST_OPTS(OM)
	MATRIX_WATCH_OPTS(OM)
	{ "log-dir", OPT_STR, OM(log_dir), NULL, 0, 0, NULL, "DIR",
	  "where console logs and guest output are kept (default $XDG_DATA_HOME/vmregress/bisect/NAME)", 0, 0 },
	MATRIX_HOST_OPTS(OM)
	{ "json", OPT_FLAG, OM(json), NULL, 0, 0, NULL, NULL, "print the result as JSON", OPTF_NO_ECHO, 0 },
	OPT_END
};
#undef O
#undef OM

static char *bisect_default_name(void)
{
	char buf[64];
	time_t t = time(NULL);
	struct tm tm = { 0 };

	strftime(buf, sizeof(buf), "bisect-%Y%m%d-%H%M%S", localtime_r(&t, &tm));
	return xstrdup(buf);
}

static int bisect_check(const struct bisect_opts *o)
{
	const char *miss = !o->series_file ? "--series FILE" : !o->case_name ? "--case CASE"
			   : !o->metric ? "--metric METRIC" : NULL;
	if (miss) {
		vmr_err("bisect: no %s given", miss);
		return -1;
	}
	if (o->m.name && store_name_invalid(o->m.name)) {
		vmr_err("bisect: --name '%s': %s", o->m.name, store_name_invalid(o->m.name));
		return -1;
	}
	return 0;
}

static int bisect_exit(const struct bisect_result *r)
{
	return r->end == BISECT_FOUND ? VMR_EXIT_OK : VMR_EXIT_FAIL;
}

static int bisect_main(struct bisect_opts *o)
{
	struct kernel_series s = { 0 };
	struct bisect_result res = { 0 };
	bool json = o->m.json;
	int r;

	if (bisect_check(o) < 0)
		return VMR_EXIT_USAGE;
	if (series_load(o->series_file, &s) < 0)
		return VMR_EXIT_USAGE;
	if (!o->m.name)
		o->m.name = bisect_default_name();
	r = bisect_host(o, &s, &res);
	if (r == VMR_EXIT_OK) {
		if (json) {
			r = cmd_print_json(bisect_json(&res));
		} else {
			char *nothing = bisect_nothing_line(&res);
			if (nothing)
				vmr_err("%s", nothing);
			free(nothing);
			bisect_text(stdout, &res);
		}
		if (r == VMR_EXIT_OK)
			r = bisect_exit(&res);
	}
	bisect_result_free(&res);
	series_free(&s);
	return r;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_opts o = { 0 };
	struct optset set = { bisect_cmd_opts, &o, NULL };
	char **pos = NULL;
	int npos = 0, r;

	OPT_DEFAULTS(bisect_cmd_opts, &o);
	r = cmd_parse("bisect", &set, 1, argc, argv, &pos, &npos);
	if (r == 1) {
		r = VMR_EXIT_OK;
	} else if (r < 0) {
		r = VMR_EXIT_USAGE;
	} else if (npos > 0) {
		vmr_err("bisect: unexpected argument '%s' (the candidates go in --series FILE)", pos[0]);
		r = VMR_EXIT_USAGE;
	} else {
		r = bisect_main(&o);
	}
	opt_free(bisect_cmd_opts, &o);
	free(pos);
	return r;
}

const char bisect_cmd_details[] =
	"Each candidate is booted as `matrix` boots its guests and runs the one case. The good and the bad\n"
	"reference are measured first (--references iterations each) and compared by compare's rules; when\n"
	"they do not differ there is nothing to bisect (exit 1). Then a binary search: each step adds a\n"
	"candidate's iterations, a boot of --batch at a time, to a sequential test (Wald's SPRT between the\n"
	"references, on means, reciprocals of rates or ranks as compare tests the metric) until it is good\n"
	"or bad with error at most alpha/(1-alpha), or its share of the budget or --max-iterations is spent;\n"
	"a candidate that does not boot or stays undecided is skipped and a neighbour tried, as git does.\n"
	"The result names the first bad and the last good, every step's figures, the skips, and an upper\n"
	"bound on the chance the answer is wrong. Every boot is a run of the group NAME. Exit 0 when a\n"
	"first bad was found, 1 when not (no difference, only skipped candidates left, budget spent).";
