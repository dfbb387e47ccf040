/* vmregress list: the stored runs, newest first. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "report/run_json.h"
#include "report/run_list.h"
#include "store/store.h"

struct list_opts {
	char *db;
	char *host, *kernel;
	bool json;
};

const struct opt list_cmd_opts[] = {
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct list_opts, db), .metavar = "PATH",
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	{ .name = "host", .type = OPT_STR, .off = offsetof(struct list_opts, host), .metavar = "GLOB",
	  .help = "only runs of hosts whose name matches (fnmatch)" },
	{ .name = "kernel", .type = OPT_STR, .off = offsetof(struct list_opts, kernel), .metavar = "GLOB",
	  .help = "only runs under kernel releases that match (fnmatch)" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct list_opts, json), .help = "print JSON" },
	OPT_END,
};

static bool list_match(const char *glob, const char *value)
{
	return !glob || (value && fnmatch(glob, value, 0) == 0);
}

/* Keep the runs --host and --kernel select, in order. */
static void list_filter(const struct list_opts *o, struct run_info *runs, size_t *n)
{
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++) {
		if (list_match(o->host, runs[i].host) && list_match(o->kernel, runs[i].kernel))
			runs[kept++] = runs[i];
		else
			run_info_clear(&runs[i]);
	}
	*n = kept;
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { 0 };
	struct optset set = { list_cmd_opts, &o, NULL };
	char **pos;
	int npos, rc = VMR_EXIT_USAGE;
	struct run_info *runs = NULL;
	size_t n = 0;
	int p = cmd_parse("list", &set, 1, argc, argv, &pos, &npos);
	if (p) {
		rc = p > 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
		goto free_opts;
	}
	if (npos) {
		vmr_err("list: unexpected argument '%s'", pos[0]);
		goto free_opts;
	}
	char *path = cmd_db_path(o.db);
	struct store *st = NULL;
	/* A store that does not exist is an error naming it, as in show:
	 * an empty list would hide a mistyped --db. */
	if (store_open(&st, path, false) < 0)
		goto close_store;
	rc = VMR_EXIT_CANNOT;
	if (store_list(st, &runs, &n) < 0)
		goto close_store;
	list_filter(&o, runs, &n);
	rc = VMR_EXIT_OK;
	if (o.json) {
		json_t *a = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, run_info_to_json(&runs[i]));
		rc = cmd_print_json(a);
	} else {
		run_list_text(runs, n);
	}
	run_info_free_array(runs, n);
close_store:
	store_close(st);
	free(path);
free_opts:
	opt_free(list_cmd_opts, &o);
	free(pos);
	return rc;
}
