/* The results store on PostgreSQL (libpq): one database shared by a fleet of
 * machines.  The same schema in meaning as sqlite.c, and the same answers.
 *
 * Concurrency: every write that must be whole is one transaction; the
 * schema is created under an advisory lock so machines opening a fresh
 * database at once create it once; imports insert the run row with ON
 * CONFLICT (uuid) DO NOTHING, which waits for a concurrent import of the
 * same run to end, so a run pushed from two places at once is stored once,
 * and lock the row they find instead (FOR UPDATE), so two pushes bringing
 * one copy up to date do it one after the other.  A run's writer holds a
 * session advisory lock (PG_RUN_LOCK, the run's id) for as long as it
 * writes; the server drops it with the connection, however the writer
 * ends, and other sessions see it in pg_locks.
 *
 * Credentials: st->path is the URL with its password masked, and every
 * server or libpq message has the password cut out before it is printed. */
#include "store/backend.h"

#ifndef VMR_NO_PG

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "store/pg_int.h"

/* The first key of the advisory lock a run's writer holds while it writes;
 * the second is the run's id (its low 31 bits).  See backend.h. */
#define PG_RUN_LOCK 1986884210 /* 0x766d7272, "vmrr" */

/* A read sees one snapshot of the database; a write is pg_begin's. */
static int pg_begin_kind(struct store *st, bool write)
{
	return write ? pg_begin(st)
		     : pg_exec(st, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "cannot start a transaction");
}

static void pg_notice_quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

/* Unless the session has a statement timeout of its own (the URL's
 * options=-c statement_timeout=..., PGOPTIONS, the role's or database's
 * setting), reads get this one: a server that stops answering mid-query
 * must not hang `list`.  Writes lift it (pg_begin). */
#define PG_READ_TIMEOUT "60s"

static int pg_session_setup(struct store *st)
{
	if (pg_exec(st, "SET client_min_messages = warning", "cannot set up the session") < 0)
		return -1;
	PGresult *res = pg_query(st, "SHOW statement_timeout", 0, NULL, "cannot set up the session");
	if (!res)
		return -1;
	st->read_timeout = PQntuples(res) == 1 && !strcmp(PQgetvalue(res, 0, 0), "0");
	PQclear(res);
	return st->read_timeout ? pg_exec(st, "SET statement_timeout = '" PG_READ_TIMEOUT "'", "cannot set up the session")
				: 0;
}

static int pg_open(struct store **out, const char *url, enum store_mode mode)
{
	const char *why;
	if (pqlib_load(&why) < 0) {
		char *masked = store_mask_url(url);
		vmr_err("%s: %s", masked, why);
		free(masked);
		return -1;
	}
	struct store *st = xcalloc(1, sizeof(*st));
	st->path = store_mask_url(url);
	store_url_secrets(url, &st->secrets);
	/* Later keywords win: the URL's own settings override these defaults,
	 * and so does PGCONNECT_TIMEOUT, which a default given here would
	 * hide.  Without a timeout a machine whose server is down would hang. */
	const char *env_timeout = getenv("PGCONNECT_TIMEOUT");
	const char *keys[4] = { NULL }, *vals[4] = { NULL };
	size_t n = 0;
	if (!env_timeout || !*env_timeout) {
		keys[n] = "connect_timeout";
		vals[n++] = "10";
	}
	keys[n] = "fallback_application_name";
	vals[n++] = "vmregress";
	keys[n] = "dbname";
	vals[n] = url;
	st->pg = PQconnectdbParams(keys, vals, 1);
	if (!st->pg || PQstatus(st->pg) != CONNECTION_OK) {
		char *clean = pg_clean_message(st, url, st->pg ? PQerrorMessage(st->pg) : "out of memory");
		vmr_err("cannot connect to %s: %s", st->path, clean);
		free(clean);
		goto finish;
	}
	PQsetNoticeProcessor(st->pg, pg_notice_quiet, NULL);
	/* The schema is created on first use whatever the mode: the database
	 * itself is what must exist, and connecting proved that. */
	if (pg_session_setup(st) < 0 || pg_migrate(st) < 0)
		goto finish;
	*out = st;
	return 0;
finish:
	PQfinish(st->pg);
	strlist_free(&st->secrets);
	free(st->path);
	free(st);
	return -1;
}

static void pg_close(struct store *st)
{
	/* The server drops a closed session's locks when it gets round to it;
	 * a run left unended is to be seen interrupted as soon as we return. */
	if (PQstatus(st->pg) == CONNECTION_OK)
		PQclear(PQexec(st->pg, "SELECT pg_advisory_unlock_all()"));
	PQfinish(st->pg);
	strlist_free(&st->secrets);
	free(st->path);
	free(st);
}

/* Take (or drop) the writer's lock of a run: a session lock, so the server
 * drops it when the connection ends, however the writer ends. */
static int pg_hold(struct store *st, int64_t run_id, bool hold)
{
	char *sql = xasprintf("SELECT pg_advisory_%slock(%d, %d)", hold ? "" : "un", PG_RUN_LOCK,
			      (int)(run_id & 0x7fffffff));
	int rc = pg_exec(st, sql, hold ? "cannot lock the run" : "cannot unlock the run");
	free(sql);
	return rc;
}

static int pg_case_add(struct store *st, int64_t run_id, const char *case_name, const char *workload,
		       json_t *options, int64_t *case_id)
{
	struct pg_num rid = { 0 };
	char *opts = store_json_text(options, false);
	const char *p[] = { pg_fmt_int(&rid, run_id), case_name, workload, opts };
	int rc = pg_insert_id(st, "INSERT INTO cases (run_id, seq, name, workload, options) VALUES"
				  " ($1, (SELECT COUNT(*) FROM cases WHERE run_id = $1), $2, $3, $4) RETURNING id",
			      4, p, "cannot record a case", case_id);
	free(opts);
	return rc;
}

/* All of an iteration's metric rows in one statement: one round trip to
 * the server, not one per metric. */
static int pg_metrics_add(struct store *st, int64_t iter_id, const struct result *r)
{
	if (!r->nmetrics)
		return 0;
	struct pg_num id, *v = xcalloc(r->nmetrics, sizeof(*v));
	const char **p = xcalloc(1 + 5 * r->nmetrics, sizeof(*p));
	size_t cap = 128 + 40 * r->nmetrics, len;
	char *sql = xmalloc(cap);
	len = (size_t)snprintf(sql, cap, "INSERT INTO metrics (iteration_id, name, unit, better, combine, value) VALUES ");
	p[0] = pg_fmt_int(&id, iter_id);
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct metric *m = &r->metrics[i];
		size_t k = 1 + 5 * i;
		p[k] = m->name;
		p[k + 1] = m->unit;
		p[k + 2] = better_name(m->better);
		p[k + 3] = combine_name(m->combine);
		p[k + 4] = pg_fmt_double(&v[i], m->value);
		len += (size_t)snprintf(sql + len, cap - len, "%s($1,$%zu,$%zu,$%zu,$%zu,$%zu::float8)", i ? "," : "", k + 1,
					k + 2, k + 3, k + 4, k + 5);
	}
	PGresult *res = pg_query(st, sql, (int)(1 + 5 * r->nmetrics), p, "cannot record a metric");
	PQclear(res);
	free(sql);
	free(p);
	free(v);
	return res ? 0 : -1;
}

/* One iteration's row and its metric rows, inside the caller's transaction. */
static int pg_iteration_insert(struct store *st, int64_t case_id, int iteration, int64_t seq,
			       const struct result *r)
{
	char *text = store_result_text(st, r);
	if (!text)
		return -1;
	struct pg_num cid, it, sq;
	int64_t iter_id;
	const char *p[] = { pg_fmt_int(&cid, case_id), pg_fmt_int(&it, iteration), outcome_name(r->outcome), r->reason,
			    text, seq >= 0 ? pg_fmt_int(&sq, seq) : NULL };
	int rc = pg_insert_id(st, "INSERT INTO iterations (case_id, iteration, outcome, reason, result, seq)"
				  " VALUES ($1,$2,$3,$4,$5,$6::bigint) RETURNING id", 6, p, "cannot record an iteration",
			      &iter_id);
	free(text);
	return rc < 0 ? -1 : pg_metrics_add(st, iter_id, r);
}

static int pg_run_end(struct store *st, int64_t run_id, const char *status)
{
	struct pg_num now, rid;
	const char *p[] = { status, pg_fmt_double(&now, vmr_wall_s()), pg_fmt_int(&rid, run_id) };
	PGresult *res = pg_query(st, "UPDATE runs SET status = $1, ended = $2 WHERE id = $3", 3, p,
				 "cannot record the run's end");
	PQclear(res);
	return res ? 0 : -1;
}

static int pg_env_set(struct store *st, int64_t run_id, const json_t *env)
{
	struct pg_num rid;
	char *text = store_json_text(env, true);
	const char *p[] = { text, pg_fmt_int(&rid, run_id) };
	PGresult *res = pg_query(st, "UPDATE runs SET env = $1 WHERE id = $2", 2, p,
				 "cannot record the run's environment");
	PQclear(res);
	free(text);
	return res ? 0 : -1;
}

#define PG_STR(x) PG_STR_(x)
#define PG_STR_(x) #x
#define RUN_INFO_COLS "r.id, r.uuid, r.name, r.suite, r.status, r.kernel, r.host, r.started, r.ended, r.tag," \
	" (SELECT COUNT(*) FROM cases c WHERE c.run_id = r.id)," \
	" (SELECT COUNT(*) FROM iterations i JOIN cases c ON i.case_id = c.id WHERE c.run_id = r.id)," \
	" r.status = 'incomplete' AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory'" \
	"  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())" \
	"  AND l.classid::bigint = " PG_STR(PG_RUN_LOCK) " AND l.objid::bigint = (r.id & 2147483647)" \
	"  AND l.objsubid = 2 AND l.granted)," \
	" r.group_uuid, r.group_name, r.variant, r.variant_index"

static void pg_row_info(const PGresult *res, int row, struct run_info *ri)
{
	ri->id = pg_col_int64(res, row, 0);
	ri->uuid = pg_col_text(res, row, 1);
	ri->name = pg_col_text(res, row, 2);
	ri->suite = pg_col_text(res, row, 3);
	ri->status = pg_col_text(res, row, 4);
	ri->kernel = pg_col_text(res, row, 5);
	ri->host = pg_col_text(res, row, 6);
	ri->started = pg_col_double(res, row, 7);
	ri->ended = pg_col_double(res, row, 8);
	ri->tag = pg_col_text(res, row, 9);
	ri->ncases = (size_t)pg_col_int64(res, row, 10);
	ri->niterations = (size_t)pg_col_int64(res, row, 11);
	ri->running = !strcmp(PQgetvalue(res, row, 12), "t");
	ri->group_uuid = pg_col_text(res, row, 13);
	ri->group_name = pg_col_text(res, row, 14);
	ri->variant = pg_col_text(res, row, 15);
	ri->variant_index = (int)pg_col_int64(res, row, 16);
}

static int pg_list(struct store *st, struct run_info **runs, size_t *n)
{
	PGresult *res = pg_query(st, "SELECT " RUN_INFO_COLS " FROM runs r ORDER BY r.started DESC, r.id DESC", 0, NULL,
				 "cannot list runs");
	*runs = NULL;
	*n = 0;
	if (!res)
		return -1;
	int rows = PQntuples(res);
	*runs = xcalloc((size_t)rows + 1, sizeof(**runs));
	for (int i = 0; i < rows; i++)
		pg_row_info(res, i, &(*runs)[i]);
	*n = (size_t)rows;
	PQclear(res);
	return 0;
}

/* The ids of runs matching one query with at most one parameter, up to 2. */
static int pg_match(struct store *st, const char *sql, const char *arg, int64_t ids[2], int *n)
{
	PGresult *res = pg_query(st, sql, arg ? 1 : 0, &arg, "cannot look up a run");
	if (!res)
		return -1;
	*n = 0;
	for (int i = 0; i < PQntuples(res) && *n < 2; i++)
		ids[(*n)++] = pg_col_int64(res, i, 0);
	PQclear(res);
	return 0;
}

static int pg_lookup(struct store *st, enum store_lookup by, const char *arg, int64_t ids[2], int *n)
{
	static const char *const sql[] = {
		[STORE_BY_LAST] = "SELECT id FROM runs ORDER BY started DESC, id DESC LIMIT 1",
		[STORE_BY_ID] = "SELECT id FROM runs WHERE id = $1::bigint",
		[STORE_BY_NAME] = "SELECT id FROM runs WHERE name = $1 OR uuid = $1",
	};
	return pg_match(st, sql[by], by == STORE_BY_LAST ? NULL : arg, ids, n);
}

static int pg_info(struct store *st, int64_t run_id, struct run *r)
{
	struct pg_num rid = { 0 };
	const char *p[] = { pg_fmt_int(&rid, run_id) };
	PGresult *res = pg_query(st, "SELECT " RUN_INFO_COLS ", r.env, r.suite_text, r.group_plan FROM runs r"
				     " WHERE r.id = $1", 1, p, "cannot read a run");
	if (!res)
		return -1;
	int rows = PQntuples(res);
	if (rows == 1) {
		pg_row_info(res, 0, &r->info);
		r->env = pg_col_json(res, 0, 17);
		r->suite_text = pg_col_text(res, 0, 18);
		r->group_plan = store_plan_parse(pg_col_text_ref(res, 0, 19));
	} else {
		vmr_err("run %lld: no such run in %s", (long long)run_id, st->path);
	}
	PQclear(res);
	return rows == 1 ? 0 : -1;
}

static int pg_cases(struct store *st, struct run *r)
{
	struct pg_num rid = { 0 };
	const char *p[] = { pg_fmt_int(&rid, r->info.id) };
	PGresult *res = pg_query(st, "SELECT id, name, workload, options FROM cases WHERE run_id = $1 ORDER BY seq", 1, p,
				 "cannot read a run's cases");
	if (!res)
		return -1;
	int rows = PQntuples(res);
	r->cases = xcalloc((size_t)rows + 1, sizeof(*r->cases));
	for (int i = 0; i < rows; i++) {
		struct run_case *c = &r->cases[r->ncases++];
		c->id = pg_col_int64(res, i, 0);
		c->name = pg_col_text(res, i, 1);
		c->workload = pg_col_text(res, i, 2);
		c->options = pg_col_json(res, i, 3);
	}
	PQclear(res);
	return 0;
}

/* A server sends each result whole; only the parts asked for are parsed.
 * Read by store_case_each, a few iterations a query (the transaction's
 * snapshot keeps them one case), so that no more than those are held. */
static int pg_iterations(struct store *st, struct run_case *c, unsigned parts)
{
	struct pg_num cid = { 0 }, after = { 0 }, most = { 0 };
	int64_t last = -1, batch = st->each ? 4 : INT32_MAX;
	int rc = 0, rows = 0;
	do {
		const char *p[] = { pg_fmt_int(&cid, c->id), pg_fmt_int(&after, last), pg_fmt_int(&most, batch) };
		PGresult *res = pg_query(st, "SELECT iteration, result, seq FROM iterations WHERE case_id = $1"
					 " AND iteration > $2 ORDER BY iteration LIMIT $3",
					 3, p, "cannot read a case's iterations");
		if (!res)
			return -1;
		rows = PQntuples(res);
		for (int i = 0; i < rows && rc == 0; i++) {
			last = pg_col_int64(res, i, 0);
			rc = store_case_result(st, c, (int)last, PQgetisnull(res, i, 2) ? -1 : pg_col_int64(res, i, 2),
					       pg_col_text_ref(res, i, 1), parts);
		}
		PQclear(res);
	} while (rc == 0 && rows == batch);
	return rc;
}

static int pg_pick(struct store *st, int64_t case_id, int iteration, unsigned parts, json_t **out)
{
	struct pg_num cid = { 0 }, it = { 0 };
	const char *p[] = { pg_fmt_int(&cid, case_id), pg_fmt_int(&it, iteration) };
	PGresult *res = pg_query(st, "SELECT result FROM iterations WHERE case_id = $1 AND iteration = $2", 2, p,
				 "cannot read an iteration");
	*out = NULL;
	if (!res)
		return -1;
	int rc = PQntuples(res) == 1 ? 0 : vmr_err("%s: iteration %d of a case is gone", st->path, iteration + 1);
	if (rc == 0 && result_pick_text(pg_col_text_ref(res, 0, 0), strlen(pg_col_text_ref(res, 0, 0)), parts, out) != 1)
		rc = vmr_err("%s: iteration %d of a case: stored result is damaged", st->path, iteration + 1);
	PQclear(res);
	return rc;
}

static int pg_delete_run(struct store *st, int64_t run_id)
{
	struct pg_num rid = { 0 };
	const char *p[] = { pg_fmt_int(&rid, run_id) };
	PGresult *res = pg_query(st, "DELETE FROM runs WHERE id = $1", 1, p, "cannot delete the run");
	if (!res)
		return -1;
	bool one = !strcmp(PQcmdTuples(res), "1");
	PQclear(res);
	if (!one) {
		vmr_err("run %lld: no such run in %s", (long long)run_id, st->path);
		return -1;
	}
	return 0;
}

static int pg_find_uuid(struct store *st, const char *uuid, int64_t *run_id)
{
	int64_t ids[2];
	int n;
	if (pg_match(st, "SELECT id FROM runs WHERE uuid = $1", uuid, ids, &n) < 0)
		return -1;
	if (n)
		*run_id = ids[0];
	return n > 0;
}

static int pg_group_find(struct store *st, const char *spec, char **uuid, int *n)
{
	PGresult *res = pg_query(st, spec ? "SELECT DISTINCT group_uuid FROM runs WHERE group_uuid IS NOT NULL"
					    " AND (group_name = $1 OR group_uuid = $1) LIMIT 2"
					  : "SELECT group_uuid FROM runs WHERE group_uuid IS NOT NULL"
					    " ORDER BY started DESC, id DESC LIMIT 1",
				 spec ? 1 : 0, &spec, "cannot look up a group");
	if (!res)
		return -1;
	*n = PQntuples(res);
	if (*n)
		*uuid = pg_col_text(res, 0, 0);
	PQclear(res);
	return 0;
}

static int pg_group_runs(struct store *st, const char *uuid, int64_t **ids, size_t *n)
{
	PGresult *res = pg_query(st, "SELECT id FROM runs WHERE group_uuid = $1 ORDER BY variant_index, id", 1, &uuid,
				 "cannot read a group's runs");
	*ids = NULL;
	*n = 0;
	if (!res)
		return -1;
	*ids = xcalloc((size_t)PQntuples(res) + 1, sizeof(**ids));
	for (int i = 0; i < PQntuples(res); i++)
		(*ids)[(*n)++] = pg_col_int64(res, i, 0);
	PQclear(res);
	return 0;
}

/* The columns a copied run sets, in the order of pg_run_params. */
#define RUN_COPY_COLS "uuid, name, suite, suite_text, status, kernel, host, started, ended, tag, env," \
	" group_uuid, group_name, variant, variant_index, group_plan"
#define RUN_COPY_VALUES "$1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15::integer,$16"

struct pg_run_params {
	const char *p[17];
	struct pg_num started, ended, index, id;
	char *envtext, *plantext;
};

static void pg_run_params(struct pg_run_params *rp, const struct run *run, int64_t run_id)
{
	const struct run_info *ri = &run->info;
	rp->envtext = store_json_text(run->env, true);
	rp->plantext = store_plan_text(run);
	const char *p[] = { ri->uuid, ri->name, ri->suite, run->suite_text, ri->status, ri->kernel, ri->host,
			    pg_fmt_double(&rp->started, ri->started), ri->ended ? pg_fmt_double(&rp->ended, ri->ended) : NULL,
			    ri->tag, rp->envtext, ri->group_uuid, ri->group_name, ri->variant,
			    ri->group_uuid ? pg_fmt_int(&rp->index, ri->variant_index) : NULL, rp->plantext,
			    pg_fmt_int(&rp->id, run_id) };
	memcpy(rp->p, p, sizeof(p));
}

/* ON CONFLICT waits for a concurrent import of the same run to end; the
 * row found instead is locked until this transaction ends, so two pushes
 * bringing one run up to date do it one after the other. */
static int pg_run_insert(struct store *st, const struct run *run, int64_t *run_id)
{
	struct pg_run_params rp = { 0 };
	pg_run_params(&rp, run, 0);
	PGresult *res = pg_query(st, "INSERT INTO runs (" RUN_COPY_COLS ") VALUES (" RUN_COPY_VALUES ")"
				     " ON CONFLICT (uuid) DO NOTHING RETURNING id", 16, rp.p, "cannot record the run");
	free(rp.envtext);
	free(rp.plantext);
	if (!res)
		return -1;
	int inserted = PQntuples(res) == 1;
	if (inserted)
		*run_id = pg_col_int64(res, 0, 0);
	PQclear(res);
	if (inserted)
		return 0;
	const char *u[] = { run->info.uuid };
	res = pg_query(st, "SELECT id FROM runs WHERE uuid = $1 FOR UPDATE", 1, u, "cannot look up a run");
	if (!res)
		return -1;
	int found = PQntuples(res) == 1;
	if (found)
		*run_id = pg_col_int64(res, 0, 0);
	else
		vmr_err("%s: run %s: neither stored nor found", st->path, run->info.uuid);
	PQclear(res);
	return found ? 1 : -1;
}

static int pg_run_replace(struct store *st, int64_t run_id, const struct run *run)
{
	struct pg_run_params rp = { 0 };
	pg_run_params(&rp, run, run_id);
	PGresult *res = pg_query(st, "UPDATE runs SET (" RUN_COPY_COLS ") = (" RUN_COPY_VALUES ")"
				     " WHERE id = $17", 17, rp.p, "cannot record the run");
	free(rp.envtext);
	free(rp.plantext);
	PQclear(res);
	if (!res)
		return -1;
	res = pg_query(st, "DELETE FROM cases WHERE run_id = $1", 1, &rp.p[16], "cannot replace the run's cases");
	PQclear(res);
	return res ? 0 : -1;
}

const struct store_backend store_pg_backend = {
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.case_add = pg_case_add,
	.run_end = pg_run_end,
	.env_set = pg_env_set,
	.hold = pg_hold,
	.list = pg_list,
	.match = pg_lookup,
	.delete_run = pg_delete_run,
	.find_uuid = pg_find_uuid,
	.group_find = pg_group_find,
	.group_runs = pg_group_runs,
	.begin = pg_begin_kind,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.info = pg_info,
	.cases = pg_cases,
	.iterations = pg_iterations,
	.pick = pg_pick,
	.iteration_insert = pg_iteration_insert,
	.run_insert = pg_run_insert,
	.run_replace = pg_run_replace,
};

#else /* VMR_NO_PG */

/* The statically linked guest binary of the kernel matrix is built without
 * libpq (Debian's static libpq needs Kerberos and LDAP archives it does not
 * ship): it only ever writes a local SQLite file. */
#include "core/util.h"

static int pg_unavailable(struct store **st, const char *location, enum store_mode mode)
{
	char *masked = store_mask_url(location);
	vmr_err("%s: this vmregress was built without PostgreSQL support", masked);
	free(masked);
	return -1;
}

const struct store_backend store_pg_backend = {
	.name = "postgresql",
	.open = pg_unavailable,
};

#endif /* VMR_NO_PG */
