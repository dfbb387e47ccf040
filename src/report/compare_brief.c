/* The one-screen text of compare (compare_fmt.h): the verdict, its trust
 * warnings in words (compare_verdict.c's), and a pointer to the rest. */
#include <stdlib.h>

#include "report/compare_int.h"

void compare_write_brief(FILE *f, const struct comparison *cmp)
{
	struct strlist verdict = { 0 };
	compare_verdict_lines(cmp, &verdict);
	for (size_t i = 0; i < verdict.n; i++)
		fprintf(f, "%s\n", verdict.v[i]);
	strlist_free(&verdict);
	/* Nothing compared: the cause is what each run lacks, so it comes now. */
	if (!cmp->nshared && cmp->nleft) {
		fputs("Left out:\n", f);
		for (size_t i = 0; i < cmp->nleft; i++) {
			char *t = compare_left_text(&cmp->left_out[i]);
			fprintf(f, "  %s\n", t);
			free(t);
		}
	}
	if (cmp->emulated)
		fputs("Emulated: a run ran in an emulated guest (TCG), where times say more about the emulator.\n", f);
	size_t rows = cmp->nrows, env = cmp->nenv, left = cmp->nshared ? cmp->nleft : 0;
	if (rows || env || left) {
		fprintf(f, "\n--all adds the table of every metric (%zu)", rows);
		if (env)
			fprintf(f, ", the environment's %zu difference%s", env, env == 1 ? "" : "s");
		if (left)
			fprintf(f, ", what was left out (%zu)", left);
		fputs("; --format json, csv and the report always hold them.\n", f);
	}
}
