/* Fuzz the trace reader: any bytes must be accepted as a valid trace or
 * refused with a message, never read out of bounds.  Each input is parsed
 * twice: as given, and with the checksum check off, so that mutations get
 * past the CRC to the header fields and the page-index check. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "refs/stats.h"
#include "refs/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* an aligned copy, as mmap gives the reader */
	void *buf = malloc(size ? size : 1);
	memcpy(buf, data, size);
	char err[256] = "";
	struct refs_header h = { 0 };
	const uint32_t *body;
	for (unsigned flags = 0; flags <= REFS_PARSE_NO_CHECKSUM; flags += REFS_PARSE_NO_CHECKSUM) {
		if (refs_parse(buf, size, flags, &h, &body, err, sizeof(err)) < 0) {
			if (!err[0])
				abort(); /* a refusal must say why */
			continue;
		}
		if (h.references <= 4096 && h.pages <= 4096) {
			struct refs_stats st = { 0 };
			if (refs_stats_compute(body, h.references, h.pages, 0, 3, &st) == 0)
				refs_stats_free(&st);
		}
	}
	free(buf);
	return 0;
}
