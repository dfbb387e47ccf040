/* Part of the static build only.  The ordinary build loads GSL, libbpf and
 * SQLite on first use (core/lazylib.h); the static binary has them linked
 * in and cannot dlopen, so their tables are filled here, at compile time,
 * from the linked functions, and loading them always succeeds. */
#define VMR_LAZYLIB_FILL
#include "probe/bpflib.h"
#include "stats/gsllib.h"
#include "store/sqlitelib.h"

#define LIBS_ENTRY(f) .f = f,

struct gsllib gsllib = { GSLLIB_FNS(LIBS_ENTRY) };
struct bpflib bpflib = { BPFLIB_FNS(LIBS_ENTRY) };
struct sqlitelib sqlitelib = { SQLITELIB_FNS(LIBS_ENTRY) };
struct lazylib gsllib_lib = { .soname = GSLLIB_SONAME };
struct lazylib bpflib_lib = { .soname = BPFLIB_SONAME };
struct lazylib sqlitelib_lib = { .soname = SQLITELIB_SONAME };

int lazylib_load(struct lazylib *l, const char **why)
{
	*why = "";
	return 0;
}

void lazylib_need(struct lazylib *l)
{
}
