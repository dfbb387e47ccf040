#define VMR_LAZYLIB_FILL
#include "store/sqlitelib.h"

struct sqlitelib sqlitelib = { 0 };

#define SQLITELIB_FN(f) LAZYLIB_FN(sqlitelib, f)
static const struct lazylib_fn sqlitelib_fns[] = { SQLITELIB_FNS(SQLITELIB_FN) };

struct lazylib sqlitelib_lib = {
	.soname = SQLITELIB_SONAME, .package = "libsqlite3-0", .needed_by = "a SQLite store needs",
	.fns = sqlitelib_fns, .nfns = sizeof(sqlitelib_fns) / sizeof(sqlitelib_fns[0]),
	.table = &sqlitelib, .table_size = sizeof(sqlitelib),
};
