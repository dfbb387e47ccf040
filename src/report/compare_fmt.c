#include "report/compare_fmt.h"

#include <math.h>
#include <string.h>

#include "core/units.h"
#include "core/util.h"
#include "workload/workload.h"
#include "report/compare_int.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))

const char *const cmp_legend[] = {
	"Each column is a run; the first is the base.  (12.34%) is the change against the",
	"base, run / base - 1, the same sign as in the verdict lines: a time that fell is",
	"negative, a rate that rose positive; the verdict (improved, regressed) says which",
	"is better.  * marks a mean whose change is a finding by the rule of",
	"docs/statistics.md (q below the FDR, change above the noise floor); ? marks a",
	"mean with too few iterations on a side to say.",
	"A mean's change with no % sign is absolute (run - base): from a base near zero",
	"or a count under 10, a percentage would mislead.",
	"Hmean is the harmonic mean (rates), Amean the arithmetic mean; Stddev and",
	"CoeffVar (stddev/mean in percent) are of the raw iterations.",
	NULL,
};

const char *const cmp_test_names[] = { "welch", "mann-whitney" };

const char *cmp_cell_test(const struct cmp_row *row, const struct cmp_cell *c)
{
	if (c->paired)
		return row->test == CMP_TEST_MWU ? "signed-rank" : "paired-t";
	return cmp_test_names[row->test];
}

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
	return cmp_change_pct(cmp_stat_value(base, s), cmp_stat_value(c, s));
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

char *cmp_fmt_stat(char *buf, size_t len, const struct cmp_row *row, const struct cmp_cell *cell, enum cmp_stat s)
{
	return units_format_value(buf, len, cmp_stat_value(cell, s), s == CMP_STAT_CV ? "%" : row->unit);
}

/* ---- JSON ---- */

/* One entry of left_out: the reason and what it is about; the fields that
 * do not apply are absent. */
static json_t *cmp_left_json(const struct cmp_left *l)
{
	json_t *j = json_pack("{ss ss}", "reason", compare_left_reason(l->why), "case", l->case_name);
	if (l->metric)
		json_object_set_new(j, "metric", json_string(l->metric));
	if (l->run)
		json_object_set_new(j, "run", json_string(l->run));
	if (l->why == CMP_LEFT_FAILED || l->why == CMP_LEFT_WARMUP) {
		json_object_set_new(j, "iterations", json_integer((json_int_t)l->count));
		json_object_set_new(j, "of", json_integer((json_int_t)l->of));
	}
	if (l->why == CMP_LEFT_ZERO) {
		json_t *m = json_array();
		for (size_t i = 0; i < l->metrics.n; i++)
			json_array_append_new(m, json_string(l->metrics.v[i]));
		json_object_set_new(j, "metrics", m);
	}
	return j;
}

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
	json_object_set_new(j, "cv_pct", cmp_num(c->s.cv * 100));
	json_object_set_new(j, "min", cmp_num(c->s.min));
	json_object_set_new(j, "max", cmp_num(c->s.max));
	json_t *vals = json_array();
	for (size_t k = 0; k < c->s.n; k++)
		json_array_append_new(vals, cmp_num(c->values[k]));
	json_object_set_new(j, "values", vals);
	if (i == 0)
		return j;
	json_object_set_new(j, "change_pct", cmp_num(c->change_pct));
	json_object_set_new(j, "ratio", cmp_num(c->ratio));
	json_object_set_new(j, "ci_low", cmp_num(c->ci_low));
	json_object_set_new(j, "ci_high", cmp_num(c->ci_high));
	json_object_set_new(j, "abs_change", json_boolean(c->abs_change));
	json_object_set_new(j, "change_abs", cmp_num(c->s.mean - row->cells[0].s.mean));
	json_object_set_new(j, "noise_floor", cmp_num(c->noise_floor));
	json_object_set_new(j, "interleaved", json_boolean(c->interleaved));
	json_object_set_new(j, "test", json_string(cmp_cell_test(row, c)));
	json_object_set_new(j, "pairs", json_integer((json_int_t)c->npairs));
	json_object_set_new(j, "mde", cmp_num(c->mde));
	json_object_set_new(j, "t", c->w.too_few ? json_null() : cmp_num(c->w.t));
	json_object_set_new(j, "df", c->w.too_few ? json_null() : cmp_num(c->w.df));
	if (row->test == CMP_TEST_MWU && c->paired)
		json_object_set_new(j, "w", c->wsr.too_few ? json_null() : cmp_num(c->wsr.w));
	else if (row->test == CMP_TEST_MWU)
		json_object_set_new(j, "u", c->mw.too_few ? json_null() : cmp_num(c->mw.u));
	json_object_set_new(j, "p", cmp_num(c->p));
	json_object_set_new(j, "q", cmp_num(c->q));
	json_object_set_new(j, "significant", json_boolean(c->significant));
	json_object_set_new(j, "noisy", json_boolean(c->noisy));
	json_object_set_new(j, "settle_iterations", c->settle_n ? json_integer((json_int_t)c->settle_n) : json_null());
	json_object_set_new(j, "too_few", json_boolean(c->w.too_few));
	json_object_set_new(j, "verdict", json_string(cmp_verdict_name(c->verdict)));
	return j;
}

/* The trust warnings: kind, the runs concerned, detail and count, and the
 * line the text prints. */
static json_t *cmp_trust_json(const struct comparison *cmp)
{
	static const char *const kinds[] = { [CMP_TRUST_INCOMPLETE] = "incomplete", [CMP_TRUST_APART] = "apart",
					     [CMP_TRUST_KDAMOND] = "kdamond", [CMP_TRUST_SANDBOXES] = "other-sandboxes",
					     [CMP_TRUST_CASES] = "cases-filter", [CMP_TRUST_HUGEPAGE] = "hugepage",
					     [CMP_TRUST_STEAL] = "cpu-steal" };
	json_t *a = json_array();
	for (size_t k = 0; k < cmp->ntrust; k++) {
		const struct cmp_trust *t = &cmp->trust[k];
		json_t *runs = json_array();
		for (size_t i = 0; i < t->runs.n; i++)
			json_array_append_new(runs, json_string(t->runs.v[i]));
		char *text = compare_trust_text(t);
		json_array_append_new(a, json_pack("{ss so ss? sI ss}", "kind", kinds[t->kind], "runs", runs, "detail",
						   t->detail, "count", (json_int_t)t->count, "text", text));
		if (t->kind == CMP_TRUST_HUGEPAGE || t->kind == CMP_TRUST_STEAL)
			json_object_set_new(json_array_get(a, k), t->kind == CMP_TRUST_STEAL ? "share_pct" : "stalls",
					    t->kind == CMP_TRUST_STEAL ? json_real(t->share) : json_integer((json_int_t)t->stalls));
		free(text);
	}
	return a;
}

/* The verdict: the headline tally and one entry per headline metric and
 * run, the same fields as the rows carry. */
static json_t *cmp_verdict_json(const struct comparison *cmp)
{
	const struct cmp_tally *t = &cmp->tally;
	char line[512];
	json_t *flags = json_array(), *heads = json_array();
	for (size_t k = 0; k < cmp->env_flags.n; k++)
		json_array_append_new(flags, json_string(cmp->env_flags.v[k]));
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 1; cmp->rows[r].headline && i < cmp->nruns; i++) {
			const struct cmp_row *row = &cmp->rows[r];
			const struct cmp_cell *c = &row->cells[i];
			json_t *h = json_pack("{ss ss ss ss ss}", "case", row->case_name, "metric", row->metric, "run",
					      cmp->labels[i], "verdict", cmp_verdict_name(c->verdict), "test",
					      cmp_cell_test(row, c));
			json_object_set_new(h, "ratio", cmp_num(c->ratio));
			json_object_set_new(h, "ci_low", cmp_num(c->ci_low));
			json_object_set_new(h, "ci_high", cmp_num(c->ci_high));
			json_object_set_new(h, "p", cmp_num(c->p));
			json_object_set_new(h, "q", cmp_num(c->q));
			json_object_set_new(h, "noise_floor", cmp_num(c->noise_floor));
			json_object_set_new(h, "interleaved", json_boolean(c->interleaved));
			json_object_set_new(h, "mde", cmp_num(c->mde));
			json_object_set_new(h, "noise_from_aa", json_boolean(c->noise_ref));
			json_object_set_new(h, "abs_change", json_boolean(c->abs_change));
			json_object_set_new(h, "noisy", json_boolean(c->noisy));
			json_object_set_new(h, "settle_iterations",
					    c->settle_n ? json_integer((json_int_t)c->settle_n) : json_null());
			json_array_append_new(heads, h);
		}
	json_t *noise = cmp->noise_from ? json_pack("{ss sI}", "group", cmp->noise_from, "headline_metrics",
						    (json_int_t)cmp->noise_from_rows)
					: json_null();
	return json_pack("{ss sI sI sI sI sI sI sf sf sf so so so so}", "summary", compare_verdict_line(line, sizeof(line), cmp),
			 "regressions", (json_int_t)t->regressed, "improvements", (json_int_t)t->improved, "unchanged",
			 (json_int_t)t->same, "unstable", (json_int_t)t->unstable, "changed", (json_int_t)t->changed,
			 "too_few", (json_int_t)t->too_few, "fdr", cmp->alpha, "noise_floor_min", cmp->noise_min,
			 "unstable_cv_pct", cmp->unstable_cv * 100, "env_flags", flags, "headline", heads, "trust",
			 cmp_trust_json(cmp), "noise_from", noise);
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
		json_array_append_new(rows, json_pack("{ss ss ss ss ss sb ss so}", "case", row->case_name, "metric",
						      row->metric, "unit", row->unit, "better",
						      better_name(row->better), "combine",
						      combine_name(row->combine), "headline", row->headline, "test",
						      cmp_test_names[row->test], "runs", cells));
	}
	for (size_t i = 0; i < cmp->nleft; i++)
		json_array_append_new(left, cmp_left_json(&cmp->left_out[i]));
	return json_pack("{sf sb so so so so so}", "alpha", cmp->alpha, "emulated", cmp->emulated, "verdict",
			 cmp_verdict_json(cmp), "runs", runs, "env_diff", env, "rows", rows, "left_out", left);
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
	fputs("case,metric,unit,better,combine,run,n,mean,stddev,cv_pct,min,max,change_pct,p,significant,verdict,"
	      "headline,test,ratio,ci_low,ci_high,q,noise_floor,abs_change,mde\n", f);
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct cmp_row *row = &cmp->rows[r];
		for (size_t i = 0; i < cmp->nruns; i++) {
			const struct cmp_cell *c = &row->cells[i];
			vmr_csv_field(f, row->case_name);
			fputc(',', f);
			vmr_csv_field(f, row->metric);
			fputc(',', f);
			vmr_csv_field(f, row->unit);
			fprintf(f, ",%s,%s,", better_name(row->better), combine_name(row->combine));
			vmr_csv_field(f, cmp->labels[i]);
			fprintf(f, ",%zu", c->present ? c->s.n : 0);
			csv_num(f, c->present ? c->s.mean : NAN);
			csv_num(f, c->present ? c->s.stddev : NAN);
			csv_num(f, c->present ? c->s.cv * 100 : NAN);
			csv_num(f, c->present ? c->s.min : NAN);
			csv_num(f, c->present ? c->s.max : NAN);
			csv_num(f, i ? c->change_pct : (c->present ? 0 : NAN));
			csv_num(f, i ? c->p : NAN);
			fprintf(f, ",%d,%s,%d,%s", c->significant, i ? cmp_verdict_name(c->verdict) : "base", row->headline,
				cmp_cell_test(row, c));
			csv_num(f, c->present ? c->ratio : NAN);
			csv_num(f, i ? c->ci_low : NAN);
			csv_num(f, i ? c->ci_high : NAN);
			csv_num(f, i ? c->q : NAN);
			csv_num(f, i && c->present ? c->noise_floor : NAN);
			fprintf(f, ",%d", c->abs_change);
			csv_num(f, i ? c->mde : NAN);
			fputc('\n', f);
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
				w->value = MAX(w->value, (int)strlen(cmp_fmt_stat(buf, sizeof(buf), row,
										   &row->cells[i], s)));
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
	cmp_fmt_stat(num, sizeof(num), row, c, s);
	if (s == CMP_STAT_MEAN && i && c->abs_change) {
		double d = c->s.mean - row->cells[0].s.mean;
		char v[48], sv[50];
		units_format_value(v, sizeof(v), d, row->unit);
		snprintf(sv, sizeof(sv), "%s%s", d >= 0 ? "+" : "", v);
		snprintf(pct, sizeof(pct), "%8s", sv);
	} else {
		cmp_fmt_pct(pct, sizeof(pct), cmp_stat_change(row, i, s));
	}
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

void compare_write_text(FILE *f, const struct comparison *cmp)
{
	struct text_widths w = { 0 };
	text_widths(cmp, &w);
	struct strlist verdict = { 0 };
	compare_verdict_lines(cmp, &verdict);
	for (size_t i = 0; i < verdict.n; i++)
		fprintf(f, "%s\n", verdict.v[i]);
	strlist_free(&verdict);
	fputc('\n', f);
	if (cmp->emulated)
		fputs("Emulated: some runs ran in an emulated guest (TCG), where times say more about the\n"
		      "emulator than the kernel. Counters (faults, swap-ins, Refd) are faithful and come first.\n\n", f);
	text_env(f, cmp);
	if (cmp->nrows)
		text_rows(f, cmp, &w);
	else
		fputs("No metric to compare.\n", f);
	if (cmp->nleft) {
		fputs("\nLeft out:\n", f);
		for (size_t i = 0; i < cmp->nleft; i++) {
			char *t = compare_left_text(&cmp->left_out[i]);
			fprintf(f, "  %s\n", t);
			free(t);
		}
	}
	fputc('\n', f);
	for (size_t i = 0; cmp_legend[i]; i++)
		fprintf(f, "%s\n", cmp_legend[i]);
}
