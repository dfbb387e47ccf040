/* Fuzz the /proc/PID/maps parser. */
#include <stdlib.h>

#include "probe/pagemap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct maps m = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (maps_parse(&m, (const char *)data, size, err) < 0) {
		if (m.vmas || !err[0])
			abort();
		return 0;
	}
	for (size_t i = 0; i < m.n; i++) {
		const struct maps_vma *v = &m.vmas[i];
		if (v->start >= v->end || (i && v->start < m.vmas[i - 1].end) || maps_find(&m, v->start) != v)
			abort();
	}
	maps_free(&m);
	return 0;
}
