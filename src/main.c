/* vmregress: the command table and global flags. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/suggest.h"
#include "core/util.h"

const struct cmd commands[] = {
	{ "sense", cmd_sense, sense_cmd_summary, sense_cmd_usage, sense_cmd_opts, sense_cmd_details },
	{ "test", cmd_test, "run one workload once inside a sandbox and print its report",
	  "test WORKLOAD [workload options] [sandbox options] | test --list", test_cmd_opts, NULL },
	{ "refs", cmd_refs, "generate, randomize, show and record page-reference traces",
	  "refs generate|randomize|show|record [options]", refs_cmd_opts, refs_cmd_details },
	{ "run", cmd_run, "run a suite (cases x iterations) with monitors and store it",
	  "run SUITE|FILE [options]", run_cmd_opts, NULL },
	{ "suites", cmd_suites, "list the built-in suites with their descriptions", "suites [--json]",
	  suites_cmd_opts, NULL },
	{ "list", cmd_list, "list stored runs, newest first", "list [options]", list_cmd_opts, NULL },
	{ "show", cmd_show, "show a stored run: environment and per-case summaries", "show RUN [options]",
	  show_cmd_opts, NULL },
	{ "export", cmd_export, "export runs as tidy rows, one per value (csv or json)", "export RUN|GROUP... [options]",
	  export_cmd_opts, NULL },
	{ "delete", cmd_delete, "delete a stored run", "delete RUN [options]", delete_cmd_opts, NULL },
	{ "push", cmd_push, "copy runs into another store, such as a fleet's shared database",
	  "push RUN...|--all --to URL [options]", push_cmd_opts, NULL },
	{ "pull", cmd_pull, "copy runs from another store, such as a fleet's shared database",
	  "pull RUN...|--all --from URL [options]", pull_cmd_opts, NULL },
	{ "compare", cmd_compare, "compare runs against a base, with significance",
	  "compare BASE RUN [RUN...]|GROUP [options]", compare_cmd_opts, NULL },
	{ "plan", cmd_plan, "iterations a variant needs to see a change, from a stored group or a pilot run",
	  "plan SUITE [--from GROUP] [--effect 5%] [options]", plan_cmd_opts, NULL },
	{ "report", cmd_report, "write an HTML report with graphs", "report RUN|GROUP [RUN|GROUP...] -o DIR [options]",
	  report_cmd_opts, NULL },
	{ "plot-map", cmd_plot_map, "draw a present/swapped map as PNG or SVG", "plot-map PID|RUN:CASE -o FILE.png",
	  plot_map_cmd_opts, NULL },
	{ "sandbox", cmd_sandbox, "show what vmregress changed on the host, or run a command in a sandbox",
	  "sandbox status | sandbox exec [sandbox options] -- CMD [ARGS...]", sandbox_cmd_opts, NULL },
	{ "cleanup", cmd_cleanup, "undo every host change a killed vmregress left behind", "cleanup [options]",
	  cleanup_cmd_opts, NULL },
	{ "matrix", cmd_matrix, "run a suite under several kernels, each booted in a virtual machine",
	  "matrix --kernel PATH|PACKAGE [--kernel ...] --suite SUITE [options]", matrix_cmd_opts, NULL },
	{ "bisect", cmd_bisect, "find the first kernel of a series where a metric went bad, with the chance of a "
	  "wrong answer", "bisect --series FILE --case CASE --metric METRIC [options] | bisect start --good K --bad K "
	  "--case CASE --metric METRIC --name NAME [options] | bisect run --kernel PATH --reference NAME | "
	  "bisect show NAME", bisect_cmd_opts,
	  bisect_cmd_details },
	{ "lava", cmd_lava, "run vmregress in a LAVA lab: test definitions, jobs, results home",
	  "lava testdef|job|cases RUN|attach RUN|import RESULTS...|run-local JOB [options]", lava_cmd_opts, NULL },
	{ "kcidb", cmd_kcidb, "send a KCIDB document (export --format kcidb) to KernelCI",
	  "kcidb submit FILE|- --url URL --token-file FILE [options]", kcidb_cmd_opts, NULL },
	{ "kselftest", cmd_kselftest, "build the kernel's own mm and cgroup selftests for the kselftest workload",
	  "kselftest build|list [--source 6.12|6.1|DIR] [options]", kselftest_cmd_opts, kselftest_cmd_details },
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};

/* The one-line error for a word that is not a command, with the command it
 * was probably meant to be. */
static int main_unknown(const char *name)
{
	const char *near = suggest_in(name, commands, sizeof(commands[0]), SIZE_MAX);
	if (near)
		vmr_err("unknown command '%s'; did you mean '%s'? (see vmregress --help)", name, near);
	else
		vmr_err("unknown command '%s' (see vmregress --help)", name);
	return VMR_EXIT_USAGE;
}

/* "vmregress --db X list": options given before the command are the
 * command's; move the command to the front (argv[1]) so that its parser
 * sees them.  Returns false, after a one-line error, when no word after the
 * options is a command. */
static bool main_options_first(int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (argv[i][0] == '-' || !cmd_find(argv[i]))
			continue;
		char *name = argv[i];
		memmove(argv + 2, argv + 1, (size_t)(i - 1) * sizeof(*argv));
		argv[1] = name;
		return true;
	}
	vmr_err("'%s' is an option of a command: put it after the command (vmregress COMMAND %s ...)", argv[1],
		argv[1]);
	return false;
}

static void main_usage(FILE *f)
{
	fputs("usage: vmregress [--version] [--help] COMMAND [ARGS]\n\n"
	      "A Linux virtual-memory regression test and benchmark suite.\n\nCommands:\n", f);
	for (const struct cmd *c = commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fputs("\nSee 'vmregress help COMMAND' or 'vmregress COMMAND --help' for a command's options.\n"
	      "Exit codes: 0 ok, 1 a test failed, 2 usage or input error, 3 cannot run here.\n", f);
}

static int cmd_help_main(int argc, char **argv)
{
	if (argc < 2) {
		main_usage(stdout);
		return VMR_EXIT_OK;
	}
	if (!strcmp(argv[1], "--man")) {
		if (argc < 3) {
			cmd_man_main(stdout);
			return VMR_EXIT_OK;
		}
		if (!strcmp(argv[2], "suite")) {
			cmd_man_suite(stdout);
			return VMR_EXIT_OK;
		}
		return cmd_man_page(stdout, argv[2]) < 0 ? VMR_EXIT_USAGE : VMR_EXIT_OK;
	}
	if (!strcmp(argv[1], "--man-dir")) {
		if (argc < 3) {
			vmr_err("help --man-dir: which directory?");
			return VMR_EXIT_USAGE;
		}
		return cmd_man_dir(argv[2]) < 0 ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
	}
	if (!strcmp(argv[1], "--completion")) {
		if (argc < 3 || strcmp(argv[2], "bash")) {
			vmr_err("help --completion: '%s' is not a shell this writes completion for (bash)",
				argc < 3 ? "" : argv[2]);
			return VMR_EXIT_USAGE;
		}
		cmd_completion_bash(stdout);
		return VMR_EXIT_OK;
	}
	const struct cmd *c = cmd_find(argv[1]);
	if (!c)
		return main_unknown(argv[1]);
	cmd_help(stdout, c);
	return VMR_EXIT_OK;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		main_usage(stderr);
		return VMR_EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("vmregress %s\n", VMR_VERSION);
		return VMR_EXIT_OK;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
		main_usage(stdout);
		return VMR_EXIT_OK;
	}
	if (!strcmp(name, "help"))
		return cmd_help_main(argc - 1, argv + 1);
	if (name[0] == '-' && name[1]) {
		if (!main_options_first(argc, argv))
			return VMR_EXIT_USAGE;
		name = argv[1];
	}
	const struct cmd *c = cmd_find(name);
	if (!c)
		return main_unknown(name);
	vmr_set_command(c->name);
	return c->fn(argc - 1, argv + 1);
}
