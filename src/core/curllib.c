#define VMR_LAZYLIB_FILL
#include "core/curllib.h"

struct curllib curllib = { 0 };

#define CURLLIB_FN(f) LAZYLIB_FN(curllib, f)
static const struct lazylib_fn curllib_fns[] = { CURLLIB_FNS(CURLLIB_FN) };

struct lazylib curllib_lib = {
	.soname = CURLLIB_SONAME, .package = "libcurl4", .needed_by = "sending over HTTP needs",
	.fns = curllib_fns, .nfns = sizeof(curllib_fns) / sizeof(curllib_fns[0]),
	.table = &curllib, .table_size = sizeof(curllib),
};
