/* Fuzz the result JSON reader: the store and the guest protocol feed it
 * bytes that may be damaged. */
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, 0, NULL);
	if (!j)
		return 0;
	struct result r = { 0 };
	const char *why;
	if (result_from_json(j, &r, &why) == 0) {
		json_t *again = result_to_json(&r);
		json_decref(again);
		result_free(&r);
	}
	json_decref(j);
	return 0;
}
