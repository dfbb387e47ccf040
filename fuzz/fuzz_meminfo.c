/* Fuzz the /proc/meminfo parser. */
#include <stdlib.h>

#include "probe/meminfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct meminfo m = { 0 };
	char err[PROBE_ERR_MAX] = "";
	uint64_t v;
	if (meminfo_parse(&m, (const char *)data, size, err) == 0) {
		for (size_t i = 0; i < m.n; i++)
			if (meminfo_get(&m, m.items[i].name, &v) < 0)
				abort();
	} else if (!err[0]) {
		abort();
	}
	meminfo_free(&m);
	return 0;
}
