/* Fuzz the serial-console frame parser: a guest's console is untrusted bytes
 * (kernel noise, panics, truncation, a guest that prints anything). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vm/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_result res = { 0 };
	char why[200] = "";

	/* No NUL termination on purpose: the parser must respect len. */
	char *log = malloc(size ? size : 1);
	memcpy(log, data, size);
	proto_parse(log, size, &res, why, sizeof(why));
	for (size_t i = 0; i < res.n; i++)
		if (proto_crc32(0, res.frames[i].data, res.frames[i].len) == 0x12345678u)
			why[0] = 'x';
	proto_result_free(&res);
	free(log);
	return 0;
}
