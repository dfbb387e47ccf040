/* A comparison's verdict in words (compare_fmt.h): the verdict line, the
 * lines text output leads with (a line per headline metric and run, the
 * explanations), the trust warnings as sentences and what was left out.
 * Every writer of a comparison for people calls these; they call no other
 * formatter. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare_int.h"

char *cmp_fmt_scaled(char *buf, size_t len, double v, const char *unit)
{
	return units_format_value(buf, len, v, unit);
}

static const char *cmp_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

char *compare_verdict_line(char *buf, size_t len, const struct comparison *cmp)
{
	const struct cmp_tally *t = &cmp->tally;
	size_t n = t->regressed + t->improved + t->same + t->unstable + t->too_few + t->changed;
	FILE *f = fmemopen(buf, len, "w");
	if (!f) {
		snprintf(buf, len, "?");
		return buf;
	}
	if (!n && !cmp->nshared)
		fputs("Nothing to compare: the runs share no case with a passing iteration (what each lacks is "
		      "listed below)", f);
	else if (!n)
		fputs("No headline metric to judge (no workload declares one of these; --headline GLOB names some)", f);
	else
		fprintf(f, "%zu %s, %zu %s, %zu unchanged, %zu unstable", t->regressed,
			cmp_plural(t->regressed, "regression", "regressions"), t->improved,
			cmp_plural(t->improved, "improvement", "improvements"), t->same, t->unstable);
	if (t->changed)
		fprintf(f, ", %zu changed", t->changed);
	if (t->too_few)
		fprintf(f, ", %zu too few to say", t->too_few);
	if (n && cmp->ninterleaved + 1 == cmp->nruns)
		fprintf(f, " (FDR %g%%, noise floor %g%%: variants interleaved; unstable: cannot tell)",
			cmp->alpha * 100, cmp->noise_min * 100);
	else if (n && cmp->ninterleaved)
		fprintf(f, " (FDR %g%%, noise floor %g%% for interleaved variants, max(%g%%, CV) for other runs; "
			"unstable: cannot tell)", cmp->alpha * 100, cmp->noise_min * 100, cmp->noise_min * 100);
	else if (n)
		fprintf(f, " (FDR %g%%, noise floor max(%g%%, CV); unstable: cannot tell)", cmp->alpha * 100,
			cmp->noise_min * 100);
	fclose(f);
	return buf;
}

static char *cmp_fmt_change(char *buf, size_t len, double ratio)
{
	snprintf(buf, len, "%+.1f%%", cmp_ratio_pct(ratio));
	return buf;
}

static bool cmp_is_finding(enum cmp_verdict v)
{
	return v == CMP_REGRESSED || v == CMP_IMPROVED || v == CMP_CHANGED;
}

/* "+105.3% [95% CI +98.2%, +112.1%]", or "+12" when a percentage would
 * mislead. */
static void cmp_change_text(FILE *f, const struct cmp_cell *c, const struct cmp_cell *base)
{
	char a[32], lo[32], hi[32];
	if (c->abs_change || isnan(c->ratio)) {
		fprintf(f, "%+.4g (absolute)", c->s.mean - base->s.mean);
		return;
	}
	fprintf(f, "%s", cmp_fmt_change(a, sizeof(a), c->ratio));
	if (isfinite(c->ci_low) && isfinite(c->ci_high))
		fprintf(f, " [95%% CI %s, %s]", cmp_fmt_change(lo, sizeof(lo), c->ci_low),
			cmp_fmt_change(hi, sizeof(hi), c->ci_high));
}

/* "; mean 1.23 s -> 1.01 s": the figures the ratio is of. */
static void cmp_values_text(FILE *f, const struct cmp_row *row, const struct cmp_cell *c, const struct cmp_cell *base)
{
	char a[64], b[64];
	bool med = row->test == CMP_TEST_MWU;
	double va = med ? base->median : base->s.mean;
	double vb = med ? c->median : c->s.mean;
	fprintf(f, "; %s %s -> %s", med ? "median" : row->combine == COMBINE_HMEAN ? "hmean" : "mean",
		cmp_fmt_scaled(a, sizeof(a), va, row->unit), cmp_fmt_scaled(b, sizeof(b), vb, row->unit));
}

static const char *cmp_test_name(const struct cmp_row *row, const struct cmp_cell *c)
{
	if (c->paired)
		return row->test == CMP_TEST_MWU ? "signed-rank" : "paired t";
	return row->test == CMP_TEST_MWU ? "Mann-Whitney" : "Welch";
}

char *cmp_headline_line(const struct comparison *cmp, const struct cmp_row *row, size_t i)
{
	const struct cmp_cell *c = &row->cells[i], *base = &row->cells[0];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "  %-9s  %s %s in %s: ", cmp_verdict_name(c->verdict), row->case_name, row->metric, cmp->labels[i]);
	switch (c->verdict) {
	case CMP_MISSING:
		fputs("not in both runs", f);
		break;
	case CMP_TOO_FEW:
		fprintf(f, "%zu and %zu passing iterations (%d needed on each side)", base->s.n, c->s.n,
			CMP_MIN_ITERATIONS);
		break;
	case CMP_UNSTABLE:
		fputs("cannot tell, ", f);
		cmp_change_text(f, c, base);
		if (c->ci_low <= 1 && c->ci_high >= 1)
			fprintf(f, " spans no change and more than the %.1f%% floor", c->noise_floor * 100);
		else
			fprintf(f, " q=%.2g: beyond the %.1f%% floor, not called at the FDR", c->q, c->noise_floor * 100);
		if (c->settle_n > 0)
			fprintf(f, "; about %zu %s a side would settle it (%zu more)", c->settle_n,
				c->paired ? "blocks" : "iterations",
				c->settle_n - (c->paired ? c->npairs : (base->s.n > c->s.n ? base->s.n : c->s.n)));
		cmp_values_text(f, row, c, base);
		break;
	default:
		cmp_change_text(f, c, base);
		fprintf(f, " q=%.2g (p=%.2g, %s; noise floor %.1f%%)", c->q, c->p, cmp_test_name(row, c),
			c->noise_floor * 100);
		cmp_values_text(f, row, c, base);
		if (c->noisy)
			fprintf(f, "; noisy: CV %.1f%% and %.1f%% (above %g%%)", base->s.cv * 100, c->s.cv * 100,
				cmp->unstable_cv * 100);
		if (c->verdict == CMP_SAME && isfinite(c->mde))
			fprintf(f, "; could have seen >= %.1f%%", c->mde * 100);
	}
	fclose(f);
	return buf;
}

static char *cmp_explain_line(const struct comparison *cmp, size_t r, size_t i)
{
	const struct cmp_row *row = &cmp->rows[r];
	size_t ex[4], n = cmp_explain(cmp, r, i, ex, ARRAY_SIZE(ex));
	if (!n)
		return NULL;
	char *buf = NULL, pct[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fprintf(f, "  %s %s %s in %s:", row->case_name, row->metric,
		row->cells[i].abs_change ? "changed" : cmp_fmt_change(pct, sizeof(pct), row->cells[i].ratio),
		cmp->labels[i]);
	for (size_t k = 0; k < n; k++) {
		const struct cmp_row *x = &cmp->rows[ex[k]];
		const struct cmp_cell *c = &x->cells[i];
		char va[48], vb[48];
		if (c->abs_change || isnan(c->ratio))
			fprintf(f, "%s %s %s -> %s", k ? "," : "", x->metric,
				units_format_value(va, sizeof(va), x->cells[0].s.mean, x->unit),
				units_format_value(vb, sizeof(vb), c->s.mean, x->unit));
		else
			fprintf(f, "%s %s %s", k ? "," : "", x->metric, cmp_fmt_change(pct, sizeof(pct), c->ratio));
	}
	fclose(f);
	return buf;
}

void compare_verdict_lines(const struct comparison *cmp, struct strlist *out)
{
	char line[512];
	strlist_add(out, compare_verdict_line(line, sizeof(line), cmp));
	if (cmp->noise_from) {
		size_t heads = 0;
		for (size_t r = 0; r < cmp->nrows; r++)
			heads += cmp->rows[r].headline;
		snprintf(line, sizeof(line), "Noise floor and MDE from A/A group %s: its CV and spread, for %zu of %zu "
			 "headline metric%s", cmp->noise_from, cmp->noise_from_rows, heads, heads == 1 ? "" : "s");
		strlist_add(out, line);
	}
	for (size_t k = 0; k < cmp->ntrust; k++) {
		char *t = compare_trust_text(&cmp->trust[k]);
		strlist_add(out, t);
		free(t);
	}
	if (cmp->env_flags.n) {
		strlist_add(out, "Environment differs beyond the settings compared (a change may be the machine's):");
		for (size_t k = 0; k < cmp->env_flags.n; k++) {
			snprintf(line, sizeof(line), "  %s", cmp->env_flags.v[k]);
			strlist_add(out, line);
		}
	}
	/* Findings first, then the other headline cells. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t r = 0; r < cmp->nrows; r++)
			for (size_t i = 1; cmp->rows[r].headline && i < cmp->nruns; i++) {
				enum cmp_verdict v = cmp->rows[r].cells[i].verdict;
				/* A case or metric a run lacks is under "Left out". */
				if (cmp_is_finding(v) != (pass == 0) || v == CMP_MISSING)
					continue;
				char *l = cmp_headline_line(cmp, &cmp->rows[r], i);
				strlist_add(out, l);
				free(l);
			}
	bool any = false;
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 1; cmp->rows[r].headline && i < cmp->nruns; i++) {
			if (!cmp_is_finding(cmp->rows[r].cells[i].verdict))
				continue;
			char *l = cmp_explain_line(cmp, r, i);
			if (l && !any)
				strlist_add(out, "Explanations (the same case's other metrics that changed):");
			any |= l != NULL;
			if (l)
				strlist_add(out, l);
			free(l);
		}
}

char *compare_left_text(const struct cmp_left *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	switch (l->why) {
	case CMP_LEFT_NO_PASS:
		fprintf(f, "metric '%s' of case '%s' has no passing iteration in %s", l->metric, l->case_name, l->run);
		break;
	case CMP_LEFT_ZERO:
		fprintf(f, "%zu metric%s of case '%s' %s zero in every run:", l->metrics.n, l->metrics.n == 1 ? "" : "s",
			l->case_name, l->metrics.n == 1 ? "is" : "are");
		for (size_t i = 0; i < l->metrics.n && i < 6; i++)
			fprintf(f, "%s %s", i ? "," : "", l->metrics.v[i]);
		if (l->metrics.n > 6)
			fprintf(f, " and %zu more", l->metrics.n - 6);
		break;
	case CMP_LEFT_FAILED:
	case CMP_LEFT_WARMUP:  /* as run and show say a warm-up */
		fprintf(f, "%zu of %zu iterations of case '%s' in %s %s", l->count, l->of, l->case_name, l->run,
			l->why == CMP_LEFT_FAILED ? "did not pass and are not counted"
			: l->count == 1 ? "is a warm-up iteration, not counted" : "are warm-up iterations, not counted");
		break;
	case CMP_LEFT_ONLY_IN_RUN:
		if (l->metric)
			fprintf(f, "metric '%s' of case '%s' is only in %s, not in the base", l->metric, l->case_name,
				l->run);
		else
			fprintf(f, "case '%s' is only in %s, not in the base", l->case_name, l->run);
		break;
	case CMP_LEFT_NOT_IN_RUN:
		fprintf(f, "case '%s' is not in %s", l->case_name, l->run);
		break;
	}
	fclose(f);
	return buf;
}

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
