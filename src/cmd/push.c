/* vmregress push RUN... --to URL: copy runs from this machine's store into
 * another (a fleet's shared database), keyed by UUID so a second push of
 * the same run stores nothing.  Also the copying half of pull. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "store/store.h"

struct push_opts {
	char *db, *to;
	bool all, json;
};

const struct opt push_cmd_opts[] = {
	{ .name = "to", .type = OPT_STR, .off = offsetof(struct push_opts, to), .metavar = "URL",
	  .help = "the store to copy into: postgresql://USER@HOST/DB, a file, or sqlite:FILE (required)" },
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct push_opts, db), .metavar = "PATH",
	  .help = "the store to copy from (default $VMREGRESS_DB, else $XDG_DATA_HOME/vmregress/results.db)" },
	{ .name = "all", .type = OPT_FLAG, .off = offsetof(struct push_opts, all), .help = "copy every stored run" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct push_opts, json),
	  .help = "print what was copied as JSON" },
	OPT_END,
};

/* The ids of the runs to copy: every run, or each spec resolved. */
static int transfer_select(struct store *from, char **specs, int nspecs, bool all, int64_t **ids, size_t *n)
{
	if (!all) {
		*ids = xcalloc((size_t)nspecs + 1, sizeof(**ids));
		for (*n = 0; *n < (size_t)nspecs; (*n)++)
			if (store_resolve(from, specs[*n], &(*ids)[*n]) < 0)
				return -1;
		return 0;
	}
	struct run_info *runs;
	size_t nruns;
	if (store_list(from, &runs, &nruns) < 0)
		return -1;
	/* Oldest first, so a destination lists them in the source's order. */
	*ids = xcalloc(nruns + 1, sizeof(**ids));
	for (*n = 0; *n < nruns; (*n)++)
		(*ids)[*n] = runs[nruns - 1 - *n].id;
	run_info_free_array(runs, nruns);
	return 0;
}

static json_t *transfer_copy_one(struct store *from, int64_t id, struct store *to, bool json)
{
	struct run *r = NULL;
	int64_t to_id;
	if (store_load_run(from, id, &r) < 0)
		return NULL;
	int rc = store_import_run(to, r, &to_id);
	json_t *row = NULL;
	if (rc >= 0) {
		row = json_pack("{ss ss ss sI}", "uuid", r->info.uuid, "name", r->info.name, "result",
				rc ? "present" : "copied", "id", (json_int_t)to_id);
		if (!json)
			printf("%-8s %s %s as run %lld\n", rc ? "present" : "copied", r->info.uuid, r->info.name,
			       (long long)to_id);
	}
	run_free(r);
	return row;
}

int cmd_transfer(const char *from_loc, const char *to_loc, char **specs, int nspecs, bool all,
		 bool json)
{
	struct store *from = NULL, *to = NULL;
	int64_t *ids = NULL;
	size_t n = 0;
	/* A store that does not open, or a run it lacks, is bad input (2) as
	 * in show and list; a copy that fails half-way cannot be done (3). */
	int rc = VMR_EXIT_USAGE;
	if (store_open(&from, from_loc, false) < 0 || transfer_select(from, specs, nspecs, all, &ids, &n) < 0 ||
	    store_open(&to, to_loc, true) < 0)
		goto close;
	rc = VMR_EXIT_CANNOT;
	json_t *rows = json_array();
	size_t copied = 0, present = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *row = transfer_copy_one(from, ids[i], to, json);
		if (!row) {
			json_decref(rows);
			goto close;
		}
		if (!strcmp(json_string_value(json_object_get(row, "result")), "copied"))
			copied++;
		else
			present++;
		json_array_append_new(rows, row);
	}
	if (json) {
		rc = cmd_print_json(rows);
	} else {
		printf("%zu copied, %zu already there, into %s\n", copied, present, store_path(to));
		json_decref(rows);
		rc = VMR_EXIT_OK;
	}
close:
	free(ids);
	store_close(to);
	store_close(from);
	return rc;
}

int cmd_push(int argc, char **argv)
{
	struct push_opts o = { 0 };
	struct optset set = { push_cmd_opts, &o, NULL };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos, rc = VMR_EXIT_USAGE;
	bool help = false;
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("push"));
		rc = VMR_EXIT_OK;
		goto free_opts;
	}
	if (!o.to) {
		vmr_err("push: where to? (usage: vmregress push RUN... --to URL)");
		goto free_opts;
	}
	if (!npos == !o.all) {
		vmr_err("push: %s (usage: vmregress push RUN... --to URL, or --all)",
			npos ? "name runs or give --all, not both" : "which run?");
		goto free_opts;
	}
	char *path = o.db ? xstrdup(o.db) : store_default_path();
	rc = cmd_transfer(path, o.to, pos, npos, o.all, o.json);
	free(path);
free_opts:
	opt_free(push_cmd_opts, &o);
	free(pos);
	return rc;
}
