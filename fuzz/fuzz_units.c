/* Fuzz size and time parsing: every option value from users goes through it. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/units.h"
#include "core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[128];
	if (size >= sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	uint64_t v;
	struct vmr_rsize r = { 0 };
	const char *why;
	if (units_parse_size(buf, &v, &why) == 0) {
		char out[64];
		units_format_size(out, sizeof(out), v);
	}
	units_parse_rsize(buf, &r, &why);
	units_parse_time(buf, &v, &why);
	return 0;
}
