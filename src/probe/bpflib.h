/* libbpf (and the libelf it pulls in), loaded when BTF is first read
 * (core/lazylib.h says why and how).  btf.c includes this. */
#ifndef VMR_PROBE_BPFLIB_H
#define VMR_PROBE_BPFLIB_H

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "core/lazylib.h"

#define BPFLIB_SONAME "libbpf.so.1"

#define BPFLIB_FNS(X) \
	X(libbpf_set_print) X(btf__load_vmlinux_btf) X(btf__parse) X(btf__new) X(btf__free) \
	X(btf__find_by_name_kind) X(btf__resolve_size)

#define BPFLIB_FIELD(f) __typeof__(f) *f;
struct bpflib {
	BPFLIB_FNS(BPFLIB_FIELD)
};
#undef BPFLIB_FIELD

extern struct bpflib bpflib;
extern struct lazylib bpflib_lib;

/* The table; btf_load and btf_load_mem load it with an error to return
 * first, so this only exits 3 if a call comes without them. */
static inline const struct bpflib *bpflib_get(void)
{
	lazylib_need(&bpflib_lib);
	return &bpflib;
}

#ifndef VMR_LAZYLIB_FILL
#define libbpf_set_print (bpflib_get()->libbpf_set_print)
#define btf__load_vmlinux_btf (bpflib_get()->btf__load_vmlinux_btf)
#define btf__parse (bpflib_get()->btf__parse)
#define btf__new (bpflib_get()->btf__new)
#define btf__free (bpflib_get()->btf__free)
#define btf__find_by_name_kind (bpflib_get()->btf__find_by_name_kind)
#define btf__resolve_size (bpflib_get()->btf__resolve_size)
#endif

#endif
