/* vmregress pull RUN... --from URL: copy runs from another store (a fleet's
 * shared database) into this machine's, keyed by UUID like push. */
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "store/store.h"

struct pull_opts {
	char *db, *from;
	bool all, json;
};

const struct opt pull_cmd_opts[] = {
	{ .name = "from", .type = OPT_STR, .off = offsetof(struct pull_opts, from), .metavar = "URL",
	  .help = "the store to copy from: postgresql://USER@HOST/DB, a file, or sqlite:FILE (required)" },
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct pull_opts, db), .metavar = "PATH",
	  .help = "the store to copy into (default $VMREGRESS_DB, else $XDG_DATA_HOME/vmregress/results.db)" },
	{ .name = "all", .type = OPT_FLAG, .off = offsetof(struct pull_opts, all), .help = "copy every stored run" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct pull_opts, json),
	  .help = "print what was copied as JSON" },
	OPT_END,
};

int cmd_pull(int argc, char **argv)
{
	struct pull_opts o = { 0 };
	struct optset set = { pull_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos, rc = VMR_EXIT_USAGE;
	bool help = false;
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("pull"));
		rc = VMR_EXIT_OK;
		goto free_opts;
	}
	if (!o.from) {
		vmr_err("pull: from where? (usage: vmregress pull RUN... --from URL)");
		goto free_opts;
	}
	if (!npos == !o.all) {
		vmr_err("pull: %s (usage: vmregress pull RUN... --from URL, or --all)",
			npos ? "name runs or give --all, not both" : "which run?");
		goto free_opts;
	}
	char *path = o.db ? xstrdup(o.db) : store_default_path();
	rc = cmd_transfer(o.from, path, pos, npos, o.all, o.json);
	free(path);
free_opts:
	opt_free(pull_cmd_opts, &o);
	free(pos);
	return rc;
}
