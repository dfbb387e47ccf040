/* The one-screen text of compare (compare_fmt.h): the verdict, its trust
 * warnings in words, and a pointer to the rest. */
#include <stdlib.h>
#include <string.h>

#include "report/compare_int.h"

/* "a, b and c", of the first three labels, "and 2 more" after. */
static void cmp_runs_text(FILE *f, const struct strlist *runs)
{
	for (size_t i = 0; i < runs->n && i < 3; i++)
		fprintf(f, "%s%s", i == 0 ? "" : i + 1 == runs->n ? " and " : ", ", runs->v[i]);
	if (runs->n > 3)
		fprintf(f, " and %zu more", runs->n - 3);
}

char *compare_trust_text(const struct cmp_trust *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fputs("Caution: ", f);
	switch (t->kind) {
	case CMP_TRUST_INCOMPLETE:
		cmp_runs_text(f, &t->runs);
		if (t->detail && !strcmp(t->detail, "running"))
			fprintf(f, " %s still being written: only the iterations stored so far",
				t->runs.n == 1 ? "is" : "are");
		else
			fprintf(f, " did not complete (%s): %s part-way, with only what ran before",
				t->detail ? t->detail : "?",
				t->detail && !strcmp(t->detail, "failed") ? "failed" : "stopped");
		break;
	case CMP_TRUST_APART:
		cmp_runs_text(f, &t->runs);
		fprintf(f, " %s not interleaved with the base: the machine's drift between runs can pass for an "
			   "effect; run them as variants of one run (run --variant) to interleave",
			t->runs.n == 1 ? "was" : "were");
		break;
	case CMP_TRUST_KDAMOND:
		fprintf(f, "a kdamond with a %s scheme was on during ", t->detail);
		cmp_runs_text(f, &t->runs);
		fputs(": DAMON reclaims host-wide, the sandbox's pages too", f);
		break;
	case CMP_TRUST_SANDBOXES:
		fprintf(f, "%zu other sandbox%s live when ", t->count, t->count == 1 ? " was" : "es were");
		cmp_runs_text(f, &t->runs);
		fputs(" started: another run's load and swap shared the machine", f);
		break;
	case CMP_TRUST_CASES:
		fprintf(f, "--cases '%s': the FDR family is the %zu headline test%s of the cases it matches, so "
			   "q-values differ from those of the whole comparison", t->detail, t->count,
			t->count == 1 ? "" : "s");
		break;
	case CMP_TRUST_HUGEPAGE:
		fprintf(f, "%zu khugepaged collapse%s and %zu compaction stall%s during ", t->count,
			t->count == 1 ? "" : "s", t->stalls, t->stalls == 1 ? "" : "s");
		cmp_runs_text(f, &t->runs);
		fputs(": host-wide counts (the runs' own among them) of page copying and moving behind the "
		      "measurement", f);
		break;
	case CMP_TRUST_STEAL:
		fprintf(f, "the hypervisor stole up to %.1f%% of the host's CPU time during ", t->share);
		cmp_runs_text(f, &t->runs);
		fputs(": the workload waited for CPUs its times count as its own", f);
		break;
	}
	fclose(f);
	return buf;
}


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
