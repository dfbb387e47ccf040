/* Inside store/: what sqlite.c and sqlite_lock.c share. */
#ifndef VMR_STORE_SQLITE_INT_H
#define VMR_STORE_SQLITE_INT_H

#include "store/backend.h"
#include "core/path.h"
#include "core/util.h"

void sqlite_lockfile_tidy(struct store *st);
int sqlite_hold(struct store *st, int64_t run_id, bool hold);
bool sqlite_running(struct store *st, int64_t run_id);

#endif
