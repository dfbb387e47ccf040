/* Fuzz the result readers: the store and the guest protocol feed them
 * bytes that may be damaged.  The JSON reader, and the text reader the
 * store uses (result_from_text_parts), which must take what the JSON
 * reader takes and give the same result. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"

/* result_to_json of r as text, for comparing two results. */
static char *dump(const struct result *r)
{
	json_t *j = result_to_json(r);
	char *s = j ? json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT) : NULL;
	json_decref(j);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result t = { 0 };
	const char *twhy = NULL;
	int trc = result_from_text_parts((const char *)data, size, RESULT_ALL, &t, &twhy);
	json_t *j = json_loadb((const char *)data, size, 0, NULL);
	struct result r = { 0 };
	const char *why;
	if (j && result_from_json(j, &r, &why) == 0) {
		char *a = dump(&r), *b = trc == 1 ? dump(&t) : NULL;
		/* what the JSON reader takes, the text reader takes the same */
		if (!a || !b || strcmp(a, b))
			abort();
		free(a);
		free(b);
		result_free(&r);
	}
	if (trc == 1)
		result_free(&t);
	json_decref(j);
	return 0;
}
