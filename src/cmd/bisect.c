/* vmregress bisect: find the first kernel of a series where a metric went
 * bad, with the chance of a wrong answer stated.  Parsing and wiring only;
 * the search lives in vm/bisect.c, the test in stats/sprt.c, the output in
 * report/bisect_fmt.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cmd/cmd.h"
#include "cmd/matrix_int.h"
#include "core/util.h"
#include "report/bisect_fmt.h"
#include "store/store.h"
#include "vm/bisect.h"
#include "vm/series.h"
#include "vm/spawn.h"

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
	{ "good", OPT_STR, O(good_spec), NULL, 0, 0, NULL, "I|K",
	  "the known good candidate: its position in the series (default the first); for bisect start a kernel "
	  "as a series line takes it", 0, 0 },
	{ "bad", OPT_STR, O(bad_spec), NULL, 0, 0, NULL, "J|K",
	  "the known bad candidate: its position (default the last); for bisect start a kernel", 0, 0 },
	{ "kernel", OPT_STR, O(kernel), NULL, 0, 0, NULL, "PATH|PACKAGE", "bisect run: the kernel to test", 0, 0 },
	{ "append", OPT_STR, O(append), NULL, 0, 0, NULL, "ARGS", "bisect run: its command line", 0, 0 },
	{ "reference", OPT_STR, O(reference), NULL, 0, 0, NULL, "NAME",
	  "bisect run: the bisection whose references bisect start stored", 0, 0 },
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

/* --good and --bad as series positions. */
static int bisect_positions(struct bisect_opts *o)
{
	const char *spec[2] = { o->good_spec, o->bad_spec };
	long *pos[2] = { &o->good, &o->bad };

	for (int i = 0; i < 2; i++) {
		char *end = NULL;
		if (!spec[i])
			continue;
		*pos[i] = strtol(spec[i], &end, 10);
		if (end == spec[i] || *end || *pos[i] < 1) {
			vmr_err("bisect: --%s '%s': a position in the series, 1 for its first line", i ? "bad" : "good",
				spec[i]);
			return -1;
		}
	}
	return 0;
}

static int bisect_print(const struct bisect_opts *o, const struct bisect_result *res)
{
	if (o->m.json)
		return cmd_print_json(bisect_json(res));
	char *nothing = bisect_nothing_line(res);
	if (nothing)
		vmr_err("%s", nothing);
	free(nothing);
	bisect_text(stdout, res);
	return VMR_EXIT_OK;
}

static int bisect_main(struct bisect_opts *o)
{
	struct kernel_series s = { 0 };
	struct bisect_result res = { 0 };
	int r;

	if (bisect_check(o) < 0 || bisect_positions(o) < 0)
		return VMR_EXIT_USAGE;
	if (series_load(o->series_file, &s) < 0)
		return VMR_EXIT_USAGE;
	if (!o->m.name)
		o->m.name = bisect_default_name();
	r = bisect_host(o, &s, &res);
	if (r == VMR_EXIT_OK && (r = bisect_print(o, &res)) == VMR_EXIT_OK)
		r = res.end == BISECT_FOUND ? VMR_EXIT_OK : VMR_EXIT_FAIL;
	bisect_result_free(&res);
	series_free(&s);
	return r;
}

/* The options as the text they parse from, kept with the references so that
 * each bisect run measures as bisect start did. */
static json_t *bisect_echo(const struct bisect_opts *o)
{
	json_t *j = json_object();
	char buf[512];

	for (const struct opt *op = bisect_cmd_opts; op->name; op++) {
		opt_value_str(op, o, buf, sizeof(buf));
		if (buf[0] && !(op->flags & OPTF_NO_ECHO))
			json_object_set_new(j, op->name, json_string(buf));
	}
	return j;
}

/* bisect start: the references of a bisection that git bisect run drives. */
static int bisect_start(struct bisect_opts *o)
{
	struct kernel_series s = { 0 };
	struct bisect_result res = { 0 };
	int r;

	if (!o->good_spec || !o->bad_spec || !o->case_name || !o->metric || !o->m.name) {
		vmr_err("bisect start: --good K --bad K --case CASE --metric METRIC --name NAME are all needed");
		return VMR_EXIT_USAGE;
	}
	if (store_name_invalid(o->m.name)) {
		vmr_err("bisect start: --name '%s': %s", o->m.name, store_name_invalid(o->m.name));
		return VMR_EXIT_USAGE;
	}
	char *text = xasprintf("%s\n%s\n", o->good_spec, o->bad_spec);
	r = series_parse("--good/--bad", text, strlen(text), &s);
	free(text);
	if (r < 0)
		return VMR_EXIT_USAGE;
	o->start = o->git = true;
	o->echo = bisect_echo(o);
	r = bisect_host(o, &s, &res);
	if (r == VMR_EXIT_OK && (r = bisect_print(o, &res)) == VMR_EXIT_OK)
		r = res.end == BISECT_READY ? VMR_EXIT_OK : VMR_EXIT_FAIL;
	json_decref(o->echo);
	o->echo = NULL;
	bisect_result_free(&res);
	series_free(&s);
	return r;
}

/* The options the references were made with, then the command line's. */
static int bisect_run_opts(const json_t *stored, struct bisect_opts *o, int argc, char **argv)
{
	static const char *const own[] = { "json", "kernel", "append", "reference", "db", "good", "bad", "series",
					   "keep", "log-dir", "static-binary", "budget", "name" };
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)stored, key, v) {
		const struct opt *op = opt_find(bisect_cmd_opts, key);
		bool skip = !op || json_is_null(v);
		for (size_t i = 0; i < ARRAY_SIZE(own) && !skip; i++)
			skip = !strcmp(own[i], key);
		if (skip)
			continue;
		char *where = xasprintf("the stored option %s", key);
		int e = json_is_string(v) ? opt_set(op, o, json_string_value(v), where) : 0;
		free(where);
		if (e < 0)
			return -1;
	}
	struct optset set = { bisect_cmd_opts, o, NULL };
	char **pos = NULL;
	int npos = 0, r = cmd_parse("bisect", &set, 1, argc, argv, &pos, &npos);
	free(pos);
	return r == 0 ? 0 : -1;
}

/* git bisect run's exit codes: 0 good, 1 bad, 125 skip, 128 + ours abort. */
static int bisect_git_exit(const struct bisect_step *st)
{
	return st->skip ? 125 : st->decision == SPRT_BAD ? 1 : 0;
}

/* What argv prints, its first line, when it exits 0; else NULL. */
static char *bisect_git_out(char *const argv[])
{
	int fd = -1, status = 0;
	pid_t pid = spawn_piped(argv, &fd);
	if (pid < 0)
		return NULL;
	char buf[512] = "", rest[512];
	size_t n = 0;
	ssize_t k;
	while (n < sizeof(buf) - 1 && (k = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)k;
	while (read(fd, rest, sizeof(rest)) > 0)
		;
	close(fd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 && buf[0] ? xstrdup(buf) : NULL;
}

/* Run by git bisect run (the current directory is in a work tree git
 * bisect is walking: its BISECT_LOG exists), the commit being tested,
 * "c45da06 mm/swap: ...", the name its step is shown by; else NULL. */
static char *bisect_git_commit(void)
{
	char *log = bisect_git_out((char *[]){ "git", "rev-parse", "--git-path", "BISECT_LOG", NULL });
	bool walking = log && access(log, F_OK) == 0;
	free(log);
	return walking ? bisect_git_out((char *[]){ "git", "log", "-1", "--format=%h %s", NULL }) : NULL;
}

static int bisect_run_step(struct bisect_opts *o, struct bisect_loaded *L, int argc, char **argv)
{
	struct bisect_opts ro = { 0 };
	struct kernel_series s = { 0 };
	int r = VMR_EXIT_USAGE;

	OPT_DEFAULTS(bisect_cmd_opts, &ro);
	if (bisect_run_opts(L->options, &ro, argc, argv) == 0) {
		free(ro.m.name);
		ro.m.name = xstrdup(o->reference);
		ro.git = true;
		/* series_parse wants a good and a bad line: the candidate twice */
		char *line = xasprintf("%s%s%s", o->kernel, o->append ? " -- " : "", o->append ? o->append : "");
		char *text = xasprintf("%s\n%s\n", line, line);
		r = series_parse("--kernel", text, strlen(text), &s) == 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
		free(text);
		free(line);
		char *commit = r == VMR_EXIT_OK ? bisect_git_commit() : NULL;
		if (commit) {   /* the step is known by its commit, the kernel after it */
			char *named = xasprintf("%s: %s", commit, s.c[0].line);
			free(s.c[0].line);
			s.c[0].line = named;
			free(commit);
		}
	}
	if (r == VMR_EXIT_OK)
		r = bisect_host_step(&ro, &s, &L->res, L->next_index);
	if (r == VMR_EXIT_OK) {
		struct bisect_step *st = &L->res.steps[L->res.nsteps - 1];
		bisect_loaded_add(L, L->next_index, &s.c[0]);
		st->cand = L->next_index;
		L->res.end = BISECT_GIT;
		if ((r = bisect_print(o, &L->res)) == VMR_EXIT_OK)
			r = bisect_git_exit(st);
	} else {
		r = 128 + r;
	}
	series_free(&s);
	opt_free(bisect_cmd_opts, &ro);
	return r;
}

/* bisect run: one step for git bisect run. */
static int bisect_run(struct bisect_opts *o, int argc, char **argv)
{
	struct bisect_loaded L = { 0 };
	int r;

	if (!o->kernel || !o->reference) {
		vmr_err("bisect run: --kernel PATH and --reference NAME are needed");
		return 128 + VMR_EXIT_USAGE;
	}
	if ((r = bisect_load(o->m.db, o->reference, &L)) != VMR_EXIT_OK) {
		bisect_loaded_free(&L);
		return 128 + r;
	}
	if (!L.options || !L.git) {
		vmr_err("bisect run: %s was not made by vmregress bisect start", o->reference);
		bisect_loaded_free(&L);
		return 128 + VMR_EXIT_USAGE;
	}
	if (L.res.end != BISECT_READY && L.res.end != BISECT_GIT) {
		char *nothing = bisect_nothing_line(&L.res);
		vmr_err("bisect run: %s: %s", o->reference, nothing ? nothing : "not made by bisect start");
		free(nothing);
		bisect_loaded_free(&L);
		return 128 + VMR_EXIT_FAIL;
	}
	r = bisect_run_step(o, &L, argc, argv);
	bisect_loaded_free(&L);
	return r;
}

static int bisect_show(struct bisect_opts *o, const char *name)
{
	struct bisect_loaded L = { 0 };
	int r = bisect_load(o->m.db, name, &L);

	if (r == VMR_EXIT_OK)
		r = bisect_print(o, &L.res);
	bisect_loaded_free(&L);
	return r;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_opts o = { 0 };
	struct optset set = { bisect_cmd_opts, &o, NULL };
	const char *sub = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
	char **pos = NULL;
	int npos = 0, r, shift = sub ? 1 : 0;

	OPT_DEFAULTS(bisect_cmd_opts, &o);
	r = cmd_parse("bisect", &set, 1, argc - shift, argv + shift, &pos, &npos);
	if (r == 1) {
		r = VMR_EXIT_OK;
	} else if (r < 0) {
		r = sub && !strcmp(sub, "run") ? 128 + VMR_EXIT_USAGE : VMR_EXIT_USAGE;
	} else if (sub && !strcmp(sub, "start") && !npos) {
		r = bisect_start(&o);
	} else if (sub && !strcmp(sub, "run") && !npos) {
		r = bisect_run(&o, argc - 1, argv + 1);
	} else if (sub && !strcmp(sub, "show") && npos == 1) {
		r = bisect_show(&o, pos[0]);
	} else if (sub) {
		vmr_err("bisect: '%s'%s: the subcommands are start, run and show NAME", sub,
			!strcmp(sub, "show") ? " needs one NAME" : npos ? " takes no other argument" : "");
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
