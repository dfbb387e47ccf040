/* A comparison for review and CI: Markdown (a pull request's comment),
 * JUnit XML and TAP; see compare_fmt.h. */
#include "report/compare_int.h"

#include <math.h>
#include <string.h>

#include "report/compare_fmt.h"
#include "report/functional.h"
#include "report/xml.h"
#include "core/units.h"
#include "core/util.h"
#include "workload/workload.h"

/* ---- Markdown ---- */

static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\*_`<>[]", *s))
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

/* A table's header: the leading columns ("| A | B |"), one column per run,
 * and the rule line with the leading columns' rules and cell per run. */
static void md_header(FILE *f, const struct comparison *cmp, const char *lead, const char *lead_rule,
		      const char *run_rule)
{
	fputs(lead, f);
	for (size_t i = 0; i < cmp->nruns; i++) {
		fputc(' ', f);
		md_text(f, cmp->labels[i]);
		fputs(" |", f);
	}
	fputc('\n', f);
	fputs(lead_rule, f);
	for (size_t i = 0; i < cmp->nruns; i++)
		fputs(run_rule, f);
	fputc('\n', f);
}

static void md_env(FILE *f, const struct comparison *cmp)
{
	if (!cmp->nenv) {
		fputs("No setting of the environment differs between the runs.\n\n", f);
		return;
	}
	md_header(f, cmp, "| Setting |", "|---|", "---|");
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
	if (s == CMP_STAT_MEAN && i && c->abs_change)
		fprintf(f, open == '*' ? " **%+.4g** |" : " (%+.4g) |", c->s.mean - row->cells[0].s.mean);
	else if (isnan(pct))
		fputs(" |", f);
	else if (open == '*')
		fprintf(f, " **%+.2f%%** |", pct);
	else if (open == '?')
		fprintf(f, " (%+.2f%%?) |", pct);
	else
		fprintf(f, " (%+.2f%%) |", pct);
}

static void md_verdict(FILE *f, const struct comparison *cmp)
{
	char line[512], buf[64];
	fputs("**", f);
	md_text(f, compare_verdict_line(line, sizeof(line), cmp));
	fputs("**\n\n", f);
	for (size_t k = 0; k < cmp->ntrust; k++) {
		char *t = compare_trust_text(&cmp->trust[k]);
		fputs("- ", f);
		md_text(f, t);
		fputs(k + 1 == cmp->ntrust ? "\n\n" : "\n", f);
		free(t);
	}
	for (size_t k = 0; k < cmp->env_flags.n; k++) {
		fputs(k ? "- " : "Environment differs beyond the settings compared:\n\n- ", f);
		md_text(f, cmp->env_flags.v[k]);
		fputs(k + 1 == cmp->env_flags.n ? "\n\n" : "\n", f);
	}
	bool any = false;
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 1; cmp->rows[r].headline && i < cmp->nruns; i++) {
			const struct cmp_row *row = &cmp->rows[r];
			const struct cmp_cell *c = &row->cells[i];
			if (!any)
				fputs("| Verdict | Case | Metric | Run | Ratio | 95% CI | p | q | Test | Could have seen |\n"
				      "|---|---|---|---|---:|---:|---:|---:|---|---:|\n", f);
			any = true;
			fprintf(f, "| %s | ", cmp_verdict_name(c->verdict));
			md_text(f, row->case_name);
			fputs(" | ", f);
			md_text(f, row->metric);
			fputs(" | ", f);
			md_text(f, cmp->labels[i]);
			fprintf(f, " | %s", cmp_fmt_num(buf, sizeof(buf), c->ratio));
			fprintf(f, " | %s", cmp_fmt_num(buf, sizeof(buf), c->ci_low));
			fprintf(f, " – %s", cmp_fmt_num(buf, sizeof(buf), c->ci_high));
			fprintf(f, " | %.2g | %.2g | %s |", c->p, c->q, cmp_cell_test(row, c));
			if (isfinite(c->mde))
				fprintf(f, " %.1f%% |\n", c->mde * 100);
			else
				fputs(" - |\n", f);
		}
	if (any)
		fputc('\n', f);
}

void compare_write_markdown(FILE *f, const struct comparison *cmp)
{
	md_verdict(f, cmp);
	md_env(f, cmp);
	md_header(f, cmp, "| Stat | Case | Metric |", "|---|---|---|", "---:|");
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
	if (cmp->nleft) {
		fputs("\nLeft out:\n\n", f);
		for (size_t i = 0; i < cmp->nleft; i++) {
			char *t = compare_left_text(&cmp->left_out[i]);
			fputs("- ", f);
			md_text(f, t);
			fputc('\n', f);
			free(t);
		}
	}
	fprintf(f, "\nBold: a finding at FDR %g (docs/statistics.md); ?: too few iterations on a side. "
		   "Positive changes are better, negative worse; a change with no %% sign is absolute.\n", cmp->alpha);
}

/* ---- JUnit and TAP: each headline metric of each run a test case ---- */

/* The headline line without its leading verdict column. */
static char *cmp_case_detail(const struct comparison *cmp, const struct cmp_row *row, size_t i)
{
	char *l = cmp_headline_line(cmp, row, i);
	const char *colon = strstr(l, ": ");
	char *d = xstrdup(colon ? colon + 2 : l);
	free(l);
	return d;
}

static size_t cmp_headline_cells(const struct comparison *cmp)
{
	size_t n = 0;
	for (size_t r = 0; r < cmp->nrows; r++)
		n += cmp->rows[r].headline ? cmp->nruns - 1 : 0;
	return n;
}

static bool cmp_skipped(enum cmp_verdict v)
{
	return v == CMP_UNSTABLE || v == CMP_TOO_FEW || v == CMP_MISSING;
}

void compare_write_junit(FILE *f, const struct comparison *cmp, const struct functional *fn)
{
	char line[512];
	size_t fail = 0, skip = 0;
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 1; cmp->rows[r].headline && i < cmp->nruns; i++) {
			fail += cmp->rows[r].cells[i].verdict == CMP_REGRESSED;
			skip += cmp_skipped(cmp->rows[r].cells[i].verdict);
		}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites>\n<testsuite name=\"vmregress compare\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		   "skipped=\"%zu\">\n<properties><property name=\"verdict\" value=\"",
		cmp_headline_cells(cmp), fail, skip);
	xml_escape(f, compare_verdict_line(line, sizeof(line), cmp));
	fputs("\"/>\n", f);
	for (size_t k = 0; k < cmp->env_flags.n; k++) {
		fputs("<property name=\"environment-differs\" value=\"", f);
		xml_escape(f, cmp->env_flags.v[k]);
		fputs("\"/>\n", f);
	}
	fputs("</properties>\n", f);
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 1; cmp->rows[r].headline && i < cmp->nruns; i++) {
			const struct cmp_row *row = &cmp->rows[r];
			enum cmp_verdict v = row->cells[i].verdict;
			char *detail = cmp_case_detail(cmp, row, i);
			fputs("<testcase classname=\"", f);
			xml_escape(f, row->case_name);
			fputs("\" name=\"", f);
			xml_escape(f, row->metric);
			fputs(" (", f);
			xml_escape(f, cmp->labels[i]);
			fputs(")\">", f);
			if (v == CMP_REGRESSED || cmp_skipped(v)) {
				fprintf(f, "<%s message=\"%s: ", v == CMP_REGRESSED ? "failure" : "skipped",
					cmp_verdict_name(v));
				xml_escape(f, detail);
				fputs("\"/>", f);
			} else {
				fprintf(f, "<system-out>%s: ", cmp_verdict_name(v));
				xml_escape(f, detail);
				fputs("</system-out>", f);
			}
			fputs("</testcase>\n", f);
			free(detail);
		}
	fputs("</testsuite>\n", f);
	functional_write_junit(f, fn, cmp->labels);  /* each selftest case, in a suite of its own */
	fputs("</testsuites>\n", f);
}

/* TAP's description may not hold '#', which starts a directive. */
static void tap_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '#' ? '+' : *s == '\n' ? ' ' : *s, f);
}

void compare_write_tap(FILE *f, const struct comparison *cmp, const struct functional *fn)
{
	char line[512];
	size_t fails, skips;
	fprintf(f, "TAP version 13\n1..%zu\n# ", cmp_headline_cells(cmp) + functional_ci_count(fn, &fails, &skips));
	tap_text(f, compare_verdict_line(line, sizeof(line), cmp));
	fputc('\n', f);
	for (size_t k = 0; k < cmp->env_flags.n; k++) {
		fputs("# environment differs: ", f);
		tap_text(f, cmp->env_flags.v[k]);
		fputc('\n', f);
	}
	size_t n = 0;
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 1; cmp->rows[r].headline && i < cmp->nruns; i++) {
			const struct cmp_row *row = &cmp->rows[r];
			enum cmp_verdict v = row->cells[i].verdict;
			char *detail = cmp_case_detail(cmp, row, i);
			fprintf(f, "%s %zu - ", v == CMP_REGRESSED ? "not ok" : "ok", ++n);
			tap_text(f, row->case_name);
			fputc(' ', f);
			tap_text(f, row->metric);
			fputs(" (", f);
			tap_text(f, cmp->labels[i]);
			fprintf(f, "): %s: ", cmp_verdict_name(v));
			tap_text(f, detail);
			if (cmp_skipped(v))
				fprintf(f, " # SKIP %s", cmp_verdict_name(v));
			fputc('\n', f);
			free(detail);
		}
	functional_write_tap(f, fn, cmp->labels, &n);
}
