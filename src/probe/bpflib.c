#define VMR_LAZYLIB_FILL
#include "probe/bpflib.h"

struct bpflib bpflib = { 0 };

#define BPFLIB_FN(f) LAZYLIB_FN(bpflib, f)
static const struct lazylib_fn bpflib_fns[] = { BPFLIB_FNS(BPFLIB_FN) };

struct lazylib bpflib_lib = {
	.soname = BPFLIB_SONAME, .package = "libbpf1", .needed_by = "BTF needs",
	.fns = bpflib_fns, .nfns = sizeof(bpflib_fns) / sizeof(bpflib_fns[0]),
	.table = &bpflib, .table_size = sizeof(bpflib),
};
