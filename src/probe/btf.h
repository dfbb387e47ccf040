/* Sizes of the kernel's structures from BTF (libbpf).  /sys/kernel/btf/vmlinux
 * exists when the kernel was built with CONFIG_DEBUG_INFO_BTF (5.4 and later
 * on most distributions). */
#ifndef VMR_PROBE_BTF_H
#define VMR_PROBE_BTF_H

#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

struct btf;                     /* libbpf's */

/* The VM structures `sense structsizes` reports by default, NULL-ended. */
extern const char *const btf_vm_structs[];

/* Load the running kernel's BTF (path NULL: /sys/kernel/btf/vmlinux, or
 * when that is missing an ELF vmlinux libbpf finds under /boot) or a BTF
 * file (raw or ELF).  NULL with err when there is none ("no BTF:
 * /sys/kernel/btf/vmlinux: No such file or directory"). */
struct btf *btf_load(const char *path, char *err);
/* Parse BTF from a buffer (raw .BTF data).  NULL with err. */
struct btf *btf_load_mem(const void *buf, size_t len, char *err);
void btf_unload(struct btf *btf);

/* Size in bytes of `struct name` (or a union or typedef of that name).
 * 0, or -1 with err "no struct NAME in BTF". */
int btf_struct_size(const struct btf *btf, const char *name, uint64_t *size, char *err);

#endif
