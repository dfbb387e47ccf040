/* The command table: git-style, one file per command under src/cmd/. */
#ifndef VMR_CMD_H
#define VMR_CMD_H

/* Where every --db help text says the store is by default. */
#define CMD_DB_DEFAULT "default $VMREGRESS_DB, else $XDG_DATA_HOME/vmregress/results.db"

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
int cmd_plan(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_plot_map(int argc, char **argv);
int cmd_sandbox(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_matrix(int argc, char **argv);
int cmd_push(int argc, char **argv);
int cmd_pull(int argc, char **argv);
int cmd_suites(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_kcidb(int argc, char **argv);
int cmd_lava(int argc, char **argv);
int cmd_kselftest(int argc, char **argv);

/* Each command file defines its option table for help: */
extern const struct opt sense_cmd_opts[], test_cmd_opts[], refs_cmd_opts[], run_cmd_opts[],
	list_cmd_opts[], show_cmd_opts[], export_cmd_opts[], delete_cmd_opts[], compare_cmd_opts[], plan_cmd_opts[],
	report_cmd_opts[], plot_map_cmd_opts[], sandbox_cmd_opts[], cleanup_cmd_opts[],
	matrix_cmd_opts[];
extern const struct opt push_cmd_opts[], pull_cmd_opts[], suites_cmd_opts[], bisect_cmd_opts[],
	kcidb_cmd_opts[], lava_cmd_opts[], kselftest_cmd_opts[];

/* Longer help text of commands that have one (`help CMD`, the man page). */
extern const char refs_cmd_details[], bisect_cmd_details[], kselftest_cmd_details[];
extern char sense_cmd_summary[], sense_cmd_usage[], sense_cmd_details[];

/* push and pull: everything but the direction.  Their options, in one
 * struct so one table per command can name `remote` --to or --from. */
struct transfer_opts {
	char *db;             /* this machine's store (NULL: the default) */
	char *remote;         /* the other store */
	bool all, json;
};
/* Parse push's or pull's arguments against opts and copy the runs they
 * name (or all) from one store into the other, each in one transaction:
 * runs the destination lacks are copied, copies that are behind (written
 * while their run was still going) are brought up to date, runs still
 * being written are left for later.  Prints one line per run and a
 * total, or JSON.  An exit code. */
int cmd_transfer(const char *name, const struct opt *opts, bool push, int argc, char **argv);

/* Parse a command's arguments against its option sets; positional words
 * land in *pos (free it, whatever the return).  0: go on; 1: --help was
 * printed (exit 0); -1: a one-line error was printed (exit 2). */
int cmd_parse(const char *name, struct optset *sets, size_t nsets, int argc, char **argv, char ***pos,
	      int *npos);
/* The same for commands taking exactly one RUN, (*pos)[0]: true to go on;
 * false with *rc the exit code, after --help (0) or a one-line error (2).
 * Going on, *rc is 2 too: what a RUN that does not resolve exits with. */
bool cmd_parse_run(const char *name, struct optset *set, int argc, char **argv, char ***pos, int *rc);

struct store;
/* The store a --db option names: db, or the default when NULL.  Malloc'd. */
char *cmd_db_path(const char *db);
/* Open the store at db (NULL: the default), to write or only to read (then
 * a read-only medium will do), and resolve RUN spec in it.  0, or -1 after
 * a one-line error; *st is to be closed either way. */
int cmd_open_run(const char *db, const char *spec, bool write, struct store **st, int64_t *id);

/* Man pages (manpages.c): vmregress(1); vmregress-CMD(1) (-1 after an
 * error when name is no command); vmregress-suite(5); all of them as files
 * in dir (-1 after an error). */
void cmd_man_main(FILE *f);
int cmd_man_page(FILE *f, const char *name);
void cmd_man_suite(FILE *f);
int cmd_man_dir(const char *dir);
/* The bash completion script (completion.c). */
void cmd_completion_bash(FILE *f);
/* compare's and report's RUN arguments with each GROUP among
 * them (a group's name or UUID, or last-group: see store_resolve_group)
 * replaced by its runs' UUIDs, base first.  A file of a run or a RUN keeps
 * its place (a RUN is looked up before a GROUP); what is neither is left
 * for runsrc_load to report.  0, or -1 after one error. */
int cmd_resolve_runs(const char *db, char *const *specs, size_t n, struct strlist *out);

/* Write a JSON document to stdout (indented, newline-terminated) and free it. */
int cmd_print_json(json_t *j);

#endif
