/* compare's verdict as bars: see compare_bars.h. */
#include "report/compare_bars.h"

#include <math.h>
#include <string.h>

#include "report/compare_fmt.h"

/* The cells drawn: of a headline row, against a present base, with a ratio. */
static bool bars_cell(const struct cmp_row *row, size_t i)
{
	const struct cmp_cell *c = &row->cells[i];
	return row->headline && c->present && row->cells[0].present && isfinite(c->ratio) && c->ratio > 0;
}

/* The scale's half-width in log units: the farthest figure, at least log(1.02). */
static double bars_half(const struct comparison *cmp)
{
	double h = log(1.02);
	for (size_t k = 0; k < cmp->nrows; k++)
		for (size_t i = 1; i < cmp->nruns; i++) {
			if (!bars_cell(&cmp->rows[k], i))
				continue;
			const struct cmp_cell *c = &cmp->rows[k].cells[i];
			double v[] = { c->ratio, c->ci_low, c->ci_high, 1 + c->noise_floor, 1 - c->noise_floor };
			for (size_t j = 0; j < sizeof(v) / sizeof(v[0]); j++)
				if (isfinite(v[j]) && v[j] > 0 && fabs(log(v[j])) > h)
					h = fabs(log(v[j]));
		}
	return h;
}

/* The column of a ratio: 0 .. CMP_BARS_WIDTH - 1, no change in the middle. */
static int bars_col(double ratio, double half)
{
	double l = log(ratio);
	l = l < -half ? -half : l > half ? half : l;
	return (int)lround((l + half) / (2 * half) * (CMP_BARS_WIDTH - 1));
}

/* "+12.3%": a ratio as a change. */
static char *bars_change(char *buf, size_t len, double ratio)
{
	snprintf(buf, len, "%+.1f%%", cmp_ratio_pct(ratio));
	return buf;
}

static const char *bars_colour(enum cmp_verdict v)
{
	switch (v) {
	case CMP_IMPROVED: return "\033[32m";
	case CMP_REGRESSED: return "\033[31m";
	case CMP_CHANGED: return "\033[33m";
	case CMP_UNSTABLE: return "\033[35m";
	default: return "";
	}
}

void compare_write_bars(FILE *f, const struct comparison *cmp)
{
	size_t n = 0, wlabel = 0;
	for (size_t k = 0; k < cmp->nrows; k++)
		for (size_t i = 1; i < cmp->nruns; i++)
			if (bars_cell(&cmp->rows[k], i)) {
				const struct cmp_row *row = &cmp->rows[k];
				size_t w = strlen(row->case_name) + 1 + strlen(row->metric) +
					   (cmp->nruns > 2 ? strlen(cmp->labels[i]) + 3 : 0);
				wlabel = w > wlabel ? w : wlabel;
				n++;
			}
	if (!n)
		return;
	double half = bars_half(cmp);
	char lo[32], hi[32];
	fprintf(f, "\nThe headline changes against %s, log scale from %s to %s (o the change, [ ] its 95%% "
		   "interval, : the noise floor, | no change):\n",
		cmp->labels[0], bars_change(lo, sizeof(lo), exp(-half)), bars_change(hi, sizeof(hi), exp(half)));
	for (size_t k = 0; k < cmp->nrows; k++)
		for (size_t i = 1; i < cmp->nruns; i++) {
			const struct cmp_row *row = &cmp->rows[k];
			if (!bars_cell(row, i))
				continue;
			const struct cmp_cell *c = &row->cells[i];
			char bar[CMP_BARS_WIDTH + 1];
			memset(bar, ' ', CMP_BARS_WIDTH);
			bar[CMP_BARS_WIDTH] = '\0';
			if (c->noise_floor > 0 && c->noise_floor < 1)
				for (int x = bars_col(1 - c->noise_floor, half); x <= bars_col(1 + c->noise_floor, half); x++)
					bar[x] = ':';
			bar[CMP_BARS_WIDTH / 2] = '|';
			if (isfinite(c->ci_low) && isfinite(c->ci_high) && c->ci_low > 0) {
				int a = bars_col(c->ci_low, half), b = bars_col(c->ci_high, half);
				for (int x = a + 1; x < b; x++)
					bar[x] = '-';
				bar[a] = '[';
				bar[b] = ']';
			}
			int p = bars_col(c->ratio, half);
			char label[256];
			snprintf(label, sizeof(label), "%s %s", row->case_name, row->metric);
			if (cmp->nruns > 2)
				snprintf(label + strlen(label), sizeof(label) - strlen(label), " (%s)", cmp->labels[i]);
			const char *col = bars_colour(c->verdict);
			char change[32];
			fprintf(f, "  %-*s  %.*s%so%s%s  %s %s\n", (int)wlabel, label, p, bar, col, *col ? "\033[0m" : "",
				bar + p + 1, bars_change(change, sizeof(change), c->ratio), cmp_verdict_name(c->verdict));
		}
}
