/* The verdict as a picture: the report's forest plot, inline SVG.  A row
 * per headline metric and run against the base: its change as a ratio with
 * the 95% interval on a log scale (as compare computes them), the noise
 * floor as a band around no change, the minimal detectable effect as a
 * tick on each side, the point coloured by the verdict.  Every row carries
 * its figures as data- attributes, and the svg its scale, so a test can
 * check each mark's place. */
#include <math.h>
#include <stdio.h>

#include "report/html_int.h"

#define FOREST_WIDTH 760
#define FOREST_LABEL 300     /* the labels' column */
#define FOREST_PAD 20
#define FOREST_ROW 22
#define FOREST_TOP 26

static const char *forest_colour(enum cmp_verdict v)
{
	switch (v) {
	case CMP_IMPROVED: return "#2a9d2a";
	case CMP_REGRESSED: return "#d62728";
	case CMP_CHANGED: return "#e69500";
	case CMP_UNSTABLE: return "#8a5cc0";
	default: return "#555555";
	}
}

/* Whether a cell has a place in the plot: a run against the base with a ratio. */
static bool forest_cell(const struct cmp_row *row, size_t i)
{
	const struct cmp_cell *c = &row->cells[i];
	return row->headline && c->present && row->cells[0].present && isfinite(c->ratio) && c->ratio > 0;
}

/* The half-width of the axis in log units: the farthest mark, padded,
 * at least log(1.02). */
static double forest_half(const struct comparison *cmp)
{
	double h = log(1.02);
	for (size_t k = 0; k < cmp->nrows; k++)
		for (size_t i = 1; i < cmp->nruns; i++) {
			const struct cmp_row *row = &cmp->rows[k];
			if (!forest_cell(row, i))
				continue;
			const struct cmp_cell *c = &row->cells[i];
			double v[] = { c->ratio, c->ci_low, c->ci_high, 1 + c->noise_floor, 1 - c->noise_floor,
				       1 + c->mde, 1 - c->mde };
			for (size_t j = 0; j < sizeof(v) / sizeof(v[0]); j++)
				if (isfinite(v[j]) && v[j] > 0 && fabs(log(v[j])) > h)
					h = fabs(log(v[j]));
		}
	return h * 1.1;
}

/* The x of a ratio, clamped to the plot. */
static double forest_x(double ratio, double half)
{
	double w = FOREST_WIDTH - FOREST_LABEL - 2 * FOREST_PAD, l = log(ratio);
	l = l < -half ? -half : l > half ? half : l;
	return FOREST_LABEL + FOREST_PAD + (l + half) / (2 * half) * w;
}

static void forest_row(struct report_ctx *x, const struct cmp_row *row, size_t i, double y, double half)
{
	const struct cmp_cell *c = &row->cells[i];
	FILE *f = x->f;
	fputs("<g class=\"forest-row\" data-case=\"", f);
	html_esc(f, row->case_name);
	fputs("\" data-metric=\"", f);
	html_esc(f, row->metric);
	fputs("\" data-run=\"", f);
	html_esc(f, x->cmp->labels[i]);
	fprintf(f, "\" data-verdict=\"%s\" data-ratio=\"%.9g\" data-lo=\"%.9g\" data-hi=\"%.9g\" data-floor=\"%.9g\" "
		   "data-mde=\"%.9g\">\n", cmp_verdict_name(c->verdict), c->ratio, c->ci_low, c->ci_high, c->noise_floor,
		c->mde);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">", FOREST_LABEL - 6, y + 4);
	html_esc(f, row->case_name);
	fputs(" ", f);
	html_esc(f, row->metric);
	if (x->cmp->nruns > 2) {
		fputs(" (", f);
		html_esc(f, x->cmp->labels[i]);
		fputs(")", f);
	}
	fputs("</text>\n", f);
	if (c->noise_floor > 0 && c->noise_floor < 1) {
		double a = forest_x(1 - c->noise_floor, half), b = forest_x(1 + c->noise_floor, half);
		fprintf(f, "<rect class=\"floor\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"#e4e4e4\"/>\n",
			a, y - FOREST_ROW / 2.0 + 2, b - a, FOREST_ROW - 4);
	}
	for (int s = -1; s <= 1; s += 2)
		if (isfinite(c->mde) && c->mde > 0 && (s > 0 || c->mde < 1))
			fprintf(f, "<line class=\"mde\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
				   "stroke-width=\"1\"/>\n", forest_x(1 + s * c->mde, half), forest_x(1 + s * c->mde, half),
				y - 7, y + 7);
	const char *col = forest_colour(c->verdict);
	if (isfinite(c->ci_low) && isfinite(c->ci_high) && c->ci_low > 0)
		fprintf(f, "<line class=\"ci\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			   "stroke-width=\"2\"/>\n", forest_x(c->ci_low, half), forest_x(c->ci_high, half), y, y, col);
	fprintf(f, "<circle class=\"change\" cx=\"%.2f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n</g>\n",
		forest_x(c->ratio, half), y, col);
}

void html_forest(struct report_ctx *x)
{
	const struct comparison *cmp = x->cmp;
	size_t n = 0;
	for (size_t k = 0; k < cmp->nrows; k++)
		for (size_t i = 1; i < cmp->nruns; i++)
			n += forest_cell(&cmp->rows[k], i);
	if (x->n < 2 || !n)
		return;
	double half = forest_half(cmp);
	int height = FOREST_TOP + (int)n * FOREST_ROW + 24;
	double x0 = forest_x(exp(-half), half), x1 = forest_x(exp(half), half), mid = forest_x(1, half);
	fprintf(x->f, "<section id=\"forest\"><svg class=\"forest\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		      "height=\"%d\" viewBox=\"0 0 %d %d\" data-x0=\"%.2f\" data-x1=\"%.2f\" data-half=\"%.9g\" "
		      "role=\"img\" aria-label=\"the change of each headline metric against the base\">\n",
		FOREST_WIDTH, height, FOREST_WIDTH, height, x0, x1, half);
	fprintf(x->f, "<text x=\"%.2f\" y=\"14\" font-size=\"12\" text-anchor=\"middle\">change against %s "
		      "(log scale; 95%% interval, grey: noise floor, ticks: smallest detectable change)</text>\n",
		mid, cmp->labels[0]);
	double y = FOREST_TOP + FOREST_ROW / 2.0;
	fprintf(x->f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%d\" y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"3,3\"/>\n",
		mid, mid, FOREST_TOP - 4, y + (double)(n - 1) * FOREST_ROW + FOREST_ROW / 2.0);
	for (size_t k = 0; k < cmp->nrows; k++)
		for (size_t i = 1; i < cmp->nruns; i++)
			if (forest_cell(&cmp->rows[k], i)) {
				forest_row(x, &cmp->rows[k], i, y, half);
				y += FOREST_ROW;
			}
	/* the axis: no change, and the ends, as changes in percent */
	double ty = y - FOREST_ROW / 2.0 + 16;
	double ticks[] = { exp(-half / 1.1), 1, exp(half / 1.1) };
	for (size_t t = 0; t < 3; t++) {
		char lab[32];
		snprintf(lab, sizeof(lab), "%+.1f%%", (ticks[t] - 1) * 100);
		fprintf(x->f, "<text class=\"tick\" x=\"%.2f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n",
			forest_x(ticks[t], half), ty, t == 1 ? "0" : lab);
	}
	fputs("</svg></section>\n", x->f);
}
