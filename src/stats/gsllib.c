#define VMR_LAZYLIB_FILL
#include "stats/gsllib.h"

struct gsllib gsllib = { 0 };

#define GSLLIB_FN(f) LAZYLIB_FN(gsllib, f)
static const struct lazylib_fn gsllib_fns[] = { GSLLIB_FNS(GSLLIB_FN) };

struct lazylib gsllib_lib = {
	.soname = GSLLIB_SONAME, .package = "libgsl27", .needed_by = "statistics need",
	.fns = gsllib_fns, .nfns = sizeof(gsllib_fns) / sizeof(gsllib_fns[0]),
	.table = &gsllib, .table_size = sizeof(gsllib),
};
