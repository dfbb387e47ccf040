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
	  .help = "the results store: a file or a PostgreSQL URL (" CMD_DB_DEFAULT ")" },
	OPT_END,
};

/* A run still being written is not deleted from under its writer, which
 * would fail at its next iteration: stop it first. */
static int delete_not_running(struct store *st, int64_t id, const char *spec)
{
	struct run_info *runs;
	size_t n;
	bool running = false;
	if (store_list(st, &runs, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		running |= runs[i].id == id && runs[i].running;
	run_info_free_array(runs, n);
	if (running)
		vmr_err("%s: still being written (stop the vmregress writing it first)", spec);
	return running ? -1 : 0;
}

int cmd_delete(int argc, char **argv)
{
	struct delete_opts o = { 0 };
	struct optset set = { delete_cmd_opts, &o, NULL };
	char **pos;
	int rc;
	struct store *st = NULL;
	int64_t id;
	if (!cmd_parse_run("delete", &set, argc, argv, &pos, &rc))
		goto free_opts;
	if (cmd_open_run(o.db, pos[0], true, &st, &id) < 0 || delete_not_running(st, id, pos[0]) < 0)
		goto close_store;
	rc = store_delete_run(st, id) < 0 ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
close_store:
	store_close(st);
free_opts:
	opt_free(delete_cmd_opts, &o);
	free(pos);
	return rc;
}
