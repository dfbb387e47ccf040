/* Fuzz the readers of one-value sysfs files, zram's mm_stat line and
 * MGLRU's enabled mask: each gets the whole input. */
#include <stdlib.h>
#include <string.h>

#include "probe/lru_gen.h"
#include "probe/swapinfo.h"
#include "probe/sysfsdir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	char err[PROBE_ERR_MAX] = "";
	struct sysfs_value v = { .name = "" };
	if (sysfs_value_parse(&v, buf, size, err) < 0) {
		if (!err[0])
			abort();
	} else if (strlen(v.value) >= sizeof(v.value) || (v.is_number && v.value[0] == '\0')) {
		abort();
	}
	err[0] = '\0';
	struct zram_mm_stat m = { 0 };
	if (zram_mm_stat_parse(&m, buf, size, err) < 0 ? !err[0] : m.n < ZRAM_MM_STAT_MIN || m.n > ZRAM_MM_STAT_MAX)
		abort();
	err[0] = '\0';
	uint64_t mask;
	if (lru_gen_parse_enabled(buf, size, &mask, err) < 0 && !err[0])
		abort();
	return 0;
}
