/* Fuzz the /proc/zoneinfo parser. */
#include <stdlib.h>

#include "probe/zoneinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zoneinfo zi = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (zoneinfo_parse(&zi, (const char *)data, size, err) == 0) {
		for (size_t i = 0; i < zi.nnodes; i++)
			if (zi.nodes[i].nzones == 0 || zi.nodes[i].nzones > ZONEINFO_MAX_ZONES)
				abort();
		zoneinfo_free(&zi);
	} else if (zi.nodes || !err[0]) {
		abort();        /* a failure leaves nothing behind and says why */
	}
	return 0;
}
