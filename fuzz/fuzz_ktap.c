/* Fuzz the KTAP parser line by line: any bytes, never a read past a line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/ktap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ktap k;
	ktap_init(&k);
	const char *p = (const char *)data, *end = p + size;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		/* a copy exactly the line's size, so ASan sees a read past it */
		char *line = malloc(n ? n : 1);
		memcpy(line, p, n);
		struct ktap_case c;
		if (ktap_line(&k, line, n, &c) == 1) {
			if (c.name_len > KTAP_NAME_MAX && c.name != line && (c.name < line || c.name >= line + n))
				abort();
			volatile size_t sum = 0;
			for (size_t i = 0; i < c.name_len; i++)
				sum += (unsigned char)c.name[i];
			for (size_t i = 0; c.reason && i < c.reason_len; i++)
				sum += (unsigned char)c.reason[i];
			(void)sum;
		}
		free(line);
		p += n + 1;
	}
	return 0;
}
