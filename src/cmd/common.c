/* What several commands do first: parse their arguments, and open the store
 * at the run they name. */
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "store/store.h"

int cmd_parse(const char *name, struct optset *sets, size_t nsets, int argc, char **argv, char ***pos,
	      int *npos)
{
	bool help = false;
	*pos = xcalloc((size_t)argc + 1, sizeof(char *));
	if (opt_parse(sets, nsets, argc - 1, argv + 1, *pos, npos, &help) < 0)
		return -1;
	if (help) {
		cmd_help(stdout, cmd_find(name));
		return 1;
	}
	return 0;
}

bool cmd_parse_run(const char *name, struct optset *set, int argc, char **argv, char ***pos, int *rc)
{
	int npos, p = cmd_parse(name, set, 1, argc, argv, pos, &npos);
	*rc = p > 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
	if (p)
		return false;
	if (npos != 1) {
		vmr_err("%s: %s (usage: vmregress %s)", name, npos ? "too many arguments" : "which run?",
			cmd_find(name)->usage);
		return false;
	}
	return true;
}

char *cmd_db_path(const char *db)
{
	return db ? xstrdup(db) : store_default_path();
}

int cmd_open_run(const char *db, const char *spec, struct store **st, int64_t *id)
{
	char *path = cmd_db_path(db);
	*st = NULL;
	int r = store_open(st, path, false) < 0 || store_resolve(*st, spec, id) < 0 ? -1 : 0;
	free(path);
	return r;
}
