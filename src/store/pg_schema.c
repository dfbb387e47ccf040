/* The PostgreSQL store's schema: its migrations, applied under a
 * transaction advisory lock so that machines opening a fresh database at
 * once create it once. */
#include "store/backend.h"

#ifndef VMR_NO_PG

#include "store/pg_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* Migration i takes a database from version i to version i + 1, as
 * sqlite.c's do.  Never edit one that has shipped: add the next. */
static const char *const pg_migrations[] = {
	/* 0 -> 1: runs, cases, iterations, metric rows */
	"CREATE TABLE runs ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  uuid TEXT NOT NULL UNIQUE,"
	"  name TEXT NOT NULL,"
	"  suite TEXT,"
	"  suite_text TEXT,"
	"  status TEXT NOT NULL CHECK (status IN ('complete','incomplete','failed')),"
	"  kernel TEXT,"
	"  host TEXT,"
	"  started DOUBLE PRECISION NOT NULL,"
	"  ended DOUBLE PRECISION,"
	"  tag TEXT,"
	"  env TEXT NOT NULL DEFAULT '{}');"
	"CREATE INDEX runs_name ON runs(name);"
	"CREATE TABLE cases ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  workload TEXT NOT NULL,"
	"  options TEXT NOT NULL DEFAULT '{}',"
	"  UNIQUE (run_id, seq));"
	"CREATE TABLE iterations ("
	"  id BIGSERIAL PRIMARY KEY,"
	"  case_id BIGINT NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
	"  iteration INTEGER NOT NULL,"
	"  outcome TEXT NOT NULL,"
	"  reason TEXT,"
	"  result TEXT NOT NULL,"
	"  UNIQUE (case_id, iteration));"
	"CREATE TABLE metrics ("
	"  iteration_id BIGINT NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  better TEXT NOT NULL,"
	"  combine TEXT NOT NULL,"
	"  value DOUBLE PRECISION,"
	"  PRIMARY KEY (iteration_id, name));"
	"CREATE INDEX metrics_name ON metrics(name);",
	/* 1 -> 2: groups of runs made together (run --variant), and the
	 * order in which a group's iterations ran */
	"ALTER TABLE runs ADD COLUMN group_uuid TEXT, ADD COLUMN group_name TEXT, ADD COLUMN variant TEXT,"
	"  ADD COLUMN variant_index INTEGER, ADD COLUMN group_plan TEXT;"
	"ALTER TABLE iterations ADD COLUMN seq BIGINT;"
	"CREATE INDEX runs_group_uuid ON runs(group_uuid);"
	"CREATE INDEX runs_group_name ON runs(group_name);",
};

/* Any number: the key of the advisory lock taken while migrating. */
#define PG_MIGRATE_LOCK 0x766d7267 /* "vmrg" */

static int pg_schema_version(struct store *st, int *v)
{
	PGresult *res = pg_query(st, "SELECT to_regclass('schema_version') IS NOT NULL", 0, NULL,
				 "cannot read the schema version");
	if (!res)
		return -1;
	bool have = !strcmp(PQgetvalue(res, 0, 0), "t");
	PQclear(res);
	*v = 0;
	if (!have)
		return 0;
	res = pg_query(st, "SELECT version FROM schema_version", 0, NULL, "cannot read the schema version");
	if (!res)
		return -1;
	if (PQntuples(res) == 1) {
		int64_t x = pg_col_int64(res, 0, 0);
		*v = x < 0 || x > INT_MAX ? -1 : (int)x;  /* refused by the caller */
	}
	PQclear(res);
	return 0;
}

int pg_migrate(struct store *st)
{
	int v;
	if (pg_begin(st) < 0)
		return -1;
	char *lock = xasprintf("SELECT pg_advisory_xact_lock(%d)", PG_MIGRATE_LOCK);
	int rc = pg_exec(st, lock, "cannot lock the schema");
	free(lock);
	if (rc < 0 || pg_schema_version(st, &v) < 0)
		goto rollback;
	if (v < 0) {
		vmr_err("%s: not a vmregress results database (schema version out of range)", st->path);
		goto rollback;
	}
	if (v > (int)ARRAY_SIZE(pg_migrations)) {
		vmr_err("%s: schema version %d is newer than this vmregress knows (%d)", st->path, v,
			(int)ARRAY_SIZE(pg_migrations));
		goto rollback;
	}
	if (v == ARRAY_SIZE(pg_migrations)) {
		pg_rollback(st);
		return 0;
	}
	if (v == 0 && pg_exec(st, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
				  "DELETE FROM schema_version; INSERT INTO schema_version VALUES (0)",
			      "cannot create the schema") < 0)
		goto rollback;
	for (; v < (int)ARRAY_SIZE(pg_migrations); v++) {
		if (pg_exec(st, pg_migrations[v], "cannot migrate the schema") < 0)
			goto rollback;
		char *sql = xasprintf("UPDATE schema_version SET version = %d", v + 1);
		rc = pg_exec(st, sql, "cannot record the schema version");
		free(sql);
		if (rc < 0)
			goto rollback;
	}
	return pg_commit(st);
rollback:
	pg_rollback(st);
	return -1;
}

#endif /* VMR_NO_PG */
