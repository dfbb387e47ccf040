/* Fuzz BTF loading and the structure-size lookup: `sense structsizes` reads
 * a BTF file the user names, and a kernel's BTF may come from anywhere.
 * libbpf checks the data; our lookups must then be safe on whatever it
 * accepted (loops of typedefs, sizes that overflow, missing names). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "probe/btf.h"

static void btf_fuzz_size(const struct btf *b, const char *name)
{
	char err[PROBE_ERR_MAX] = "";
	uint64_t sz;
	if (btf_struct_size(b, name, &sz, err) < 0 && !err[0])
		abort();  /* a miss must say why */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const more[] = { "list_head", "pg_data_t", "", NULL };
	char err[PROBE_ERR_MAX] = "";
	struct btf *b = btf_load_mem(data, size, err);
	if (!b) {
		if (!err[0])
			abort();  /* a refusal must say why */
		return 0;
	}
	for (const char *const *n = btf_vm_structs; *n; n++)
		btf_fuzz_size(b, *n);
	for (const char *const *n = more; *n; n++)
		btf_fuzz_size(b, *n);
	btf_unload(b);
	return 0;
}
