/* Fuzz pagemap entry decoding and the encoded map. */
#include <stdlib.h>

#include "probe/pagemap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pagemap_counts c = { 0 };
	char err[PROBE_ERR_MAX] = "";
	size_t n = size / 8;
	char *state = malloc(n + 1), *enc = malloc(n / 4 + 2), dec[4];
	enum pagemap_layout layout = size && (data[0] & 1) ? PAGEMAP_LAYOUT_PSHIFT : PAGEMAP_LAYOUT_CURRENT;
	if (pagemap_parse(data, size, layout, &c, state, err) == 0) {
		if (c.pages != n || c.present + c.swapped > n || c.exclusive > c.present ||
		    c.file > c.present + c.swapped)
			abort();
		size_t m = pagemap_encode_map(state, n, enc);
		for (size_t i = 0; i < m; i++)
			if (pagemap_decode_char(enc[i], dec) < 0)
				abort();
	} else if (!err[0]) {
		abort();
	}
	free(state);
	free(enc);
	return 0;
}
