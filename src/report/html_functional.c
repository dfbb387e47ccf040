/* The report's table of the kernel selftests' results per run (a matrix's
 * kernels side by side): a row per case, a column per run, regressions
 * first (report/html_int.h). */
#include "report/html_int.h"

#include <string.h>

#include "stats/functional.h"

/* A row: one case, wherever it ran, and the worst compare made of it. */
struct hf_row {
	const struct fn_case *c;    /* the first run's that has it */
	int rank;                   /* 0 regression, 1 flaky, 2 failing, 3 improvement, 4 coverage, 5 the rest */
	const char *change;         /* fn_kind_name of its worst change, or NULL */
};

static int hf_rank_of_kind(enum fn_kind k)
{
	static const int rank[] = { [FN_REGRESSION] = 0, [FN_FLAKY] = 1, [FN_IMPROVEMENT] = 3, [FN_COVERAGE] = 4 };
	return rank[k];
}

static bool hf_same(const struct fn_case *a, const struct fn_case *b)
{
	return !strcmp(a->suite_case, b->suite_case) && !strcmp(a->test, b->test) && !strcmp(a->name, b->name);
}

static void hf_rank(const struct functional *fn, struct hf_row *row)
{
	row->rank = 5;
	for (size_t i = 0; i < fn->n; i++) {
		const struct fn_change *x = &fn->v[i];
		if (strcmp(x->suite_case, row->c->suite_case) || strcmp(x->test, row->c->test) ||
		    strcmp(x->name, row->c->name) || hf_rank_of_kind(x->kind) >= row->rank)
			continue;
		row->rank = hf_rank_of_kind(x->kind);
		row->change = fn_kind_name(x->kind);
	}
	for (size_t r = 0; r < fn->nruns && row->rank > 2; r++) {
		const struct fn_case *k = fn_run_find(&fn->runs[r], row->c->suite_case, row->c->test, row->c->name);
		if (k && k->c.fail)
			row->rank = 2;  /* fails, but no change: failing everywhere */
	}
}

/* Every case of every run once, regressions first, each rank in the order
 * the cases ran. */
static struct hf_row *hf_rows(const struct functional *fn, size_t *nrows)
{
	size_t cap = 0, n = 0;
	for (size_t r = 0; r < fn->nruns; r++)
		cap += fn->runs[r].n;
	struct hf_row *rows = xcalloc(cap + 1, sizeof(*rows));
	for (size_t r = 0; r < fn->nruns; r++)
		for (size_t i = 0; i < fn->runs[r].n; i++) {
			size_t j = 0;
			while (j < n && !hf_same(rows[j].c, &fn->runs[r].v[i]))
				j++;
			if (j == n)
				rows[n++].c = &fn->runs[r].v[i];
		}
	for (size_t j = 0; j < n; j++)
		hf_rank(fn, &rows[j]);
	struct hf_row *sorted = xcalloc(n + 1, sizeof(*sorted));
	size_t o = 0;
	for (int rank = 0; rank <= 5; rank++)
		for (size_t j = 0; j < n; j++)
			if (rows[j].rank == rank)
				sorted[o++] = rows[j];
	free(rows);
	*nrows = n;
	return sorted;
}

/* A run's cell: its status with the counts, the reason as its title. */
static void hf_cell(FILE *f, const struct fn_case *k)
{
	if (!k) {
		fputs("<td class=\"fn-absent\">-</td>", f);
		return;
	}
	const char *st = fn_case_status(&k->c);
	fprintf(f, "<td class=\"fn-%s\"", st);
	if (k->reason) {
		fputs(" title=\"", f);
		html_esc(f, k->reason);
		fputc('"', f);
	}
	fprintf(f, ">%s", st);
	if (!strcmp(st, "fail") || !strcmp(st, "flaky"))
		fprintf(f, " %u/%u", k->c.fail, k->c.n);
	else if (!strcmp(st, "pass"))
		fprintf(f, " %u/%u", k->c.pass, k->c.n);
	else
		fprintf(f, " %u/%u", k->c.skip, k->c.n);
	fputs("</td>", f);
}

void html_functional(struct report_ctx *x, const struct functional *fn)
{
	if (!fn->any)
		return;
	size_t n = 0;
	struct hf_row *rows = hf_rows(fn, &n);
	FILE *f = x->f;
	fprintf(f, "<section id=\"functional\"><h2>Kernel selftests</h2>\n<p class=\"note\">%zu cases. Each run's "
		   "status over its iterations with the count (failed, passed or skipped of the iterations): "
		   "<i>flaky</i> passed in some and failed in others; a skip's or failure's reason shows on "
		   "hovering. Regressions against %s first, then flaky, failing, improved and coverage changes.",
		n, x->cmp->labels[0]);
	if (fn->versions) {
		fputs(" The selftests themselves differ (", f);
		html_esc(f, fn->versions);
		fputs("): a change may be the tests', not the kernel's.", f);
	}
	fputs("</p>\n<table class=\"functional\"><tr><th>case</th><th>test</th><th>selftest case</th><th>change</th>", f);
	for (size_t r = 0; r < fn->nruns; r++) {
		fputs("<th>", f);
		html_esc(f, x->cmp->labels[r]);
		if (x->runs[r]->info.kernel) {
			fputs("<br><small>", f);
			html_esc(f, x->runs[r]->info.kernel);
			fputs("</small>", f);
		}
		if (fn->runs[r].selftests) {
			fputs("<br><small>selftests of ", f);
			html_esc(f, fn->runs[r].selftests);
			fputs("</small>", f);
		}
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t j = 0; j < n; j++) {
		fprintf(f, "<tr%s%s%s>", rows[j].change ? " class=\"fn-" : "", rows[j].change ? rows[j].change : "",
			rows[j].change ? "\"" : "");
		html_td(f, rows[j].c->suite_case);
		html_td(f, rows[j].c->test);
		html_td(f, rows[j].c->name);
		html_td(f, rows[j].change ? rows[j].change : "");
		for (size_t r = 0; r < fn->nruns; r++)
			hf_cell(f, fn_run_find(&fn->runs[r], rows[j].c->suite_case, rows[j].c->test, rows[j].c->name));
		fputs("</tr>\n", f);
	}
	fputs("</table></section>\n", f);
	free(rows);
}
