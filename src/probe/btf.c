/* Structure sizes from BTF, through libbpf. */
#include "probe/btf.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "probe/bpflib.h"

const char *const btf_vm_structs[] = {
	"page", "folio", "vm_area_struct", "mm_struct", "zone", "pglist_data",
	"address_space", "anon_vma", "lruvec", "mem_cgroup", "swap_info_struct",
	"vm_fault", "task_struct", "per_cpu_pages", "free_area", "page_counter",
	"vmap_area", "vm_struct", "swap_cluster_info", "anon_vma_chain",
	NULL,
};

/* libbpf prints its own warnings by default; the probes report instead. */
static int btf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

#define BTF_VMLINUX "/sys/kernel/btf/vmlinux"

/* Loads libbpf, or says why it cannot. */
static int btf_lib(char *err)
{
	const char *why = NULL;
	if (lazylib_load(&bpflib_lib, &why) < 0) {
		probe_err(err, 0, "%s", why);
		return -1;
	}
	libbpf_set_print(btf_quiet);
	return 0;
}

struct btf *btf_load(const char *path, char *err)
{
	struct btf *b;
	if (btf_lib(err) < 0)
		return NULL;
	if (!path && access(BTF_VMLINUX, F_OK) < 0) {
		/* libbpf also looks for an ELF vmlinux with .BTF under /boot */
		int e = errno;
		b = btf__load_vmlinux_btf();
		if (!b)
			probe_err(err, 0, "no BTF: %s: %s (kernel built without CONFIG_DEBUG_INFO_BTF?)",
				  BTF_VMLINUX, strerror(e));
		return b;
	}
	if (!path)
		path = BTF_VMLINUX;
	b = btf__parse(path, NULL);
	if (!b) {
		int e = errno;
		probe_err(err, 0, "no BTF: %s: %s", path,
			  e == EACCES || e == ENOENT || e == EPERM ? strerror(e) : "not readable as BTF");
	}
	return b;
}

struct btf *btf_load_mem(const void *buf, size_t len, char *err)
{
	if (btf_lib(err) < 0)
		return NULL;
	struct btf *b = btf__new(buf, (__u32)len);
	if (!b) {
		probe_err(err, 0, "not BTF data: %s", strerror(errno));
		return NULL;
	}
	return b;
}

void btf_unload(struct btf *btf)
{
	btf__free(btf);
}

int btf_struct_size(const struct btf *btf, const char *name, uint64_t *size, char *err)
{
	static const int kinds[] = { BTF_KIND_STRUCT, BTF_KIND_UNION, BTF_KIND_TYPEDEF };
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		__s32 id = btf__find_by_name_kind(btf, name, (__u32)kinds[i]);
		if (id <= 0)
			continue;
		__s64 sz = btf__resolve_size(btf, (__u32)id);
		if (sz < 0) {
			probe_err(err, 0, "struct %s: size not resolvable: %s", name, strerror((int)-sz));
			return -1;
		}
		*size = (uint64_t)sz;
		return 0;
	}
	probe_err(err, 0, "no struct %s in BTF", name);
	return -1;
}
