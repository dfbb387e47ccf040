/* vmregress delete RUN: remove a stored run and everything it holds. */
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "store/store.h"

struct delete_opts {
	char *db;
};

const struct opt delete_cmd_opts[] = {
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct delete_opts, db), .metavar = "PATH",
	  .help = "the results file (default $XDG_DATA_HOME/vmregress/results.db)" },
	OPT_END,
};

int cmd_delete(int argc, char **argv)
{
	struct delete_opts o = { 0 };
	struct optset set = { delete_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos, rc = VMR_EXIT_USAGE;
	bool help = false;
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("delete"));
		rc = VMR_EXIT_OK;
		goto free_opts;
	}
	if (npos != 1) {
		vmr_err("delete: %s (usage: vmregress delete RUN)", npos ? "too many arguments" : "which run?");
		goto free_opts;
	}
	char *path = o.db ? xstrdup(o.db) : store_default_path();
	struct store *st = NULL;
	int64_t id;
	if (store_open(&st, path, false) < 0 || store_resolve(st, pos[0], &id) < 0)
		goto close_store;
	rc = store_delete_run(st, id) < 0 ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
close_store:
	store_close(st);
	free(path);
free_opts:
	opt_free(delete_cmd_opts, &o);
	free(pos);
	return rc;
}
