/* Fuzz the /proc/stat CPU line parser. */
#include <stdlib.h>

#include "probe/cpustat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpustat c = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (cpustat_parse(&c, (const char *)data, size, err) == 0) {
		if (c.steal > c.total)
			abort();        /* steal is one of the fields summed */
	} else if (!err[0]) {
		abort();
	}
	return 0;
}
