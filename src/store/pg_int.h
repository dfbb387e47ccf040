/* Inside store/: what pg.c and pg_schema.c share. */
#ifndef VMR_STORE_PG_INT_H
#define VMR_STORE_PG_INT_H

#include <libpq-fe.h>
#include "store/pqlib.h"  /* libpq's functions through the table pqlib_load fills */
#include <stdint.h>

#include "store/backend.h"

int pg_migrate(struct store *st);
PGresult *pg_query(struct store *st, const char *sql, int nparams, const char *const *params,
			  const char *what);
int pg_exec(struct store *st, const char *sql, const char *what);
int pg_begin(struct store *st);
int pg_commit(struct store *st);
void pg_rollback(struct store *st);
int64_t pg_col_int64(const PGresult *res, int row, int col);

#endif
