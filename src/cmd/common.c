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

int cmd_open_run(const char *db, const char *spec, struct store **st, int64_t *id)
{
	char *path = db ? xstrdup(db) : store_default_path();
	*st = NULL;
	int r = store_open(st, path, false) < 0 || store_resolve(*st, spec, id) < 0 ? -1 : 0;
	free(path);
	return r;
}
