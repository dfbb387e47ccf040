/* Fuzz the reader of LAVA's results (lava-run's log, REST results, the
 * run's JSON framed in the log): the YAML comes from a lab's server and
 * from a device's console. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/run.h"
#include "store/store.h"
#include "vm/lava.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	struct lava_results r = { 0 };
	char why[256];
	if (lava_results_read(text, size, &r, why, sizeof(why)) == 0) {
		struct run *run = lava_results_run(&r, "fuzz");
		if (run)
			run_free(run);
		char *json = NULL;  /* a run's JSON framed in the device's output */
		size_t jlen = 0;
		if (lava_attached_json(&r, &json, &jlen, why, sizeof(why)) > 0)
			free(json);
		lava_results_free(&r);
	}
	free(text);
	return 0;
}
