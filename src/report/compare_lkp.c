#include "report/compare_lkp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare_fmt.h"
#include "core/util.h"
#include "stats/lkp.h"

#define LKP_ABS_WIDTH 10
#define LKP_REL_WIDTH 10
#define LKP_ERR_WIDTH 6

static const char *const lkp_mark_names[] = {
	[LKP_BASE] = "base", [LKP_CHANGED] = "changed", [LKP_OVERLAP] = "same",
	[LKP_SMALL] = "same", [LKP_THRESHOLD] = "same", [LKP_TOO_FEW] = "too few",
	[LKP_MISSING] = "missing",
};

static const char *const lkp_why_text[] = {
	[LKP_AGREE] = "",
	[LKP_WHY_Q] = "LKP's ranges are apart, but vmregress's test is not significant at the FDR",
	[LKP_WHY_FLOOR] = "LKP's ranges are apart, but the change is below vmregress's noise floor",
	[LKP_WHY_UNSTABLE] = "LKP's ranges are apart, but a side is too noisy for vmregress to call",
	[LKP_WHY_FEW] = "LKP needs 3 samples on one side only; vmregress needs them on both",
	[LKP_WHY_RANGES] = "vmregress's test finds it, but LKP's trimmed ranges overlap past the middle",
	[LKP_WHY_LKP_SMALL] = "vmregress calls it; LKP drops it as under 1% or under the metric's threshold",
	[LKP_WHY_LKP_FEW] = "vmregress calls it; LKP sees fewer than 3 samples on both sides",
};

/* compare.rb's show_perf_change: the mean in 10 columns, then " ±N%" when
 * the deviation is over 2%. */
static void lkp_value(FILE *f, const struct lkp_side *s)
{
	double v = s->mean;
	if (isnan(v))
		fprintf(f, "%*s", LKP_ABS_WIDTH, "-");
	else if (fabs(v) < 1000)
		fprintf(f, "%*.2f", LKP_ABS_WIDTH, v);
	else if (fabs(v) > 1e8)
		fprintf(f, "%*.4g", LKP_ABS_WIDTH, v);
	else
		fprintf(f, "%*lld", LKP_ABS_WIDTH, (long long)v);
	if (s->stddev_pct > 2)
		fprintf(f, " ±%*d%%", LKP_ERR_WIDTH - 3, (int)s->stddev_pct);
	else
		fprintf(f, "%*s", LKP_ERR_WIDTH, "");
}

static void lkp_change(FILE *f, double p)
{
	if (isnan(p))
		fprintf(f, "%*s  ", LKP_REL_WIDTH, "-");
	else
		fprintf(f, fabs(p) < 100000 ? "%+*.1f%% " : "%+*.2g%% ", LKP_REL_WIDTH, p);
}

static void lkp_header(FILE *f, const struct comparison *cmp)
{
	int first = LKP_ABS_WIDTH + LKP_ERR_WIDTH, width = first + LKP_REL_WIDTH + 1;
	fprintf(f, "%*.*s ", first, first, cmp->labels[0]);
	for (size_t i = 1; i < cmp->nruns; i++)
		fprintf(f, "%*.*s ", width, width, cmp->labels[i]);
	fputc('\n', f);
	for (size_t i = 0; i < cmp->nruns; i++)
		fprintf(f, "%.*s ", i ? width : first, "----------------------------------------");
	fputc('\n', f);
	fputs("         %stddev", f);
	for (size_t i = 1; i < cmp->nruns; i++)
		fputs("     %change         %stddev", f);
	fputs("\n             \\  ", f);
	for (size_t i = 1; i < cmp->nruns; i++)
		fputs("        |                \\  ", f);
	fputc('\n', f);
}

/* A row is shown when it is a headline one, or when either reading calls a
 * change in some run (LKP shows only the changed ones). */
static bool lkp_shown(const struct comparison *cmp, size_t r, const struct lkp_cell *cells)
{
	if (cmp->rows[r].headline)
		return true;
	for (size_t i = 1; i < cmp->nruns; i++)
		if (cells[i].mark == LKP_CHANGED || cmp->rows[r].cells[i].significant)
			return true;
	return false;
}

static void lkp_line(FILE *f, const struct comparison *cmp, size_t r, const struct lkp_cell *cells)
{
	const struct cmp_row *row = &cmp->rows[r];
	for (size_t i = 0; i < cmp->nruns; i++) {
		if (i)
			lkp_change(f, cells[i].change_pct);
		lkp_value(f, &cells[i].s);
	}
	fprintf(f, "  %s.%s", row->case_name, row->metric);
	for (size_t i = 1; i < cmp->nruns; i++)
		fprintf(f, "%s lkp: %s, vmregress: %s", i > 1 ? ";" : "  ", lkp_mark_names[cells[i].mark],
			cmp_verdict_name(row->cells[i].verdict));
	fputc('\n', f);
}

struct lkp_tally {
	size_t lkp, ours, differ;
};

static void lkp_table(FILE *f, const struct comparison *cmp, struct lkp_tally *t, struct strlist *why)
{
	struct lkp_cell *cells = xcalloc(cmp->nruns, sizeof(*cells));
	for (size_t r = 0; r < cmp->nrows; r++) {
		lkp_row(cmp, r, cells);
		if (!lkp_shown(cmp, r, cells))
			continue;
		lkp_line(f, cmp, r, cells);
		for (size_t i = 1; i < cmp->nruns; i++) {
			enum lkp_why w = lkp_disagreement(cmp, r, i, &cells[i]);
			t->lkp += cells[i].mark == LKP_CHANGED;
			t->ours += cmp->rows[r].cells[i].significant;
			if (w == LKP_AGREE)
				continue;
			t->differ++;
			char *line = xasprintf("%s.%s in %s: %s", cmp->rows[r].case_name, cmp->rows[r].metric,
					       cmp->labels[i], lkp_why_text[w]);
			strlist_add(why, line);
			free(line);
		}
	}
	free(cells);
}

void compare_write_lkp(FILE *f, const struct comparison *cmp)
{
	struct strlist verdict = { 0 }, why = { 0 };
	struct lkp_tally t = { 0 };
	compare_verdict_lines(cmp, &verdict);
	for (size_t i = 0; i < verdict.n; i++)
		fprintf(f, "%s\n", verdict.v[i]);
	fputs("\nAs LKP reads it (lkp-tests compare: mean ±%stddev, %change; marked when the trimmed\n"
	      "ranges are apart past their middles, 3 samples on a side, the middles over 1% apart):\n\n", f);
	for (size_t i = 0; i < cmp->nruns; i++)
		fprintf(f, "  %s%s\n", i ? "" : "base: ", cmp->labels[i]);
	fputc('\n', f);
	lkp_header(f, cmp);
	lkp_table(f, cmp, &t, &why);
	fprintf(f, "\nLKP marks %zu change%s, vmregress calls %zu; they disagree on %zu.\n", t.lkp,
		t.lkp == 1 ? "" : "s", t.ours, t.differ);
	for (size_t i = 0; i < why.n; i++)
		fprintf(f, "  %s\n", why.v[i]);
	strlist_free(&verdict);
	strlist_free(&why);
}
