#include "report/compare_fmt.h"

#include <math.h>
#include <string.h>

#include "core/util.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))

const char *const cmp_legend[] = {
	"Each column is a run; the first is the base.  (12.34%) is the change against the",
	"base, signed so that positive is better and negative is worse for that metric",
	"(metrics with no better-direction show the plain change).  * marks a mean whose",
	"difference from the base is significant by Welch's t-test at the alpha shown;",
	"? marks a mean with fewer than two iterations on a side, too few to say.",
	"Hmean is the harmonic mean (rates), Amean the arithmetic mean; Stddev and",
	"CoeffVar (stddev/mean in percent) are of the raw iterations.",
	NULL,
};

static const char *const better_names[] = { "none", "lower", "higher" };
static const char *const combine_names[] = { "amean", "hmean" };

const char *cmp_stat_name(enum cmp_stat s, enum combine c)
{
	static const char *const names[] = { "Min", "Amean", "Stddev", "CoeffVar", "Max" };
	if (s == CMP_STAT_MEAN && c == COMBINE_HMEAN)
		return "Hmean";
	return (unsigned)s < CMP_NSTATS ? names[s] : "?";
}

double cmp_stat_value(const struct cmp_cell *cell, enum cmp_stat s)
{
	if (!cell->present)
		return NAN;
	switch (s) {
	case CMP_STAT_MIN: return cell->s.min;
	case CMP_STAT_MEAN: return cell->s.mean;
	case CMP_STAT_STDDEV: return cell->s.stddev;
	case CMP_STAT_CV: return cell->s.cv * 100;
	case CMP_STAT_MAX: return cell->s.max;
	default: return NAN;
	}
}

double cmp_stat_change(const struct cmp_row *row, size_t run, enum cmp_stat s)
{
	const struct cmp_cell *base = &row->cells[0], *c = &row->cells[run];
	if (!base->present || !c->present)
		return NAN;
	if (!run)
		return 0;
	if (s == CMP_STAT_MEAN)
		return c->change_pct;
	/* Less spread is better whatever the metric's direction. */
	enum better b = s == CMP_STAT_STDDEV || s == CMP_STAT_CV ? BETTER_LOWER : row->better;
	return cmp_change_pct(cmp_stat_value(base, s), cmp_stat_value(c, s), b);
}

char *cmp_fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v != 0 && fabs(v) < 0.01)
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

void cmp_markers(const struct cmp_cell *cell, enum cmp_stat s, char *open, char *close)
{
	*open = '(';
	*close = ')';
	if (s != CMP_STAT_MEAN)
		return;
	if (cell->verdict == CMP_TOO_FEW)
		*open = *close = '?';
	else if (cell->significant)
		*open = *close = '*';
}

static char *cmp_fmt_pct(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "%7s ", "-");
	else
		snprintf(buf, len, "%7.2f%%", pct);
	return buf;
}

/* ---- JSON ---- */

static json_t *cmp_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *cmp_cell_json(const struct comparison *cmp, const struct cmp_row *row, size_t i)
{
	const struct cmp_cell *c = &row->cells[i];
	json_t *j = json_pack("{ss sb}", "run", cmp->labels[i], "present", c->present);
	if (!c->present)
		return j;
	json_object_set_new(j, "n", json_integer((json_int_t)c->s.n));
	json_object_set_new(j, "mean", cmp_num(c->s.mean));
	json_object_set_new(j, "stddev", cmp_num(c->s.stddev));
	json_object_set_new(j, "cv", cmp_num(c->s.cv));
	json_object_set_new(j, "min", cmp_num(c->s.min));
	json_object_set_new(j, "max", cmp_num(c->s.max));
	json_t *vals = json_array();
	for (size_t k = 0; k < c->s.n; k++)
		json_array_append_new(vals, cmp_num(c->values[k]));
	json_object_set_new(j, "values", vals);
	if (i == 0)
		return j;
	json_object_set_new(j, "change_pct", cmp_num(c->change_pct));
	json_object_set_new(j, "t", c->w.too_few ? json_null() : cmp_num(c->w.t));
	json_object_set_new(j, "df", c->w.too_few ? json_null() : cmp_num(c->w.df));
	json_object_set_new(j, "p", c->w.too_few ? json_null() : cmp_num(c->w.p));
	json_object_set_new(j, "significant", json_boolean(c->significant));
	json_object_set_new(j, "too_few", json_boolean(c->w.too_few));
	json_object_set_new(j, "verdict", json_string(cmp_verdict_name(c->verdict)));
	return j;
}

json_t *compare_to_json(const struct comparison *cmp)
{
	json_t *runs = json_array(), *env = json_array(), *rows = json_array(), *left = json_array();
	for (size_t i = 0; i < cmp->nruns; i++) {
		const struct run_info *ri = &cmp->runs[i]->info;
		json_array_append_new(runs, json_pack("{ss sI ss? ss? ss?}", "label", cmp->labels[i], "id",
						      (json_int_t)ri->id, "name", ri->name, "suite", ri->suite,
						      "kernel", ri->kernel));
	}
	for (size_t k = 0; k < cmp->nenv; k++) {
		json_t *vals = json_array();
		for (size_t i = 0; i < cmp->nruns; i++)
			json_array_append_new(vals, json_string(cmp->env[k].values[i]));
		json_array_append_new(env, json_pack("{ss so sb}", "key", cmp->env[k].key, "values", vals, "hardware",
						     cmp->env[k].hardware));
	}
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct cmp_row *row = &cmp->rows[r];
		json_t *cells = json_array();
		for (size_t i = 0; i < cmp->nruns; i++)
			json_array_append_new(cells, cmp_cell_json(cmp, row, i));
		json_array_append_new(rows, json_pack("{ss ss ss ss ss so}", "case", row->case_name, "metric",
						      row->metric, "unit", row->unit, "better",
						      better_names[row->better], "combine",
						      combine_names[row->combine], "runs", cells));
	}
	for (size_t i = 0; i < cmp->left_out.n; i++)
		json_array_append_new(left, json_string(cmp->left_out.v[i]));
	return json_pack("{sf sb so so so so}", "alpha", cmp->alpha, "emulated", cmp->emulated, "runs", runs,
			 "env_diff", env, "rows", rows, "left_out", left);
}

/* ---- CSV ---- */

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.10g", v);
	else
		fputc(',', f);
}

void compare_write_csv(FILE *f, const struct comparison *cmp)
{
	fputs("case,metric,unit,better,combine,run,n,mean,stddev,cv,min,max,change_pct,p,significant,verdict\n", f);
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct cmp_row *row = &cmp->rows[r];
		for (size_t i = 0; i < cmp->nruns; i++) {
			const struct cmp_cell *c = &row->cells[i];
			vmr_csv_field(f, row->case_name);
			fputc(',', f);
			vmr_csv_field(f, row->metric);
			fputc(',', f);
			vmr_csv_field(f, row->unit);
			fprintf(f, ",%s,%s,", better_names[row->better], combine_names[row->combine]);
			vmr_csv_field(f, cmp->labels[i]);
			fprintf(f, ",%zu", c->present ? c->s.n : 0);
			csv_num(f, c->present ? c->s.mean : NAN);
			csv_num(f, c->present ? c->s.stddev : NAN);
			csv_num(f, c->present ? c->s.cv : NAN);
			csv_num(f, c->present ? c->s.min : NAN);
			csv_num(f, c->present ? c->s.max : NAN);
			csv_num(f, i ? c->change_pct : (c->present ? 0 : NAN));
			csv_num(f, i && !c->w.too_few ? c->w.p : NAN);
			fprintf(f, ",%d,%s\n", c->significant, i ? cmp_verdict_name(c->verdict) : "base");
		}
	}
}

/* ---- text ---- */

struct text_widths {
	int ccase, metric, value, col;
};

static void text_widths(const struct comparison *cmp, struct text_widths *w)
{
	char buf[64];
	*w = (struct text_widths){ .ccase = 4, .metric = 6, .value = 4 };
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct cmp_row *row = &cmp->rows[r];
		w->ccase = MAX(w->ccase, (int)strlen(row->case_name));
		w->metric = MAX(w->metric, (int)strlen(row->metric));
		for (size_t i = 0; i < cmp->nruns; i++)
			for (int s = 0; s < CMP_NSTATS; s++)
				w->value = MAX(w->value, (int)strlen(cmp_fmt_num(buf, sizeof(buf),
										  cmp_stat_value(&row->cells[i], s))));
	}
	w->col = w->value + 11;
	for (size_t i = 0; i < cmp->nruns; i++)
		w->col = MAX(w->col, (int)strlen(cmp->labels[i]));
}

static void text_env(FILE *f, const struct comparison *cmp)
{
	if (!cmp->nenv) {
		fputs("Environment: no setting differs between the runs\n\n", f);
		return;
	}
	int kw = 3;
	int *vw = xcalloc(cmp->nruns, sizeof(int));
	for (size_t k = 0; k < cmp->nenv; k++) {
		kw = MAX(kw, (int)strlen(cmp->env[k].key) + (cmp->env[k].hardware ? 11 : 0));
		for (size_t i = 0; i < cmp->nruns; i++)
			vw[i] = MAX(vw[i], MAX((int)strlen(cmp->env[k].values[i]), (int)strlen(cmp->labels[i])));
	}
	fputs("Environment differences\n", f);
	fprintf(f, "  %-*s", kw, "");
	for (size_t i = 0; i < cmp->nruns; i++)
		fprintf(f, "  %-*s", i + 1 < cmp->nruns ? vw[i] : 0, cmp->labels[i]);
	fputc('\n', f);
	for (size_t k = 0; k < cmp->nenv; k++) {
		fprintf(f, "  %s%-*s", cmp->env[k].key, kw - (int)strlen(cmp->env[k].key),
			cmp->env[k].hardware ? " (hardware)" : "");
		for (size_t i = 0; i < cmp->nruns; i++)
			fprintf(f, "  %-*s", i + 1 < cmp->nruns ? vw[i] : 0, cmp->env[k].values[i]);
		fputc('\n', f);
	}
	fputc('\n', f);
	free(vw);
}

static void text_cell(FILE *f, const struct cmp_row *row, size_t i, enum cmp_stat s, const struct text_widths *w)
{
	char num[64], pct[64], open, close;
	const struct cmp_cell *c = &row->cells[i];
	if (!c->present) {
		fprintf(f, "  %*s", w->col, "-");
		return;
	}
	cmp_markers(c, s, &open, &close);
	cmp_fmt_num(num, sizeof(num), cmp_stat_value(c, s));
	cmp_fmt_pct(pct, sizeof(pct), cmp_stat_change(row, i, s));
	fprintf(f, "  %*s %c%s%c", w->col - 11, num, open, pct, close);
}

static void text_rows(FILE *f, const struct comparison *cmp, const struct text_widths *w)
{
	fprintf(f, "%-8s  %-*s  %-*s", "", w->ccase, "", w->metric, "");
	for (size_t i = 0; i < cmp->nruns; i++)
		fprintf(f, "  %*s", w->col, cmp->labels[i]);
	fputc('\n', f);
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct cmp_row *row = &cmp->rows[r];
		for (int s = 0; s < CMP_NSTATS; s++) {
			fprintf(f, "%-8s  %-*s  %-*s", cmp_stat_name(s, row->combine), w->ccase, row->case_name,
				w->metric, row->metric);
			for (size_t i = 0; i < cmp->nruns; i++)
				text_cell(f, row, i, s, w);
			fputc('\n', f);
		}
	}
}

static void text_verdicts(FILE *f, const struct comparison *cmp)
{
	bool any = false;
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 1; i < cmp->nruns; i++) {
			const struct cmp_cell *c = &cmp->rows[r].cells[i];
			if (!c->significant)
				continue;
			if (!any)
				fprintf(f, "\nSignificant changes (Welch's t-test, alpha %g):\n", cmp->alpha);
			any = true;
			if (isnan(c->change_pct)) /* from a base of 0: no percentage */
				fprintf(f, "  %-9s %s %s in %s: from 0 to %.4g (p=%.2g)\n", cmp_verdict_name(c->verdict),
					cmp->rows[r].case_name, cmp->rows[r].metric, cmp->labels[i], c->s.mean, c->w.p);
			else
				fprintf(f, "  %-9s %s %s in %s: %+.2f%% (p=%.2g)\n", cmp_verdict_name(c->verdict),
					cmp->rows[r].case_name, cmp->rows[r].metric, cmp->labels[i], c->change_pct,
					c->w.p);
		}
	if (!any)
		fprintf(f, "\nNo significant changes (Welch's t-test, alpha %g).\n", cmp->alpha);
}

void compare_write_text(FILE *f, const struct comparison *cmp)
{
	struct text_widths w = { 0 };
	text_widths(cmp, &w);
	if (cmp->emulated)
		fputs("Emulated: some runs ran in an emulated guest (TCG), where times say more about the\n"
		      "emulator than the kernel. Counters (faults, swap-ins, Refd) are faithful and come first.\n\n", f);
	text_env(f, cmp);
	if (cmp->nrows)
		text_rows(f, cmp, &w);
	else
		fputs("No metric to compare.\n", f);
	text_verdicts(f, cmp);
	if (cmp->left_out.n) {
		fputs("\nLeft out:\n", f);
		for (size_t i = 0; i < cmp->left_out.n; i++)
			fprintf(f, "  %s\n", cmp->left_out.v[i]);
	}
	fputc('\n', f);
	for (size_t i = 0; cmp_legend[i]; i++)
		fprintf(f, "%s\n", cmp_legend[i]);
}

/* ---- Markdown ---- */

static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\*_`<>[]", *s))
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

static void md_env(FILE *f, const struct comparison *cmp)
{
	if (!cmp->nenv) {
		fputs("No setting of the environment differs between the runs.\n\n", f);
		return;
	}
	fputs("| Setting |", f);
	for (size_t i = 0; i < cmp->nruns; i++) {
		fputc(' ', f);
		md_text(f, cmp->labels[i]);
		fputs(" |", f);
	}
	fputs("\n|---|", f);
	for (size_t i = 0; i < cmp->nruns; i++)
		fputs("---|", f);
	fputc('\n', f);
	for (size_t k = 0; k < cmp->nenv; k++) {
		fputs("| ", f);
		md_text(f, cmp->env[k].key);
		fputs(cmp->env[k].hardware ? " (hardware) |" : " |", f);
		for (size_t i = 0; i < cmp->nruns; i++) {
			fputc(' ', f);
			md_text(f, cmp->env[k].values[i]);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void md_cell(FILE *f, const struct cmp_row *row, size_t i, enum cmp_stat s)
{
	char num[64], open, close;
	const struct cmp_cell *c = &row->cells[i];
	if (!c->present) {
		fputs(" - |", f);
		return;
	}
	cmp_markers(c, s, &open, &close);
	double pct = cmp_stat_change(row, i, s);
	fprintf(f, " %s", cmp_fmt_num(num, sizeof(num), cmp_stat_value(c, s)));
	if (isnan(pct))
		fputs(" |", f);
	else if (open == '*')
		fprintf(f, " **%+.2f%%** |", pct);
	else if (open == '?')
		fprintf(f, " (%+.2f%%?) |", pct);
	else
		fprintf(f, " (%+.2f%%) |", pct);
}

void compare_write_markdown(FILE *f, const struct comparison *cmp)
{
	md_env(f, cmp);
	fputs("| Stat | Case | Metric |", f);
	for (size_t i = 0; i < cmp->nruns; i++) {
		fputc(' ', f);
		md_text(f, cmp->labels[i]);
		fputs(" |", f);
	}
	fputs("\n|---|---|---|", f);
	for (size_t i = 0; i < cmp->nruns; i++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t r = 0; r < cmp->nrows; r++)
		for (int s = 0; s < CMP_NSTATS; s++) {
			const struct cmp_row *row = &cmp->rows[r];
			fprintf(f, "| %s | ", cmp_stat_name(s, row->combine));
			md_text(f, row->case_name);
			fputs(" | ", f);
			md_text(f, row->metric);
			fputs(" |", f);
			for (size_t i = 0; i < cmp->nruns; i++)
				md_cell(f, row, i, s);
			fputc('\n', f);
		}
	if (cmp->left_out.n) {
		fputs("\nLeft out:\n\n", f);
		for (size_t i = 0; i < cmp->left_out.n; i++) {
			fputs("- ", f);
			md_text(f, cmp->left_out.v[i]);
			fputc('\n', f);
		}
	}
	fprintf(f, "\nBold: significant by Welch's t-test at alpha %g; ?: fewer than two iterations on a "
		   "side. Positive changes are better, negative worse.\n", cmp->alpha);
}
