/* Fuzz the .modinfo reader: kernel module files come from a downloaded
 * package and are parsed before anything checks them. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vm/modules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strlist deps = { 0 };
	const char *why;
	/* an 8-aligned private copy, as vmr_read_file's buffer is */
	unsigned char *buf = malloc(size ? size : 1);
	memcpy(buf, data, size);
	modules_modinfo_deps(buf, size, &deps, &why);
	strlist_free(&deps);
	free(buf);
	return 0;
}
