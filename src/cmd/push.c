/* vmregress push RUN... --to URL: copy runs from this machine's store into
 * another (a fleet's shared database), keyed by UUID so a second push of
 * the same run stores nothing, and a push after a run has moved on brings
 * its copy up to date.  Also the copying half of pull. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "report/outcome_text.h"
#include "store/store.h"

const struct opt push_cmd_opts[] = {
	{ .name = "to", .type = OPT_STR, .off = offsetof(struct transfer_opts, remote), .metavar = "URL",
	  .help = "the store to copy into: postgresql://USER@HOST/DB, a file, or sqlite:FILE (required)" },
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct transfer_opts, db), .metavar = "PATH",
	  .help = "the store to copy from (" CMD_DB_DEFAULT ")" },
	{ .name = "all", .type = OPT_FLAG, .off = offsetof(struct transfer_opts, all),
	  .help = "copy every stored run (those still being written are left for a later push)" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct transfer_opts, json),
	  .help = "print what was copied as JSON" },
	OPT_END,
};

/* What became of one run, in the order of the printed total. */
enum transfer_result { XFER_COPIED, XFER_UPDATED, XFER_PRESENT, XFER_RUNNING, XFER_NRESULTS };
static const char *const transfer_result_name[] = { "copied", "updated", "present", "running" };

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

/* Copy one run unless it is still being written: a copy of it now would
 * only have to be brought up to date later.  An interrupted run (killed,
 * never ended) is copied as it is: it will not change. */
static int transfer_one(struct store *from, const struct run *r, struct store *to, int64_t *to_id)
{
	if (r->info.running)
		return XFER_RUNNING;
	int rc = store_copy_loaded(from, r, to, to_id);
	return rc < 0 ? -1 : rc == 0 ? XFER_COPIED : rc == 1 ? XFER_PRESENT : XFER_UPDATED;
}

static json_t *transfer_row(const struct run *r, int result, int64_t to_id, bool json)
{
	const struct run_info *ri = &r->info;
	bool interrupted = !store_run_ended(ri) && !ri->running;
	if (!json)
		outcome_transfer(stdout, transfer_result_name[result], ri, (long long)to_id, interrupted);
	json_t *id = result == XFER_RUNNING ? json_null() : json_integer(to_id);
	return json_pack("{ss ss ss ss so}", "uuid", ri->uuid, "name", ri->name, "status", ri->status, "result",
			 transfer_result_name[result], "id", id);
}

static int transfer_runs(const char *from_loc, const char *to_loc, char **specs, int nspecs, bool all, bool json)
{
	struct store *from = NULL, *to = NULL;
	int64_t *ids = NULL;
	size_t n = 0, count[XFER_NRESULTS] = { 0 };
	/* A store that does not open, or a run it lacks, is bad input (2) as
	 * in show and list; a copy that fails half-way cannot be done (3). */
	int rc = VMR_EXIT_USAGE;
	if (store_open(&from, from_loc, STORE_READ) < 0 || transfer_select(from, specs, nspecs, all, &ids, &n) < 0 ||
	    store_open(&to, to_loc, STORE_CREATE) < 0)
		goto close;
	rc = VMR_EXIT_CANNOT;
	json_t *rows = json_array();
	for (size_t i = 0; i < n; i++) {
		struct run *r = NULL;
		int64_t to_id = 0;
		/* the run's rows and each iteration's metrics: the copy reads
		 * the whole results one at a time as it writes them */
		int result = store_load_run_parts(from, ids[i], RESULT_METRICS, &r) < 0 ? -1 :
			     transfer_one(from, r, to, &to_id);
		if (result >= 0) {
			count[result]++;
			json_array_append_new(rows, transfer_row(r, result, to_id, json));
		}
		run_free(r);
		if (result < 0) {
			json_decref(rows);
			goto close;
		}
	}
	if (json) {
		rc = cmd_print_json(rows);
		goto close;
	}
	outcome_transfer_totals(stdout, count[XFER_COPIED], count[XFER_UPDATED], count[XFER_PRESENT],
				count[XFER_RUNNING], store_path(to));
	json_decref(rows);
	rc = VMR_EXIT_OK;
close:
	free(ids);
	store_close(to);
	store_close(from);
	return rc;
}

int cmd_transfer(const char *name, const struct opt *opts, bool push, int argc, char **argv)
{
	struct transfer_opts o = { 0 };
	struct optset set = { opts, &o, NULL };
	const char *remote = push ? "to" : "from", *usage = cmd_find(name)->usage;
	char **pos;
	int npos, rc = VMR_EXIT_USAGE;
	int p = cmd_parse(name, &set, 1, argc, argv, &pos, &npos);
	if (p) {
		rc = p > 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
		goto free_opts;
	}
	if (!o.remote) {
		vmr_err("%s: --%s is missing (usage: vmregress %s)", name, remote, usage);
		goto free_opts;
	}
	if (!npos == !o.all) {
		vmr_err("%s: %s (usage: vmregress %s)", name, npos ? "name runs or give --all, not both" : "which run?",
			usage);
		goto free_opts;
	}
	char *path = cmd_db_path(o.db);
	rc = push ? transfer_runs(path, o.remote, pos, npos, o.all, o.json)
		  : transfer_runs(o.remote, path, pos, npos, o.all, o.json);
	free(path);
free_opts:
	opt_free(opts, &o);
	free(pos);
	return rc;
}

int cmd_push(int argc, char **argv)
{
	return cmd_transfer("push", push_cmd_opts, true, argc, argv);
}
