/* Man pages, written from the command and option tables plus a short
 * hand-written part per command (examples, files, environment): vmregress(1)
 * the overview, vmregress-CMD(1) per command as git and perf have, and
 * vmregress-suite(5) for the suite-file format. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "harness/suite.h"
#include "harness/trace_hook.h"
#include "core/util.h"
#include "sandbox/sandbox.h"
#include "workload/workload.h"

/* What a table cannot say: examples, and the files and environment a
 * command reads. */
struct man_extra {
	const char *cmd;
	const char *examples;  /* lines: "$ command" then what it does */
	const char *files;
};

#define MAN_DB_FILES "$XDG_DATA_HOME/vmregress/results.db (~/.local/share/vmregress/results.db): the default store."

static const struct man_extra man_extras[] = {
	{ "sense", "vmregress sense zones\nnodes and zones with their watermarks, in pages.\n"
		   "vmregress sense pagemap $$ --map\nwhich pages of this shell are present or swapped.\n"
		   "vmregress sense vmstat --interval 1s --count 5 --fields pswpin,pswpout\nswap traffic per second.",
	  "/proc/zoneinfo, /proc/vmstat, /proc/meminfo, /proc/PID/pagemap, /proc/kpageflags, /sys/kernel/btf/vmlinux." },
	{ "test", "vmregress test fault --level zero --mem 64M\nthe seed's fault test at 1.25x a 64M sandbox's limit.\n"
		  "vmregress test reread --mem 256M --swap zram\nthe swap-prefetch re-read test with zram swap.\n"
		  "vmregress test --list\nthe workloads.",
	  "/sys/fs/cgroup: the sandbox's memory cgroup.  The state directory (vmregress sandbox status names it): "
	  "journals of host changes." },
	{ "refs", "vmregress refs generate --pages 40000 --references 500000 --pattern zipf -o z.trace\na trace.\n"
		  "vmregress refs show z.trace\nits working set and reuse distances.", NULL },
	{ "run", "vmregress run quick\nevery workload once; stored in the default store.\n"
		 "vmregress run seeds -n 5 --set vm.page-cluster=0 --name pc0\nthe seeds suite under a knob.\n"
		 "vmregress run ./my.ini --db results.db\na suite file of your own (see vmregress-suite(5)).",
	  MAN_DB_FILES },
	{ "suites", "vmregress suites\nthe built-in suites.", "share/vmregress/suites/*.ini: the built-in suites." },
	{ "list", "vmregress list --kernel '6.*'\nruns under 6.x kernels.", MAN_DB_FILES },
	{ "show", "vmregress show pc0\na run's environment and per-case statistics.", MAN_DB_FILES },
	{ "export", "vmregress export pc0 --format csv > pc0.csv\none row per value, for pandas or R.", MAN_DB_FILES },
	{ "delete", "vmregress delete 3\ndelete run 3.", MAN_DB_FILES },
	{ "push", "vmregress push --all --to postgresql://me@fleet/vmregress\ncopy every run to a fleet's store.",
	  MAN_DB_FILES },
	{ "pull", "vmregress pull --all --from postgresql://me@fleet/vmregress\ncopy the fleet's runs here.",
	  MAN_DB_FILES },
	{ "compare", "vmregress compare pc3 pc0\npc0 against the base pc3.\n"
		     "vmregress compare pc3 pc0 --cases 'fault*' --only-significant\nonly what changed.",
	  MAN_DB_FILES },
	{ "report", "vmregress report pc3 pc0 -o report\nreport/index.html, one self-contained page.", MAN_DB_FILES },
	{ "plot-map", "vmregress plot-map pc0:fault-zero -o map.png\nthe present/swapped map after the last pass.",
	  MAN_DB_FILES },
	{ "sandbox", "vmregress sandbox exec --mem 128M --swap zram -- ./my-program\nany program in a sandbox.\n"
		     "vmregress sandbox status\nwhat vmregress has changed on the host now.", NULL },
	{ "cleanup", "vmregress cleanup\nafter kill -9: undo what the killed vmregress left.", NULL },
	{ "matrix", "vmregress matrix --kernel linux-image-6.1.0-18-amd64 --kernel /boot/vmlinuz --suite quick\n"
		    "the quick suite under two kernels.",
	  "$XDG_CACHE_HOME/vmregress/kernels: downloaded kernel packages.  $XDG_DATA_HOME/vmregress/matrix/NAME: "
	  "console logs." },
	{ NULL, NULL, NULL },
};

static void man_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', f);
		if (*s == '.' && (s[-1] == '\n'))
			fputs("\\&", f);
		fputc(*s, f);
	}
}

static const struct man_extra *man_extra_find(const char *cmd)
{
	for (const struct man_extra *e = man_extras; e->cmd; e++)
		if (!strcmp(e->cmd, cmd))
			return e;
	return NULL;
}

static void man_examples(FILE *f, const char *ex)
{
	fputs(".SH EXAMPLES\n", f);
	while (ex && *ex) {
		size_t l1 = strcspn(ex, "\n");
		const char *what = ex[l1] ? ex + l1 + 1 : ex + l1;
		size_t l2 = strcspn(what, "\n");
		char cmd[512], text[512];
		snprintf(cmd, sizeof(cmd), "%.*s", (int)l1, ex);
		snprintf(text, sizeof(text), "%.*s", (int)l2, what);
		fputs(".TP\n.B ", f);
		man_text(f, cmd);
		fputc('\n', f);
		man_text(f, text);
		fputc('\n', f);
		ex = what[l2] ? what + l2 + 1 : what + l2;
	}
}

static void man_common_tail(FILE *f, const char *files)
{
	if (files) {
		fputs(".SH FILES\n", f);
		man_text(f, files);
		fputc('\n', f);
	}
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B VMREGRESS_DB\nthe store every \\-\\-db defaults to: a file, sqlite:PATH or a postgresql:// URL.\n"
	      ".TP\n.B XDG_DATA_HOME\nwhere the default store lives (default ~/.local/share).\n"
	      ".TP\n.B VMR_SUITE_DIR\na directory searched first for built\\-in suites.\n"
	      ".TP\n.B PGPASSFILE, PGPASSWORD\nthe PostgreSQL password, better than one in the URL, which ps shows.\n"
	      ".SH EXIT STATUS\n0 ok, 1 a test failed, 2 usage or input error, 3 cannot run here "
	      "(missing privilege or kernel feature).\n", f);
}

static void man_header(FILE *f, const char *name, int section)
{
	fprintf(f, ".TH %s %d \"\" \"vmregress %s\" \"%s\"\n", name, section, VMR_VERSION,
		section == 5 ? "File Formats" : "User Commands");
}

void cmd_man_main(FILE *f)
{
	man_header(f, "VMREGRESS", 1);
	fputs(".SH NAME\nvmregress \\- Linux virtual\\-memory regression tests and benchmarks\n"
	      ".SH SYNOPSIS\n.B vmregress\nCOMMAND [ARGS]\n.SH DESCRIPTION\n"
	      "vmregress measures paging, swapping and reclaim inside a memory cgroup sandbox "
	      "with its own swap, stores runs, and compares them with significance.\n"
	      ".SH COMMANDS\n", f);
	for (const struct cmd *c = commands; c->name; c++) {
		fputs(".SS ", f);
		man_text(f, c->usage);
		fputc('\n', f);
		man_text(f, c->summary);
		fputc('\n', f);
		if (c->details) {
			fputs(".PP\n.nf\n", f);
			man_text(f, c->details);
			fputs("\n.fi\n", f);
		}
		opt_man(f, c->opts);
	}
	man_common_tail(f, MAN_DB_FILES);
	fputs(".SH SEE ALSO\n", f);
	for (const struct cmd *c = commands; c->name; c++)
		fprintf(f, "%s\\fBvmregress\\-%s\\fR(1)", c == commands ? "" : ", ", c->name);
	fputs(", \\fBvmregress\\-suite\\fR(5)\n", f);
}

int cmd_man_page(FILE *f, const char *name)
{
	const struct cmd *c = cmd_find(name);
	if (!c) {
		vmr_err("help --man: '%s' is not a command", name);
		return -1;
	}
	char upper[64];
	snprintf(upper, sizeof(upper), "VMREGRESS-%s", c->name);
	for (char *p = upper; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
	man_header(f, upper, 1);
	fprintf(f, ".SH NAME\nvmregress\\-%s \\- ", c->name);
	man_text(f, c->summary);
	fputs("\n.SH SYNOPSIS\n.B vmregress\n", f);
	man_text(f, c->usage);
	fputs("\n.SH DESCRIPTION\n", f);
	man_text(f, c->summary);
	fputs(".\n", f);
	if (c->details) {
		fputs(".PP\n.nf\n", f);
		man_text(f, c->details);
		fputs("\n.fi\n", f);
	}
	if (c->opts && c->opts->name) {
		fputs(".SH OPTIONS\n", f);
		opt_man(f, c->opts);
	}
	if (!strcmp(c->name, "test")) {
		for (size_t i = 0; workloads[i]; i++) {
			fputs(".SH WORKLOAD ", f);
			man_text(f, workloads[i]->name);
			fputc('\n', f);
			man_text(f, workloads[i]->summary);
			fputc('\n', f);
			opt_man(f, workloads[i]->opts);
		}
		fputs(".SH TRACING OPTIONS\n", f);
		opt_man(f, trace_opts);
	}
	if (!strcmp(c->name, "test") || !strcmp(c->name, "sandbox")) {
		fputs(".SH SANDBOX OPTIONS\n", f);
		opt_man(f, sandbox_opts);
	}
	const struct man_extra *e = man_extra_find(c->name);
	if (e && e->examples)
		man_examples(f, e->examples);
	man_common_tail(f, e ? e->files : NULL);
	fputs(".SH SEE ALSO\n\\fBvmregress\\fR(1)", f);
	if (!strcmp(c->name, "run"))
		fputs(", \\fBvmregress\\-suite\\fR(5), \\fBvmregress\\-suites\\fR(1)", f);
	fputc('\n', f);
	return 0;
}

void cmd_man_suite(FILE *f)
{
	man_header(f, "VMREGRESS-SUITE", 5);
	fputs(".SH NAME\nvmregress\\-suite \\- the suite\\-file format of vmregress run\n"
	      ".SH SYNOPSIS\n.nf\n[global]\nKEY = VALUE\n\n[CASE]\nworkload = NAME\nKEY = VALUE\n.fi\n"
	      ".SH DESCRIPTION\nA suite is an INI file: a [global] section of defaults, then one section per "
	      "case, whose name is the case's name.  Every case names its workload.  Comments start with ; "
	      "or #.  A key is looked up in the suite's own settings, then the sandbox's options, then the "
	      "workload's options (as vmregress test WORKLOAD \\-\\-help lists them, without the leading "
	      "dashes); a case resolves as defaults, then [global], then its own section, in file order.  "
	      "The first mistake stops the run before anything is stored, with one error naming the file "
	      "and line.\n.SH VARIANTS\nAn optional [variants] section holds one variant a line, NAME = "
	      "KEY=VALUE[,KEY=VALUE...] (a knob, a sandbox, suite or tracing option, or a workload option as "
	      "OPTION, WORKLOAD.OPTION or CASE.OPTION; nothing after = is the suite as it is).  vmregress run then "
	      "runs every case under each variant, their iterations interleaved (order = abba or random, seed = N "
	      "in [global]), and stores each variant as a run of one group; the first is the base.  "
	      "\\-\\-variant on the command line replaces the section.\n.SH SUITE SETTINGS\n", f);
	opt_man(f, suite_opts);
	fputs(".SH SANDBOX SETTINGS\n", f);
	opt_man(f, sandbox_opts);
	fputs(".SH TRACING SETTINGS\n", f);
	opt_man(f, trace_opts);
	fputs(".SH WORKLOADS\n", f);
	for (size_t i = 0; workloads[i]; i++) {
		fputs(".TP\n.B ", f);
		man_text(f, workloads[i]->name);
		fputc('\n', f);
		man_text(f, workloads[i]->summary);
		fputc('\n', f);
	}
	fputs(".SH EXAMPLES\n.nf\n; fault.ini: the fault test at two levels, five times each\n[global]\n"
	      "iterations = 5\nmem = 64M\nswap = file:128M\n\n[fault\\-low]\nworkload = fault\nlevel = low\n\n"
	      "[fault\\-zero]\nworkload = fault\nlevel = zero\n.fi\n.PP\nvmregress run ./fault.ini\n", f);
	fputs(".SH FILES\nshare/vmregress/suites/*.ini: the built\\-in suites (vmregress suites lists them).\n"
	      ".SH SEE ALSO\n\\fBvmregress\\-run\\fR(1), \\fBvmregress\\-suites\\fR(1)\n", f);
}

int cmd_man_dir(const char *dir)
{
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		vmr_errno("help --man-dir: cannot create %s", dir);
		return -1;
	}
	int rc = 0;
	for (int i = -2; rc == 0 && (i < 0 || commands[i].name); i++) {
		char *path = i == -2 ? xasprintf("%s/vmregress.1", dir)
			     : i == -1 ? xasprintf("%s/vmregress-suite.5", dir)
				       : xasprintf("%s/vmregress-%s.1", dir, commands[i].name);
		FILE *f = fopen(path, "w");
		if (!f) {
			vmr_errno("help --man-dir: cannot write %s", path);
			rc = -1;
		} else {
			if (i == -2)
				cmd_man_main(f);
			else if (i == -1)
				cmd_man_suite(f);
			else
				rc = cmd_man_page(f, commands[i].name);
			if (fclose(f) != 0) {
				vmr_errno("help --man-dir: cannot write %s", path);
				rc = -1;
			}
		}
		free(path);
	}
	return rc;
}
