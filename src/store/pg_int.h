/* Inside store/: what pg.c and pg_schema.c share, the statements and their
 * results of pg_query.c. */
#ifndef VMR_STORE_PG_INT_H
#define VMR_STORE_PG_INT_H

#include <libpq-fe.h>
#include "store/pqlib.h"  /* libpq's functions through the table pqlib_load fills */
#include <stdint.h>

#include "store/backend.h"

/* pg_schema.c: create or migrate the schema (under an advisory lock).
 * 0, or -1 after a message. */
int pg_migrate(struct store *st);

/* pg_query.c.  msg's first line with every spelling of the password cut
 * out (url, when given, shown as st->path).  Malloc'd. */
char *pg_clean_message(const struct store *st, const char *url, const char *msg);
/* A statement with text parameters (NULL is SQL NULL): its result, or NULL
 * after a message saying what failed. */
PGresult *pg_query(struct store *st, const char *sql, int nparams, const char *const *params, const char *what);
/* Statements without parameters, several at once.  0, or -1 after a
 * message. */
int pg_exec(struct store *st, const char *sql, const char *what);
/* A write transaction (the read timeout lifted), its commit, its rollback. */
int pg_begin(struct store *st);
int pg_commit(struct store *st);
void pg_rollback(struct store *st);
/* A result's column as malloc'd text, text it holds, a number, JSON (an
 * empty object for NULL); NULL text and 0 for SQL NULL. */
char *pg_col_text(const PGresult *res, int row, int col);
const char *pg_col_text_ref(const PGresult *res, int row, int col);
int64_t pg_col_int64(const PGresult *res, int row, int col);
double pg_col_double(const PGresult *res, int row, int col);
json_t *pg_col_json(const PGresult *res, int row, int col);

/* Numbers as parameters: 17 significant digits keep a double exact. */
struct pg_num {
	char s[40];
};
/* v as a parameter (NULL for a NaN, as SQLite stores it), in n. */
const char *pg_fmt_double(struct pg_num *n, double v);
const char *pg_fmt_int(struct pg_num *n, int64_t v);
/* The id in the first row of an INSERT ... RETURNING id.  0, or -1. */
int pg_insert_id(struct store *st, const char *sql, int nparams, const char *const *params, const char *what,
		 int64_t *id);

#endif
