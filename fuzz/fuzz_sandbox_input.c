/* Fuzz what users and the disk hand the sandbox: --swap specs, --set
 * NAME=VALUE, names of things vmregress made, and swap header pages read
 * back from devices during cleanup. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/journal.h"
#include "sandbox/knobs.h"
#include "sandbox/swap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[256];
	size_t n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
	memcpy(text, data, n);
	text[n] = '\0';
	const char *why, *value;
	struct swap_spec sp = { 0 };
	if (swap_spec_parse(text, &sp, &why) == 0 && sp.kind > SWAP_NONE)
		abort();
	const struct knob *k = knob_parse_set(text, &value, &why);
	if (k && (strchr(k->name, '/') || strlen(value) >= JOURNAL_VALUE_MAX))
		abort();
	struct owner o = { 0 };
	int seq;
	if (owner_name_parse(text, NULL, &o, &seq) == 0 && o.pid <= 0)
		abort();
	char copy[256];
	snprintf(copy, sizeof(copy), "%s", text);
	knob_normalize(copy);

	/* a swap header page: the input, zero-padded to 4096 bytes */
	unsigned char *page = calloc(1, 4096);
	memcpy(page, data, size < 4096 ? size : 4096);
	struct swap_tag tag = { 0 };
	uint64_t last;
	if (swap_header_parse(page, 4096, &tag, &last) == 1 && tag.owner.pid <= 0)
		abort();
	free(page);
	return 0;
}
