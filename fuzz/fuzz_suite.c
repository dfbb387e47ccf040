/* Fuzz the suite parser: suite files are typed by people. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet;
	if (!quiet) {
		/* Every bad suite prints its one error line: keep the log small.
		 * Only our stream moves (freopen would move descriptor 2 and
		 * with it libFuzzer's and the sanitizers' reports). */
		FILE *null = fopen("/dev/null", "w");
		if (null)
			stderr = null;
		quiet = true;
	}
	if (size > 1 << 16 || memchr(data, 0, size))
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	struct suite s = { 0 };
	if (suite_parse(&s, "fuzz.ini", text) == 0) {
		for (size_t i = 0; i < s.ncases; i++)
			json_decref(suite_case_json(&s.cases[i]));
		suite_free(&s);
	}
	free(text);
	return 0;
}
