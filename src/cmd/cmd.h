/* The command table: git-style, one file per command under src/cmd/. */
#ifndef VMR_CMD_H
#define VMR_CMD_H

#include <stdio.h>

#include "core/options.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);   /* argv[0] is the command name */
	const char *summary;                /* one line */
	const char *usage;                  /* "sense zones|structsizes|... [--json]" */
	const struct opt *opts;             /* its option table, for help and man */
	const char *details;                /* longer text for `help CMD`, or NULL */
};

extern const struct cmd commands[];
const struct cmd *cmd_find(const char *name);
/* Print `vmregress CMD` help from the table; used by every cmd_* on --help. */
void cmd_help(FILE *f, const struct cmd *c);

/* Commands that show data share --json. */
int cmd_sense(int argc, char **argv);
int cmd_test(int argc, char **argv);
int cmd_refs(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_delete(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_plot_map(int argc, char **argv);
int cmd_sandbox(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_matrix(int argc, char **argv);

/* Each command file defines its option table for help: */
extern const struct opt sense_cmd_opts[], test_cmd_opts[], refs_cmd_opts[], run_cmd_opts[],
	list_cmd_opts[], show_cmd_opts[], export_cmd_opts[], delete_cmd_opts[], compare_cmd_opts[],
	report_cmd_opts[], plot_map_cmd_opts[], sandbox_cmd_opts[], cleanup_cmd_opts[],
	matrix_cmd_opts[];

/* Longer help text of commands that have one (`help CMD`, the man page). */
extern const char sense_cmd_details[], refs_cmd_details[];

/* Write a JSON document to stdout (indented, newline-terminated) and free it. */
int cmd_print_json(json_t *j);

#endif
