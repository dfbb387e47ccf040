/* The results store on SQLite: reads and writes of runs, and the writers' locks
 * in "<file>-lock" that tell a run being written from an interrupted one
 * (see sqlite_hold); opening a file, its schema and its migrations are in
 * sqlite_open.c. */
#include "store/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/path.h"
#include "core/util.h"
#include "store/sqlite_int.h"
#include "store/sqlitelib.h"

static int sqlite_begin(struct store *st, bool write)
{
	return write ? store_begin(st) : store_exec(st, "BEGIN", "cannot start a transaction");
}

static void store_bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

/* Run one prepared insert/update/delete, finalize it.  0 or -1. */
static int store_step_done(struct store *st, sqlite3_stmt *s, const char *what)
{
	int rc = sqlite3_step(s);
	int ok = rc == SQLITE_DONE;
	if (!ok)
		store_fail(st, what);
	sqlite3_finalize(s);
	return ok ? 0 : -1;
}

static int sqlite_case_add(struct store *st, int64_t run_id, const char *case_name, const char *workload,
		   json_t *options, int64_t *case_id)
{
	char *opts = store_json_text(options, false);
	sqlite3_stmt *s = store_prepare(st, "INSERT INTO cases (run_id, seq, name, workload, options) VALUES"
					    " (?1, (SELECT COUNT(*) FROM cases WHERE run_id = ?1), ?2, ?3, ?4)");
	int rc = -1;
	if (!s)
		goto free_opts;
	sqlite3_bind_int64(s, 1, run_id);
	store_bind_text(s, 2, case_name);
	store_bind_text(s, 3, workload);
	store_bind_text(s, 4, opts);
	rc = store_step_done(st, s, "cannot record a case");
	if (rc == 0)
		*case_id = sqlite3_last_insert_rowid(st->db);
free_opts:
	free(opts);
	return rc;
}

static int store_metrics_add(struct store *st, int64_t iter_id, const struct result *r)
{
	sqlite3_stmt *s = store_prepare(st, "INSERT INTO metrics (iteration_id, name, unit, better, combine, value)"
					    " VALUES (?,?,?,?,?,?)");
	if (!s)
		return -1;
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct metric *m = &r->metrics[i];
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, iter_id);
		store_bind_text(s, 2, m->name);
		store_bind_text(s, 3, m->unit);
		store_bind_text(s, 4, better_name(m->better));
		store_bind_text(s, 5, combine_name(m->combine));
		sqlite3_bind_double(s, 6, m->value);
		if (sqlite3_step(s) != SQLITE_DONE) {
			store_fail(st, "cannot record a metric");
			sqlite3_finalize(s);
			return -1;
		}
	}
	sqlite3_finalize(s);
	return 0;
}

/* One iteration's row and its metric rows, inside the caller's transaction. */
static int sqlite_iteration_insert(struct store *st, int64_t case_id, int iteration, int64_t seq,
				   const struct result *r)
{
	char *text = store_result_text(st, r);
	int rc = -1;
	if (!text)
		return -1;
	sqlite3_stmt *s = store_prepare(st, "INSERT INTO iterations (case_id, iteration, outcome, reason, result, seq)"
					    " VALUES (?,?,?,?,?,?)");
	if (!s)
		goto free_text;
	sqlite3_bind_int64(s, 1, case_id);
	sqlite3_bind_int(s, 2, iteration);
	store_bind_text(s, 3, outcome_name(r->outcome));
	store_bind_text(s, 4, r->reason);
	store_bind_text(s, 5, text);
	if (seq >= 0)
		sqlite3_bind_int64(s, 6, seq);
	else
		sqlite3_bind_null(s, 6);
	if (store_step_done(st, s, "cannot record an iteration") < 0)
		goto free_text;
	rc = store_metrics_add(st, sqlite3_last_insert_rowid(st->db), r);
free_text:
	free(text);
	return rc;
}

static int sqlite_run_end(struct store *st, int64_t run_id, const char *status)
{
	sqlite3_stmt *s = store_prepare(st, "UPDATE runs SET status = ?, ended = ? WHERE id = ?");
	if (!s)
		return -1;
	store_bind_text(s, 1, status);
	sqlite3_bind_double(s, 2, vmr_wall_s());
	sqlite3_bind_int64(s, 3, run_id);
	return store_step_done(st, s, "cannot record the run's end");
}

static int sqlite_env_set(struct store *st, int64_t run_id, const json_t *env)
{
	sqlite3_stmt *s = store_prepare(st, "UPDATE runs SET env = ? WHERE id = ?");
	if (!s)
		return -1;
	char *text = store_json_text(env, true);
	store_bind_text(s, 1, text);
	sqlite3_bind_int64(s, 2, run_id);
	int rc = store_step_done(st, s, "cannot record the run's environment");
	free(text);
	return rc;
}

static char *store_col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? xstrdup((const char *)t) : NULL;
}

#define RUN_INFO_COLS "r.id, r.uuid, r.name, r.suite, r.status, r.kernel, r.host, r.started, r.ended, r.tag," \
	" (SELECT COUNT(*) FROM cases c WHERE c.run_id = r.id)," \
	" (SELECT COUNT(*) FROM iterations i JOIN cases c ON i.case_id = c.id WHERE c.run_id = r.id)," \
	" r.group_uuid, r.group_name, r.variant, r.variant_index"

static void store_row_info(struct store *st, sqlite3_stmt *s, struct run_info *ri)
{
	ri->id = sqlite3_column_int64(s, 0);
	ri->uuid = store_col_text(s, 1);
	ri->name = store_col_text(s, 2);
	ri->suite = store_col_text(s, 3);
	ri->status = store_col_text(s, 4);
	ri->kernel = store_col_text(s, 5);
	ri->host = store_col_text(s, 6);
	ri->started = sqlite3_column_double(s, 7);
	ri->ended = sqlite3_column_type(s, 8) == SQLITE_NULL ? 0 : sqlite3_column_double(s, 8);
	ri->tag = store_col_text(s, 9);
	ri->ncases = (size_t)sqlite3_column_int64(s, 10);
	ri->niterations = (size_t)sqlite3_column_int64(s, 11);
	ri->group_uuid = store_col_text(s, 12);
	ri->group_name = store_col_text(s, 13);
	ri->variant = store_col_text(s, 14);
	ri->variant_index = sqlite3_column_int(s, 15);
	ri->running = ri->status && !strcmp(ri->status, "incomplete") && sqlite_running(st, ri->id);
}

static int sqlite_list(struct store *st, struct run_info **runs, size_t *n)
{
	sqlite3_stmt *s = store_prepare(st, "SELECT " RUN_INFO_COLS " FROM runs r ORDER BY r.started DESC, r.id DESC");
	if (!s)
		return -1;
	size_t cap = 0;
	*runs = NULL;
	*n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*runs = xrealloc(*runs, cap * sizeof(**runs));
		}
		store_row_info(st, s, &(*runs)[(*n)++]);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		run_info_free_array(*runs, *n);
		*runs = NULL;
		*n = 0;
		return store_fail(st, "cannot list runs");
	}
	return 0;
}

/* The ids of runs matching one query with one text parameter, up to 2. */
static int store_match(struct store *st, const char *sql, const char *arg, int64_t ids[2], int *n)
{
	sqlite3_stmt *s = store_prepare(st, sql);
	if (!s)
		return -1;
	if (arg)
		store_bind_text(s, 1, arg);
	*n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW && *n < 2)
		ids[(*n)++] = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(st, "cannot look up a run");
	return 0;
}

static int sqlite_lookup(struct store *st, enum store_lookup by, const char *arg, int64_t ids[2], int *n)
{
	static const char *const sql[] = {
		[STORE_BY_LAST] = "SELECT id FROM runs ORDER BY started DESC, id DESC LIMIT 1",
		[STORE_BY_ID] = "SELECT id FROM runs WHERE id = CAST(?1 AS INTEGER)",
		[STORE_BY_NAME] = "SELECT id FROM runs WHERE name = ?1 OR uuid = ?1",
	};
	return store_match(st, sql[by], by == STORE_BY_LAST ? NULL : arg, ids, n);
}

static json_t *store_col_json(sqlite3_stmt *s, int i)
{
	const char *t = (const char *)sqlite3_column_text(s, i);
	json_t *j = t ? json_loads(t, 0, NULL) : NULL;
	return j ? j : json_object();
}

static int sqlite_info(struct store *st, int64_t run_id, struct run *r)
{
	sqlite3_stmt *s = store_prepare(st, "SELECT " RUN_INFO_COLS ", r.env, r.suite_text, r.group_plan FROM runs r"
					    " WHERE r.id = ?");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		store_row_info(st, s, &r->info);
		r->env = store_col_json(s, 16);
		r->suite_text = store_col_text(s, 17);
		r->group_plan = store_plan_parse((const char *)sqlite3_column_text(s, 18));
	} else if (rc == SQLITE_DONE) {
		vmr_err("run %lld: no such run in %s", (long long)run_id, st->path);
	} else {
		store_fail(st, "cannot read a run");
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int sqlite_cases(struct store *st, struct run *r)
{
	sqlite3_stmt *s = store_prepare(st, "SELECT id, name, workload, options FROM cases WHERE run_id = ? ORDER BY seq");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, r->info.id);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (r->ncases == cap) {
			cap = cap ? cap * 2 : 8;
			r->cases = xrealloc(r->cases, cap * sizeof(*r->cases));
		}
		struct run_case *c = &r->cases[r->ncases++];
		memset(c, 0, sizeof(*c));
		c->id = sqlite3_column_int64(s, 0);
		c->name = store_col_text(s, 1);
		c->workload = store_col_text(s, 2);
		c->options = store_col_json(s, 3);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "cannot read a run's cases");
}

/* An iteration's result text handed to take(ctx, text, len, whole) as a
 * growing prefix until take says it has enough (not 0) or the text is whole:
 * read through SQLite's incremental blob I/O, a little at first and more
 * only while the members of parts are not all in it, so the maps and series
 * at its end are, mostly, neither read nor parsed.  take's last answer, or
 * -1 after a read error. */
static int sqlite_blob_text(struct store *st, sqlite3_blob **blob, int64_t id, unsigned parts,
			    int (*take)(void *ctx, const char *text, size_t len, bool whole), void *ctx)
{
	int rc = *blob ? sqlite3_blob_reopen(*blob, id)
		       : sqlite3_blob_open(st->db, "main", "iterations", "result", id, 0, blob);
	if (rc != SQLITE_OK)
		return store_fail(st, "cannot read an iteration's result");
	/* the detail lies at the end of the text: read it whole at once */
	int size = sqlite3_blob_bytes(*blob), have = 0, want = parts & RESULT_DETAIL ? size : 16384;
	char *buf = NULL;
	for (;;) {
		want = want < size ? want : size;
		buf = xrealloc(buf, (size_t)want + 1);
		if (sqlite3_blob_read(*blob, buf + have, want - have, have) != SQLITE_OK) {
			free(buf);
			return store_fail(st, "cannot read an iteration's result");
		}
		have = want;
		buf[have] = '\0';
		rc = take(ctx, buf, (size_t)have, have == size);
		if (rc != 0 || have == size)
			break;
		want *= 4;
	}
	free(buf);
	return rc;
}

struct sqlite_pick_ctx {
	unsigned parts;
	json_t **out;
};

/* Enough once the members are picked, or the text is not a result. */
static int sqlite_pick_take(void *ctx, const char *text, size_t len, bool whole)
{
	struct sqlite_pick_ctx *k = ctx;
	return result_pick_text(text, len, k->parts, k->out) != 0 || whole;
}

static int sqlite_blob_pick(struct store *st, sqlite3_blob **blob, int64_t id, unsigned parts, json_t **out)
{
	*out = NULL;
	return sqlite_blob_text(st, blob, id, parts, sqlite_pick_take,
				&(struct sqlite_pick_ctx){ .parts = parts, .out = out }) < 0 ? -1 : 0;
}

struct sqlite_parts_ctx {
	struct store *st;
	struct run_case *c;
	int iteration;
	int64_t seq;
	unsigned parts;
};

static int sqlite_parts_take(void *ctx, const char *text, size_t len, bool whole)
{
	struct sqlite_parts_ctx *k = ctx;
	return store_case_text(k->st, k->c, k->iteration, k->seq, text, len, k->parts, whole);
}

/* The members of parts of an iteration's result into c, read from the
 * prefix of its text that holds them. */
static int sqlite_result_parts(struct store *st, sqlite3_blob **blob, int64_t id, struct run_case *c, int iteration,
			       int64_t seq, unsigned parts)
{
	struct sqlite_parts_ctx k = { .st = st, .c = c, .iteration = iteration, .seq = seq, .parts = parts };
	return sqlite_blob_text(st, blob, id, parts, sqlite_parts_take, &k) < 0 ? -1 : 0;
}

static int sqlite_pick(struct store *st, int64_t case_id, int iteration, unsigned parts, json_t **out)
{
	sqlite3_stmt *s = store_prepare(st, "SELECT id FROM iterations WHERE case_id = ? AND iteration = ?");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, case_id);
	sqlite3_bind_int(s, 2, iteration);
	int rc = sqlite3_step(s);
	int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? vmr_err("%s: iteration %d of a case is gone", st->path, iteration + 1)
					 : store_fail(st, "cannot read an iteration");
	sqlite3_blob *blob = NULL;
	rc = sqlite_blob_pick(st, &blob, id, parts, out);
	if (blob)
		sqlite3_blob_close(blob);
	if (rc == 0 && !*out)
		return vmr_err("%s: iteration %d of a case: stored result is damaged", st->path, iteration + 1);
	return rc;
}

static int sqlite_iterations(struct store *st, struct run_case *c, unsigned parts)
{
	bool whole = parts == RESULT_ALL;
	sqlite3_stmt *s = store_prepare(st, whole ? "SELECT iteration, result, seq FROM iterations WHERE case_id = ?"
						    " ORDER BY iteration"
						  : "SELECT iteration, id, seq FROM iterations WHERE case_id = ?"
						    " ORDER BY iteration");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, c->id);
	sqlite3_blob *blob = NULL;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int iteration = sqlite3_column_int(s, 0);
		int64_t seq = sqlite3_column_type(s, 2) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 2);
		if ((whole ? store_case_result(st, c, iteration, seq, (const char *)sqlite3_column_text(s, 1), parts)
			   : sqlite_result_parts(st, &blob, sqlite3_column_int64(s, 1), c, iteration, seq, parts)) < 0) {
			rc = -1;
			break;
		}
	}
	if (blob)
		sqlite3_blob_close(blob);
	sqlite3_finalize(s);
	if (rc == -1)
		return -1;
	return rc == SQLITE_DONE ? 0 : store_fail(st, "cannot read a case's iterations");
}

static int sqlite_delete_run(struct store *st, int64_t run_id)
{
	if (store_begin(st) < 0)
		return -1;
	sqlite3_stmt *s = store_prepare(st, "DELETE FROM runs WHERE id = ?");
	if (!s)
		goto rollback;
	sqlite3_bind_int64(s, 1, run_id);
	if (store_step_done(st, s, "cannot delete the run") < 0)
		goto rollback;
	if (sqlite3_changes(st->db) != 1) {
		vmr_err("run %lld: no such run in %s", (long long)run_id, st->path);
		goto rollback;
	}
	return store_commit(st);
rollback:
	store_rollback(st);
	return -1;
}

static int sqlite_find_uuid(struct store *st, const char *uuid, int64_t *run_id)
{
	int64_t ids[2];
	int n;
	if (store_match(st, "SELECT id FROM runs WHERE uuid = ?1", uuid, ids, &n) < 0)
		return -1;
	if (n)
		*run_id = ids[0];
	return n > 0;
}

static int sqlite_group_find(struct store *st, const char *spec, char **uuid, int *n)
{
	sqlite3_stmt *s = store_prepare(st, spec ? "SELECT DISTINCT group_uuid FROM runs WHERE group_uuid IS NOT NULL"
						   " AND (group_name = ?1 OR group_uuid = ?1) LIMIT 2"
						 : "SELECT group_uuid FROM runs WHERE group_uuid IS NOT NULL"
						   " ORDER BY started DESC, id DESC LIMIT 1");
	if (!s)
		return -1;
	if (spec)
		store_bind_text(s, 1, spec);
	int rc;
	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if ((*n)++ == 0)
			*uuid = store_col_text(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "cannot look up a group");
}

static int sqlite_group_runs(struct store *st, const char *uuid, int64_t **ids, size_t *n)
{
	sqlite3_stmt *s = store_prepare(st, "SELECT id FROM runs WHERE group_uuid = ? ORDER BY variant_index, id");
	if (!s)
		return -1;
	store_bind_text(s, 1, uuid);
	int rc;
	*n = 0;
	*ids = NULL;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = sqlite3_column_int64(s, 0);
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "cannot read a group's runs");
}

/* The columns a copied run sets, in the order of store_bind_run's values. */
#define RUN_COPY_COLS "uuid, name, suite, suite_text, status, kernel, host, started, ended, tag, env," \
	" group_uuid, group_name, variant, variant_index, group_plan"

static void store_bind_run(sqlite3_stmt *s, const struct run *run, const char *envtext, const char *plantext)
{
	const struct run_info *ri = &run->info;
	store_bind_text(s, 1, ri->uuid);
	store_bind_text(s, 2, ri->name);
	store_bind_text(s, 3, ri->suite);
	store_bind_text(s, 4, run->suite_text);
	store_bind_text(s, 5, ri->status);
	store_bind_text(s, 6, ri->kernel);
	store_bind_text(s, 7, ri->host);
	sqlite3_bind_double(s, 8, ri->started);
	if (ri->ended)
		sqlite3_bind_double(s, 9, ri->ended);
	else
		sqlite3_bind_null(s, 9);
	store_bind_text(s, 10, ri->tag);
	store_bind_text(s, 11, envtext);
	store_bind_text(s, 12, ri->group_uuid);
	store_bind_text(s, 13, ri->group_name);
	store_bind_text(s, 14, ri->variant);
	if (ri->group_uuid)
		sqlite3_bind_int(s, 15, ri->variant_index);
	else
		sqlite3_bind_null(s, 15);
	store_bind_text(s, 16, plantext);
}

/* A run row written from a copy: INSERT, or UPDATE of run_id when > 0. */
static int sqlite_put_run(struct store *st, const struct run *run, int64_t run_id)
{
	char *envtext = store_json_text(run->env, true), *plantext = store_plan_text(run);
	int rc = -1;
	sqlite3_stmt *s = store_prepare(st, run_id > 0 ? "UPDATE runs SET (" RUN_COPY_COLS ") = (?1,?2,?3,?4,?5,?6,?7,?8,"
							  "?9,?10,?11,?12,?13,?14,?15,?16) WHERE id = ?17"
						: "INSERT INTO runs (" RUN_COPY_COLS ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
	if (!s)
		goto free_env;
	store_bind_run(s, run, envtext, plantext);
	if (run_id > 0)
		sqlite3_bind_int64(s, 17, run_id);
	rc = store_step_done(st, s, "cannot record the run");
free_env:
	free(envtext);
	free(plantext);
	return rc;
}

/* The caller's BEGIN IMMEDIATE holds the write lock from the UUID check to
 * the commit, so two processes importing one run store it once. */
static int sqlite_run_insert(struct store *st, const struct run *run, int64_t *run_id)
{
	int found = sqlite_find_uuid(st, run->info.uuid, run_id);
	if (found != 0)
		return found;
	if (sqlite_put_run(st, run, 0) < 0)
		return -1;
	*run_id = sqlite3_last_insert_rowid(st->db);
	return 0;
}

static int sqlite_run_replace(struct store *st, int64_t run_id, const struct run *run)
{
	if (sqlite_put_run(st, run, run_id) < 0)
		return -1;
	sqlite3_stmt *s = store_prepare(st, "DELETE FROM cases WHERE run_id = ?");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	return store_step_done(st, s, "cannot replace the run's cases");
}

const struct store_backend store_sqlite_backend = {
	.name = "sqlite",
	.open = sqlite_open,
	.close = sqlite_close,
	.case_add = sqlite_case_add,
	.run_end = sqlite_run_end,
	.env_set = sqlite_env_set,
	.hold = sqlite_hold,
	.list = sqlite_list,
	.match = sqlite_lookup,
	.delete_run = sqlite_delete_run,
	.find_uuid = sqlite_find_uuid,
	.group_find = sqlite_group_find,
	.group_runs = sqlite_group_runs,
	.begin = sqlite_begin,
	.commit = store_commit,
	.rollback = store_rollback,
	.info = sqlite_info,
	.cases = sqlite_cases,
	.iterations = sqlite_iterations,
	.pick = sqlite_pick,
	.iteration_insert = sqlite_iteration_insert,
	.run_insert = sqlite_run_insert,
	.run_replace = sqlite_run_replace,
};
