/* Fuzz the pressure stall information parser. */
#include <stdlib.h>

#include "probe/pressure.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pressure p = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (pressure_parse(&p, (const char *)data, size, err) == 0) {
		if (p.some.avg10 > 100 || p.some.avg60 > 100 || p.some.avg300 > 100)
			abort();        /* percentages above 100 are rejected */
	} else if (!err[0]) {
		abort();
	}
	return 0;
}
