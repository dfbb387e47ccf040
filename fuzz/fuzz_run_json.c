/* Fuzz the run JSON reader and what follows it: compare and report take
 * run files from other machines, which may be damaged or hostile.  A run
 * that parses is compared against itself and formatted every way. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/compare_fmt.h"
#include "report/functional.h"
#include "report/kcidb.h"
#include "report/run_json.h"
#include "stats/compare.h"
#include "stats/functional.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, 0, NULL);
	if (!j)
		return 0;
	const char *why;
	struct run *r = run_from_json(j, &why);
	json_decref(j);
	if (!r)
		return 0;
	const struct run *runs[] = { r, r };
	struct comparison cmp = { 0 };
	compare_runs(runs, 2, &(struct compare_opts){ .alpha = 0.05 }, &cmp);
	struct functional fn = { 0 };
	functional_compare(runs, 2, &fn);  /* its selftest cases, if it holds any */
	FILE *f = fopen("/dev/null", "w");
	if (f) {
		compare_write_text(f, &cmp);
		compare_write_csv(f, &cmp);
		compare_write_markdown(f, &cmp);
		compare_write_junit(f, &cmp, &fn);
		compare_write_tap(f, &cmp, &fn);
		functional_write_text(f, &fn);
		fclose(f);
	}
	struct kcidb_source ks = { 0 };
	json_decref(kcidb_runs(runs, 1, &ks));
	functional_free(&fn);
	json_decref(compare_to_json(&cmp));
	json_decref(run_to_json(r));
	compare_free(&cmp);
	run_free(r);
	return 0;
}
