/* Inside store/: what sqlite.c and sqlite_lock.c share. */
#ifndef VMR_STORE_SQLITE_INT_H
#define VMR_STORE_SQLITE_INT_H

#include "store/backend.h"
#include "core/path.h"
#include "core/util.h"

/* sqlite_open.c: the back end's open and close, and what sqlite.c shares
 * with them.  Errors are said of the file (store_fail), with what SQLite's
 * error means to its user: a damaged file, one that is no database. */
int sqlite_open(struct store **out, const char *path, enum store_mode mode);
void sqlite_close(struct store *st);
int store_fail(struct store *st, const char *what);
int store_exec(struct store *st, const char *sql, const char *what);
struct sqlite3_stmt *store_prepare(struct store *st, const char *sql);
/* Writers take the lock at BEGIN, so two writers wait (busy timeout)
 * instead of failing half-way with SQLITE_BUSY on upgrade. */
int store_begin(struct store *st);
int store_commit(struct store *st);
void store_rollback(struct store *st);

/* sqlite_lock.c */
void sqlite_lockfile_tidy(struct store *st);
int sqlite_hold(struct store *st, int64_t run_id, bool hold);
bool sqlite_running(struct store *st, int64_t run_id);

#endif
