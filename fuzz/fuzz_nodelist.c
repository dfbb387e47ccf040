/* Fuzz the NUMA node list parser (sysfs's "0-1,3"). */
#include <stdlib.h>

#include "probe/numa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t mask = 0;
	char err[PROBE_ERR_MAX] = "";
	if (numa_parse_nodelist((const char *)data, size, &mask, err) < 0 && !err[0])
		abort();        /* a refusal always says why */
	return 0;
}
