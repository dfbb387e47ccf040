/* vmregress list: the stored runs, newest first. */
#include <stdlib.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "store/store.h"

struct list_opts {
	char *db;
	bool json;
};

const struct opt list_cmd_opts[] = {
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct list_opts, db), .metavar = "PATH",
	  .help = "the results file (default $XDG_DATA_HOME/vmregress/results.db)" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct list_opts, json), .help = "print JSON" },
	OPT_END,
};

static void list_print(const struct run_info *runs, size_t n)
{
	printf("%-5s %-32s %-22s %-12s %-10s %s\n", "ID", "NAME", "KERNEL", "SUITE", "STATUS", "WHEN");
	for (size_t i = 0; i < n; i++) {
		char when[40];
		const struct run_info *r = &runs[i];
		printf("%-5lld %-32s %-22s %-12s %-10s %s\n", (long long)r->id, r->name, r->kernel ? r->kernel : "-",
		       r->suite ? r->suite : "-", r->status, store_format_time(when, sizeof(when), r->started));
	}
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { 0 };
	struct optset set = { list_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos, rc = VMR_EXIT_USAGE;
	bool help = false;
	struct run_info *runs = NULL;
	size_t n = 0;
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("list"));
		rc = VMR_EXIT_OK;
		goto free_opts;
	}
	if (npos) {
		vmr_err("list: unexpected argument '%s'", pos[0]);
		goto free_opts;
	}
	char *path = o.db ? xstrdup(o.db) : store_default_path();
	struct store *st = NULL;
	/* No results file yet is an empty list, not an error. */
	if (access(path, F_OK) == 0) {
		if (store_open(&st, path, false) < 0)
			goto close_store;
		rc = VMR_EXIT_CANNOT;
		if (store_list(st, &runs, &n) < 0)
			goto close_store;
	}
	rc = VMR_EXIT_OK;
	if (o.json) {
		json_t *a = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, run_info_to_json(&runs[i]));
		rc = cmd_print_json(a);
	} else {
		list_print(runs, n);
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
