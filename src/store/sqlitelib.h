/* SQLite, loaded when a SQLite store is first opened (core/lazylib.h says
 * why and how).  sqlite.c includes this. */
#ifndef VMR_STORE_SQLITELIB_H
#define VMR_STORE_SQLITELIB_H

#include <sqlite3.h>

#include "core/lazylib.h"

#define SQLITELIB_SONAME "libsqlite3.so.0"

#define SQLITELIB_FNS(X) \
	X(sqlite3_bind_double) X(sqlite3_bind_int) X(sqlite3_bind_int64) X(sqlite3_bind_null) \
	X(sqlite3_bind_text) X(sqlite3_blob_bytes) X(sqlite3_blob_close) X(sqlite3_blob_open) \
	X(sqlite3_blob_read) X(sqlite3_blob_reopen) X(sqlite3_busy_timeout) X(sqlite3_changes) X(sqlite3_close) \
	X(sqlite3_column_double) X(sqlite3_column_int) X(sqlite3_column_int64) \
	X(sqlite3_column_text) X(sqlite3_column_type) X(sqlite3_errcode) X(sqlite3_errmsg) X(sqlite3_exec) \
	X(sqlite3_finalize) X(sqlite3_free) X(sqlite3_last_insert_rowid) X(sqlite3_open_v2) \
	X(sqlite3_prepare_v2) X(sqlite3_reset) X(sqlite3_step)

#define SQLITELIB_FIELD(f) __typeof__(f) *f;
struct sqlitelib {
	SQLITELIB_FNS(SQLITELIB_FIELD)
};
#undef SQLITELIB_FIELD

extern struct sqlitelib sqlitelib;
extern struct lazylib sqlitelib_lib;

/* The table; sqlite_open loads it with an error to return first, so this
 * only exits 3 if a call comes without it. */
static inline const struct sqlitelib *sqlitelib_get(void)
{
	lazylib_need(&sqlitelib_lib);
	return &sqlitelib;
}

#ifndef VMR_LAZYLIB_FILL
#define sqlite3_bind_double (sqlitelib_get()->sqlite3_bind_double)
#define sqlite3_bind_int (sqlitelib_get()->sqlite3_bind_int)
#define sqlite3_bind_int64 (sqlitelib_get()->sqlite3_bind_int64)
#define sqlite3_bind_null (sqlitelib_get()->sqlite3_bind_null)
#define sqlite3_bind_text (sqlitelib_get()->sqlite3_bind_text)
#define sqlite3_blob_bytes (sqlitelib_get()->sqlite3_blob_bytes)
#define sqlite3_blob_close (sqlitelib_get()->sqlite3_blob_close)
#define sqlite3_blob_open (sqlitelib_get()->sqlite3_blob_open)
#define sqlite3_blob_read (sqlitelib_get()->sqlite3_blob_read)
#define sqlite3_blob_reopen (sqlitelib_get()->sqlite3_blob_reopen)
#define sqlite3_busy_timeout (sqlitelib_get()->sqlite3_busy_timeout)
#define sqlite3_changes (sqlitelib_get()->sqlite3_changes)
#define sqlite3_close (sqlitelib_get()->sqlite3_close)
#define sqlite3_column_double (sqlitelib_get()->sqlite3_column_double)
#define sqlite3_column_int (sqlitelib_get()->sqlite3_column_int)
#define sqlite3_column_int64 (sqlitelib_get()->sqlite3_column_int64)
#define sqlite3_column_text (sqlitelib_get()->sqlite3_column_text)
#define sqlite3_column_type (sqlitelib_get()->sqlite3_column_type)
#define sqlite3_errcode (sqlitelib_get()->sqlite3_errcode)
#define sqlite3_errmsg (sqlitelib_get()->sqlite3_errmsg)
#define sqlite3_exec (sqlitelib_get()->sqlite3_exec)
#define sqlite3_finalize (sqlitelib_get()->sqlite3_finalize)
#define sqlite3_free (sqlitelib_get()->sqlite3_free)
#define sqlite3_last_insert_rowid (sqlitelib_get()->sqlite3_last_insert_rowid)
#define sqlite3_open_v2 (sqlitelib_get()->sqlite3_open_v2)
#define sqlite3_prepare_v2 (sqlitelib_get()->sqlite3_prepare_v2)
#define sqlite3_reset (sqlitelib_get()->sqlite3_reset)
#define sqlite3_step (sqlitelib_get()->sqlite3_step)
#endif

#endif
