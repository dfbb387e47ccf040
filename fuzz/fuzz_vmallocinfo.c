/* Fuzz the /proc/vmallocinfo parser. */
#include <stdlib.h>

#include "probe/vmalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vmallocinfo vi = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (vmallocinfo_parse(&vi, (const char *)data, size, err) < 0) {
		if (vi.callers || !err[0])
			abort();
		return 0;
	}
	uint64_t areas = 0;
	for (size_t i = 0; i < vi.ncallers; i++)
		areas += vi.callers[i].areas;
	if (areas != vi.areas)
		abort();
	vmallocinfo_free(&vi);
	return 0;
}
