/* The PostgreSQL store's statements and their results: running a statement
 * (a failure reported with every spelling of the password cut out of the
 * server's message), transactions, a result's columns and numbers as
 * parameters.  pg.c (the back end) and pg_schema.c (the migrations) both
 * use them. */
#include "store/backend.h"

#ifndef VMR_NO_PG

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "store/pg_int.h"

/* msg's first line with every spelling of the password cut out: url
 * itself (libpq quotes a URL it cannot parse) as st->path, the URL's
 * password (libpq also quotes a token of it) and the one the connection
 * used (from the URL, PGPASSWORD or a password file).  Malloc'd. */
char *pg_clean_message(const struct store *st, const char *url, const char *msg)
{
	char *line = xasprintf("%.*s", (int)strcspn(msg ? msg : "", "\n"), msg ? msg : "");
	/* a quoted URL as it prints everywhere else, its password masked */
	for (char *p = url && *url ? strstr(line, url) : NULL; p; p = strstr(p + strlen(st->path), url)) {
		char *next = xasprintf("%.*s%s%s", (int)(p - line), line, st->path, p + strlen(url));
		p = next + (p - line);
		free(line);
		line = next;
	}
	struct strlist secrets = { 0 };
	for (size_t i = 0; i < st->secrets.n; i++)
		strlist_add(&secrets, st->secrets.v[i]);
	const char *pass = st->pg ? PQpass(st->pg) : NULL;
	if (pass && *pass)
		strlist_add(&secrets, pass);
	char *out = store_mask_secrets(line, &secrets);
	strlist_free(&secrets);
	free(line);
	return out;
}

/* Report a failed call: a result's primary message, else the
 * connection's.  Always -1. */
static int pg_fail(struct store *st, const char *what, const PGresult *res)
{
	const char *m = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	char *clean = pg_clean_message(st, NULL, m ? m : PQerrorMessage(st->pg));
	vmr_err("%s: %s: %s", st->path, what, *clean ? clean : "the server gave no reason");
	free(clean);
	return -1;
}

/* Run a statement with text parameters (NULL is SQL NULL).  The result, or
 * NULL after reporting. */
PGresult *pg_query(struct store *st, const char *sql, int nparams, const char *const *params, const char *what)
{
	PGresult *res = PQexecParams(st->pg, sql, nparams, NULL, params, NULL, NULL, 0);
	ExecStatusType s = PQresultStatus(res);
	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
		return res;
	pg_fail(st, what, res);
	PQclear(res);
	return NULL;
}

/* Statements without parameters, several at once (the simple protocol). */
int pg_exec(struct store *st, const char *sql, const char *what)
{
	PGresult *res = PQexec(st->pg, sql);
	ExecStatusType s = PQresultStatus(res);
	int rc = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ? 0 : pg_fail(st, what, res);
	PQclear(res);
	return rc;
}

/* A write may wait its turn behind another machine's (a push of the same
 * run, the schema being created): the read timeout does not apply. */
int pg_begin(struct store *st)
{
	return pg_exec(st, st->read_timeout ? "BEGIN; SET LOCAL statement_timeout = 0" : "BEGIN",
		       "cannot start a transaction");
}

int pg_commit(struct store *st)
{
	return pg_exec(st, "COMMIT", "cannot commit");
}

void pg_rollback(struct store *st)
{
	PQclear(PQexec(st->pg, "ROLLBACK"));
}

char *pg_col_text(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : xstrdup(PQgetvalue(res, row, col));
}

const char *pg_col_text_ref(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : PQgetvalue(res, row, col);
}

int64_t pg_col_int64(const PGresult *res, int row, int col)
{
	return strtoll(PQgetvalue(res, row, col), NULL, 10);
}

double pg_col_double(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? 0 : strtod(PQgetvalue(res, row, col), NULL);
}

json_t *pg_col_json(const PGresult *res, int row, int col)
{
	json_t *j = PQgetisnull(res, row, col) ? NULL : json_loads(PQgetvalue(res, row, col), 0, NULL);
	return j ? j : json_object();
}

const char *pg_fmt_double(struct pg_num *n, double v)
{
	if (isnan(v))
		return NULL; /* as SQLite stores a NaN: NULL */
	snprintf(n->s, sizeof(n->s), "%.17g", v);
	return n->s;
}

const char *pg_fmt_int(struct pg_num *n, int64_t v)
{
	snprintf(n->s, sizeof(n->s), "%" PRId64, v);
	return n->s;
}

/* The id in the first row of an INSERT ... RETURNING id. */
int pg_insert_id(struct store *st, const char *sql, int nparams, const char *const *params, const char *what,
		 int64_t *id)
{
	PGresult *res = pg_query(st, sql, nparams, params, what);
	if (!res)
		return -1;
	int ok = PQntuples(res) == 1;
	if (ok)
		*id = pg_col_int64(res, 0, 0);
	PQclear(res);
	return ok ? 0 : -1;
}

#endif
