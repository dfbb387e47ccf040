/* The results store on SQLite: schema, migrations, reads and writes. */
#include "store/backend.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"

/* Migration i takes a file from version i to version i + 1.  Never edit one
 * that has shipped: add the next. */
static const char *const store_migrations[] = {
	/* 0 -> 1: runs, cases, iterations, metric rows */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  uuid TEXT NOT NULL UNIQUE,"
	"  name TEXT NOT NULL,"
	"  suite TEXT,"
	"  suite_text TEXT,"
	"  status TEXT NOT NULL CHECK (status IN ('complete','incomplete','failed')),"
	"  kernel TEXT,"
	"  host TEXT,"
	"  started REAL NOT NULL,"
	"  ended REAL,"
	"  tag TEXT,"
	"  env TEXT NOT NULL DEFAULT '{}');"
	"CREATE INDEX runs_name ON runs(name);"
	"CREATE TABLE cases ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  workload TEXT NOT NULL,"
	"  options TEXT NOT NULL DEFAULT '{}',"
	"  UNIQUE (run_id, seq));"
	"CREATE TABLE iterations ("
	"  id INTEGER PRIMARY KEY,"
	"  case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
	"  iteration INTEGER NOT NULL,"
	"  outcome TEXT NOT NULL,"
	"  reason TEXT,"
	"  result TEXT NOT NULL,"
	"  UNIQUE (case_id, iteration));"
	"CREATE TABLE metrics ("
	"  iteration_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  better TEXT NOT NULL,"
	"  combine TEXT NOT NULL,"
	"  value REAL,"
	"  PRIMARY KEY (iteration_id, name));"
	"CREATE INDEX metrics_name ON metrics(name);",
};

static int store_fail(struct store *st, const char *what)
{
	vmr_err("%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
	return -1;
}

static int store_exec(struct store *st, const char *sql, const char *what)
{
	char *msg = NULL;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		vmr_err("%s: %s: %s", st->path, what, msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static sqlite3_stmt *store_prepare(struct store *st, const char *sql)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
		store_fail(st, "cannot prepare a query");
		return NULL;
	}
	return s;
}

/* Writers take the lock at BEGIN, so two writers wait (busy timeout) instead
 * of failing half-way with SQLITE_BUSY on upgrade. */
static int store_begin(struct store *st)
{
	return store_exec(st, "BEGIN IMMEDIATE", "cannot start a transaction");
}

static int store_commit(struct store *st)
{
	return store_exec(st, "COMMIT", "cannot commit");
}

static void store_rollback(struct store *st)
{
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

/* mkdir -p of the directory holding path. */
static int store_mkdirs(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int rc = 0;
	if (!slash || slash == dir)
		goto free_dir;
	*slash = '\0';
	for (char *p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
				vmr_errno("cannot create %s", dir);
				rc = -1;
				goto free_dir;
			}
			*p = c;
			if (!c)
				break;
		}
	}
free_dir:
	free(dir);
	return rc;
}

static int store_user_version(struct store *st, int *v)
{
	sqlite3_stmt *s = store_prepare(st, "PRAGMA user_version");
	if (!s)
		return -1;
	int rc = sqlite3_step(s);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : store_fail(st, "cannot read the schema version");
}

/* The version lives in PRAGMA user_version and, for people reading the file
 * with other tools, in a one-row table schema_version. */
static int store_migrate(struct store *st)
{
	int v;
	if (store_begin(st) < 0)
		return -1;
	if (store_user_version(st, &v) < 0)
		goto rollback;
	if (v > (int)ARRAY_SIZE(store_migrations)) {
		vmr_err("%s: schema version %d is newer than this vmregress knows (%d)", st->path, v,
			(int)ARRAY_SIZE(store_migrations));
		goto rollback;
	}
	if (v == 0 && store_exec(st, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
				 "DELETE FROM schema_version; INSERT INTO schema_version VALUES (0)",
				 "cannot create the schema") < 0)
		goto rollback;
	for (; v < (int)ARRAY_SIZE(store_migrations); v++) {
		if (store_exec(st, store_migrations[v], "cannot migrate the schema") < 0)
			goto rollback;
		char *sql = xasprintf("PRAGMA user_version = %d; UPDATE schema_version SET version = %d", v + 1, v + 1);
		int rc = store_exec(st, sql, "cannot record the schema version");
		free(sql);
		if (rc < 0)
			goto rollback;
	}
	return store_commit(st);
rollback:
	store_rollback(st);
	return -1;
}

static int sqlite_open(struct store **out, const char *path, bool create)
{
	struct store *st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	struct stat sb;
	if (!create && stat(path, &sb) < 0) {
		vmr_errno("cannot open %s", path);
		goto free_st;
	}
	if (create && store_mkdirs(path) < 0)
		goto free_st;
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	if (sqlite3_open_v2(path, &st->db, flags, NULL) != SQLITE_OK) {
		vmr_err("cannot open %s: %s", path, st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto close_db;
	}
	sqlite3_busy_timeout(st->db, 10000);
	/* WAL: readers never block the writer; synchronous=NORMAL keeps every
	 * committed iteration across a crash of the process (not of the host). */
	if (store_exec(st, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON",
		       "not a vmregress results file") < 0)
		goto close_db;
	if (store_migrate(st) < 0)
		goto close_db;
	*out = st;
	return 0;
close_db:
	sqlite3_close(st->db);
free_st:
	free(st->path);
	free(st);
	return -1;
}

static void sqlite_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st);
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

static int sqlite_run_begin(struct store *st, const char *name, const char *suite, const char *suite_text,
		    json_t *env, const char *tag, int64_t *run_id)
{
	char uuid[40];
	struct utsname u;
	double now = vmr_wall_s();
	store_uuid(uuid, sizeof(uuid));
	uname(&u);
	const char *kernel = store_env_kernel(env), *host = store_env_host(env);
	char *dflt = name ? NULL : store_default_name(suite, now);
	char *envtext = env ? json_dumps(env, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17)) : NULL;
	int rc = -1;
	sqlite3_stmt *s = store_prepare(st, "INSERT INTO runs (uuid, name, suite, suite_text, status, kernel, host,"
					    " started, tag, env) VALUES (?,?,?,?,'incomplete',?,?,?,?,?)");
	if (!s)
		goto free_text;
	store_bind_text(s, 1, uuid);
	store_bind_text(s, 2, name ? name : dflt);
	store_bind_text(s, 3, suite);
	store_bind_text(s, 4, suite_text);
	store_bind_text(s, 5, kernel ? kernel : u.release);
	store_bind_text(s, 6, host ? host : u.nodename);
	sqlite3_bind_double(s, 7, now);
	store_bind_text(s, 8, tag);
	store_bind_text(s, 9, envtext ? envtext : "{}");
	rc = store_step_done(st, s, "cannot record the run");
	if (rc == 0)
		*run_id = sqlite3_last_insert_rowid(st->db);
free_text:
	free(envtext);
	free(dflt);
	return rc;
}

static int sqlite_case_add(struct store *st, int64_t run_id, const char *case_name, const char *workload,
		   json_t *options, int64_t *case_id)
{
	char *opts = options ? json_dumps(options, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
	sqlite3_stmt *s = store_prepare(st, "INSERT INTO cases (run_id, seq, name, workload, options) VALUES"
					    " (?1, (SELECT COUNT(*) FROM cases WHERE run_id = ?1), ?2, ?3, ?4)");
	int rc = -1;
	if (!s)
		goto free_opts;
	sqlite3_bind_int64(s, 1, run_id);
	store_bind_text(s, 2, case_name);
	store_bind_text(s, 3, workload);
	store_bind_text(s, 4, opts ? opts : "{}");
	rc = store_step_done(st, s, "cannot record a case");
	if (rc == 0)
		*case_id = sqlite3_last_insert_rowid(st->db);
free_opts:
	free(opts);
	return rc;
}

static const char *const better_text[] = { "none", "lower", "higher" };
static const char *const combine_text[] = { "amean", "hmean" };

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
		store_bind_text(s, 4, better_text[m->better % 3]);
		store_bind_text(s, 5, combine_text[m->combine % 2]);
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
static int sqlite_iteration_insert(struct store *st, int64_t case_id, int iteration, const struct result *r)
{
	json_t *j = result_to_json(r);
	char *text = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_decref(j);
	int rc = -1;
	if (!text) {
		vmr_err("%s: cannot serialise a result", st->path);
		return -1;
	}
	sqlite3_stmt *s = store_prepare(st, "INSERT INTO iterations (case_id, iteration, outcome, reason, result)"
					    " VALUES (?,?,?,?,?)");
	if (!s)
		goto free_text;
	sqlite3_bind_int64(s, 1, case_id);
	sqlite3_bind_int(s, 2, iteration);
	store_bind_text(s, 3, outcome_name(r->outcome));
	store_bind_text(s, 4, r->reason);
	store_bind_text(s, 5, text);
	if (store_step_done(st, s, "cannot record an iteration") < 0)
		goto free_text;
	rc = store_metrics_add(st, sqlite3_last_insert_rowid(st->db), r);
free_text:
	free(text);
	return rc;
}

static int sqlite_result_add(struct store *st, int64_t case_id, int iteration, const struct result *r)
{
	if (store_begin(st) < 0)
		return -1;
	if (sqlite_iteration_insert(st, case_id, iteration, r) < 0) {
		store_rollback(st);
		return -1;
	}
	return store_commit(st);
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

static char *store_col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? xstrdup((const char *)t) : NULL;
}

#define RUN_INFO_COLS "r.id, r.uuid, r.name, r.suite, r.status, r.kernel, r.host, r.started, r.ended, r.tag," \
	" (SELECT COUNT(*) FROM cases c WHERE c.run_id = r.id)," \
	" (SELECT COUNT(*) FROM iterations i JOIN cases c ON i.case_id = c.id WHERE c.run_id = r.id)"

static void store_row_info(sqlite3_stmt *s, struct run_info *ri)
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
		store_row_info(s, &(*runs)[(*n)++]);
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

static int store_load_info(struct store *st, int64_t run_id, struct run *r)
{
	sqlite3_stmt *s = store_prepare(st, "SELECT " RUN_INFO_COLS ", r.env, r.suite_text FROM runs r WHERE r.id = ?");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, run_id);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		store_row_info(s, &r->info);
		r->env = store_col_json(s, 12);
		r->suite_text = store_col_text(s, 13);
	} else if (rc == SQLITE_DONE) {
		vmr_err("run %lld: no such run in %s", (long long)run_id, st->path);
	} else {
		store_fail(st, "cannot read a run");
	}
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int store_load_cases(struct store *st, struct run *r)
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

static int store_load_iters(struct store *st, struct run_case *c)
{
	sqlite3_stmt *s = store_prepare(st, "SELECT iteration, result FROM iterations WHERE case_id = ? ORDER BY iteration");
	if (!s)
		return -1;
	sqlite3_bind_int64(s, 1, c->id);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(s, 1);
		json_error_t jerr;
		json_t *j = text ? json_loads(text, 0, &jerr) : NULL;
		const char *why = "not JSON";
		struct result res;
		if (!j || result_from_json(j, &res, &why) < 0) {
			vmr_err("%s: case %s iteration %d: stored result is damaged: %s", st->path, c->name,
				sqlite3_column_int(s, 0) + 1, why);
			json_decref(j);
			sqlite3_finalize(s);
			return -1;
		}
		json_decref(j);
		if (c->niter == cap) {
			cap = cap ? cap * 2 : 8;
			c->iters = xrealloc(c->iters, cap * sizeof(*c->iters));
			c->iter_no = xrealloc(c->iter_no, cap * sizeof(*c->iter_no));
		}
		c->iter_no[c->niter] = sqlite3_column_int(s, 0);
		c->iters[c->niter++] = res;
	}
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : store_fail(st, "cannot read a case's iterations");
}

static int sqlite_load_run(struct store *st, int64_t run_id, struct run **out)
{
	struct run *r = xcalloc(1, sizeof(*r));
	/* One read transaction: a run being written meanwhile is seen whole at
	 * one moment. */
	if (store_exec(st, "BEGIN", "cannot start a transaction") < 0)
		goto free_run;
	if (store_load_info(st, run_id, r) < 0 || store_load_cases(st, r) < 0)
		goto rollback;
	for (size_t i = 0; i < r->ncases; i++)
		if (store_load_iters(st, &r->cases[i]) < 0)
			goto rollback;
	store_rollback(st);
	*out = r;
	return 0;
rollback:
	store_rollback(st);
free_run:
	run_free(r);
	return -1;
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

static int sqlite_import_info(struct store *st, const struct run *run, int64_t *run_id)
{
	const struct run_info *ri = &run->info;
	char *envtext = run->env ? json_dumps(run->env, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17)) : NULL;
	int rc = -1;
	sqlite3_stmt *s = store_prepare(st, "INSERT INTO runs (uuid, name, suite, suite_text, status, kernel, host,"
					    " started, ended, tag, env) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
	if (!s)
		goto free_env;
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
	store_bind_text(s, 10, ri->tag);
	store_bind_text(s, 11, envtext ? envtext : "{}");
	rc = store_step_done(st, s, "cannot record the run");
	if (rc == 0)
		*run_id = sqlite3_last_insert_rowid(st->db);
free_env:
	free(envtext);
	return rc;
}

static int sqlite_import_case(struct store *st, int64_t run_id, const struct run_case *c)
{
	int64_t case_id;
	if (sqlite_case_add(st, run_id, c->name, c->workload, c->options, &case_id) < 0)
		return -1;
	for (size_t k = 0; k < c->niter; k++)
		if (sqlite_iteration_insert(st, case_id, c->iter_no[k], &c->iters[k]) < 0)
			return -1;
	return 0;
}

/* BEGIN IMMEDIATE holds the write lock from the UUID check to the commit,
 * so two processes importing one run store it once. */
static int sqlite_import_run(struct store *st, const struct run *run, int64_t *run_id)
{
	if (store_begin(st) < 0)
		return -1;
	int found = sqlite_find_uuid(st, run->info.uuid, run_id);
	if (found != 0) {
		store_rollback(st);
		return found;
	}
	if (sqlite_import_info(st, run, run_id) < 0)
		goto rollback;
	for (size_t i = 0; i < run->ncases; i++)
		if (sqlite_import_case(st, *run_id, &run->cases[i]) < 0)
			goto rollback;
	return store_commit(st) < 0 ? -1 : 0;
rollback:
	store_rollback(st);
	return -1;
}

const struct store_backend store_sqlite_backend = {
	.name = "sqlite",
	.open = sqlite_open,
	.close = sqlite_close,
	.run_begin = sqlite_run_begin,
	.case_add = sqlite_case_add,
	.result_add = sqlite_result_add,
	.run_end = sqlite_run_end,
	.list = sqlite_list,
	.match = sqlite_lookup,
	.load_run = sqlite_load_run,
	.delete_run = sqlite_delete_run,
	.find_uuid = sqlite_find_uuid,
	.import_run = sqlite_import_run,
};
