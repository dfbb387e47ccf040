/* Fuzz the /proc/swaps parser. */
#include <stdlib.h>

#include "probe/system.h"
#include "probe/probe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[PROBE_ERR_MAX] = "";
	json_t *a = system_parse_swaps((const char *)data, size, err);
	if (!a && !err[0])
		abort();
	json_decref(a);
	return 0;
}
