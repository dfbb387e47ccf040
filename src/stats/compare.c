#include "stats/compare.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/envdiff.h"
#include "stats/summary.h"
#include "stats/trust.h"
#include "stats/verdict.h"

double cmp_change_pct(double base, double value)
{
	if (base == 0)
		return value == 0 ? 0 : NAN;
	double rel = (value - base) / fabs(base) * 100.0;
	return rel == 0 ? 0 : rel;  /* not -0, which would print as "-0.00%" */
}

static struct cmp_left *compare_left(struct comparison *cmp, enum cmp_left_why why, const char *case_name,
				     const char *metric, const char *run)
{
	cmp->left_out = xrealloc(cmp->left_out, (cmp->nleft + 1) * sizeof(*cmp->left_out));
	struct cmp_left *l = &cmp->left_out[cmp->nleft++];
	*l = (struct cmp_left){ .why = why, .case_name = xstrdup(case_name), .metric = metric ? xstrdup(metric) : NULL,
				.run = run ? xstrdup(run) : NULL };
	return l;
}

/* The blocks of an interleaved group where both runs' iterations passed
 * with a value: iteration k of every variant ran in block k (harness/plan.h),
 * next to each other in time, so the pair shares the machine's state of
 * that moment.  Only runs that recorded their order (iter_seq) are paired.
 * Returns the number of pairs; *pa and *pb get their values. */
static size_t compare_pairs(const struct run_case *a, const struct run_case *b, const char *metric, double **pa,
			    double **pb)
{
	*pa = xcalloc(a->niter + 1, sizeof(double));
	*pb = xcalloc(a->niter + 1, sizeof(double));
	size_t n = 0;
	if (!a->iter_no || !b->iter_no || !a->iter_seq || !b->iter_seq)
		return 0;
	/* b's iterations by number: blocks are matched in one pass. */
	int top = -1;
	for (size_t j = 0; j < b->niter; j++)
		top = b->iter_no[j] > top ? b->iter_no[j] : top;
	size_t *at = xcalloc((size_t)(top + 1) + 1, sizeof(size_t));  /* index + 1; 0: none */
	for (size_t j = 0; j < b->niter; j++)
		if (b->iter_no[j] >= 0)
			at[b->iter_no[j]] = j + 1;
	for (size_t i = 0; i < a->niter; i++) {
		int k = a->iter_no[i];
		if (k < 0 || k > top || !at[k])
			continue;
		const struct result *ra = &a->iters[i], *rb = &b->iters[at[k] - 1];
		const struct metric *x = result_find_metric(ra, metric), *y = result_find_metric(rb, metric);
		if (x && y && ra->outcome == OUTCOME_PASS && rb->outcome == OUTCOME_PASS && isfinite(x->value) &&
		    isfinite(y->value)) {
			(*pa)[n] = x->value;
			(*pb)[n++] = y->value;
		}
	}
	free(at);
	return n;
}

bool compare_rank_tested(const char *metric)
{
	return !fnmatch("*-p[0-9]*", metric, 0) || !fnmatch("*-max", metric, 0);
}

/* Counts of events and pages, where a base under 10 makes a percentage a
 * matter of one event more or less. */
static bool compare_is_count(const char *unit)
{
	static const char *const counts[] = { "pages", "faults", "refs", "events", "" };
	for (size_t i = 0; i < ARRAY_SIZE(counts); i++)
		if (!strcmp(unit, counts[i]))
			return true;
	return false;
}

static void compare_abs_change(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row)
{
	double b = fabs(base->s.mean), v = fabs(cell->s.mean);
	cell->abs_change = b == 0 || v > 1000 * b || (compare_is_count(row->unit) && fmax(b, v) < 10);
}

/* The figures of a cell against the base; the verdict waits for q. */
static void compare_cell_fill(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row,
			      const struct comparison *cmp)
{
	cell->ratio = cell->ci_low = cell->ci_high = cell->p = cell->q = NAN;
	stats_welch(NULL, 0, NULL, 0, &cell->w);
	stats_mann_whitney(NULL, 0, NULL, 0, &cell->mw);
	if (!cell->present) {
		cell->verdict = CMP_MISSING;
		return;
	}
	if (cell == base) {
		cell->ratio = 1;
		cell->verdict = CMP_SAME;
		return;
	}
	if (!base->present) {
		cell->change_pct = NAN;
		cell->verdict = CMP_MISSING;
		return;
	}
	cell->change_pct = cmp_change_pct(base->s.mean, cell->s.mean);
	cell->noise_floor = cell->interleaved ? cmp->noise_min : fmax(cmp->noise_min, fmax(base->s.cv, cell->s.cv));
	if (row->ref.found) {
		/* the A/A group's spread is what no change looks like here */
		cell->noise_floor = fmax(cell->noise_floor, row->ref.cv);
		cell->noise_ref = true;
	}
	compare_abs_change(cell, base, row);
	if (row->test == CMP_TEST_MWU)
		compare_mwu(cell, base);
	else
		compare_welch(cell, base, row);
}

static bool compare_row_significant(const struct cmp_row *row, size_t nruns)
{
	for (size_t i = 1; i < nruns; i++)
		if (row->cells[i].significant)
			return true;
	return false;
}

static void compare_row_free(struct cmp_row *row, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++) {
		free(row->cells[i].values);
		free(row->cells[i].pair_base);
		free(row->cells[i].pair_run);
	}
	free(row->cells);
	free(row->case_name);
	free(row->metric);
	free(row->unit);
}

/* Zero in every iteration of every run: a counter that never moved. */
static bool compare_row_zero(const struct cmp_row *row, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++)
		if (row->cells[i].present && (row->cells[i].s.min != 0 || row->cells[i].s.max != 0))
			return false;
	return true;
}

static void compare_add_row(struct comparison *cmp, const char *case_name, const char *metric,
			    const struct compare_opts *o, struct strlist *zero)
{
	struct cmp_row row = { .case_name = xstrdup(case_name), .metric = xstrdup(metric) };
	row.cells = xcalloc(cmp->nruns, sizeof(*row.cells));
	const struct metric *m = NULL;
	const char *workload = NULL;
	const struct run_case *c0 = compare_find_case(cmp->runs[0], case_name);
	for (size_t i = 0; i < cmp->nruns; i++) {
		const struct run_case *c = compare_find_case(cmp->runs[i], case_name);
		if (!c)
			continue;
		workload = workload ? workload : c->workload;
		struct cmp_cell *cell = &row.cells[i];
		cell->interleaved = compare_interleaved(cmp->runs[0], cmp->runs[i]);
		size_t n = summary_values(c, metric, &cell->values, &m);
		cell->present = n > 0;
		cell->s.n = n;
		if (!n)
			compare_left(cmp, CMP_LEFT_NO_PASS, case_name, metric, cmp->labels[i]);
	}
	row.unit = xstrdup(m ? m->unit : "");
	row.better = m ? m->better : BETTER_NONE;
	row.combine = m ? m->combine : COMBINE_AMEAN;
	row.headline = (o->headline && workload && o->headline(workload, metric)) ||
		       (o->headline_glob && compare_glob(o->headline_glob, metric));
	row.test = compare_rank_tested(metric) ? CMP_TEST_MWU : CMP_TEST_WELCH;
	if (row.headline && cmp->noise_ref)
		row.ref = compare_ref_noise(cmp->noise_ref, case_name, metric);
	for (size_t i = 1; c0 && i < cmp->nruns; i++) {
		struct cmp_cell *cell = &row.cells[i];
		const struct run_case *c = compare_find_case(cmp->runs[i], case_name);
		if (!cell->interleaved || !cell->present || !c)
			continue;
		cell->npairs = compare_pairs(c0, c, metric, &cell->pair_base, &cell->pair_run);
		cell->paired = cell->npairs >= CMP_MIN_ITERATIONS;
	}
	for (size_t i = 0; i < cmp->nruns; i++) {
		struct cmp_cell *cell = &row.cells[i];
		cell->median = NAN;
		if (!cell->present)
			continue;
		stats_summarize(cell->values, cell->s.n, row.combine, &cell->s);
		if (row.test == CMP_TEST_MWU)
			cell->median = stats_median(cell->values, cell->s.n);
	}
	for (size_t i = 0; i < cmp->nruns; i++)
		compare_cell_fill(&row.cells[i], &row.cells[0], &row, cmp);
	if (compare_row_zero(&row, cmp->nruns)) {
		/* no steal is a measure of the host, not a counter that never
		 * moved: the trust warnings speak of steal when there is some */
		if (strcmp(metric, CMP_STEAL_METRIC))
			strlist_add(zero, metric);
		compare_row_free(&row, cmp->nruns);
		return;
	}
	cmp->rows = xrealloc(cmp->rows, (cmp->nrows + 1) * sizeof(row));
	cmp->rows[cmp->nrows++] = row;
}

/* A test that can give a verdict: enough iterations on both sides. */
static bool compare_is_test(const struct cmp_row *row, size_t i)
{
	const struct cmp_cell *c = &row->cells[i], *base = &row->cells[0];
	return i && !isnan(c->p) && c->s.n >= CMP_MIN_ITERATIONS && base->s.n >= CMP_MIN_ITERATIONS;
}

/* Benjamini-Hochberg over one family of tests: the headline cells (the
 * verdict's family) or the others (explanations), so that counters that
 * drift with the machine do not change which headline changes are called.
 * Cells with too few iterations have a p-value to show but are no test of
 * the family: they could never be called. */
static void compare_fdr(struct comparison *cmp, bool headline)
{
	size_t n = cmp->nrows * cmp->nruns, k = 0;
	double *p = xcalloc(n + 1, sizeof(double)), *q = xcalloc(n + 1, sizeof(double));
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 0; i < cmp->nruns; i++)
			p[k++] = cmp->rows[r].headline == headline && compare_is_test(&cmp->rows[r], i)
					 ? cmp->rows[r].cells[i].p
					 : NAN;
	stats_bh(p, n, q);
	k = 0;
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 0; i < cmp->nruns; i++, k++)
			if (cmp->rows[r].headline == headline)
				cmp->rows[r].cells[i].q = q[k];
	free(p);
	free(q);
}

static void compare_tally(struct cmp_tally *t, enum cmp_verdict v)
{
	size_t *slot[] = { [CMP_SAME] = &t->same,       [CMP_IMPROVED] = &t->improved,
			   [CMP_REGRESSED] = &t->regressed, [CMP_CHANGED] = &t->changed,
			   [CMP_TOO_FEW] = &t->too_few,     [CMP_MISSING] = &t->missing,
			   [CMP_UNSTABLE] = &t->unstable };
	(*slot[v])++;
}

static void compare_verdicts(struct comparison *cmp, const struct compare_opts *o)
{
	compare_fdr(cmp, true);
	compare_fdr(cmp, false);
	size_t m = 0;
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 1; cmp->rows[r].headline && i < cmp->nruns; i++)
			m += compare_is_test(&cmp->rows[r], i);
	size_t out = 0;
	for (size_t r = 0; r < cmp->nrows; r++) {
		struct cmp_row *row = &cmp->rows[r];
		for (size_t i = 0; i < cmp->nruns; i++) {
			compare_cell_verdict(&row->cells[i], &row->cells[0], row, cmp, cmp->alpha / (double)(m ? m : 1));
			row->cells[i].mde = NAN;
			if (row->headline && row->ref.found)
				compare_mde_ref(&row->cells[i], &row->cells[0], row, cmp->alpha / (double)(m ? m : 1));
			else if (row->headline)
				compare_mde(&row->cells[i], &row->cells[0], row, cmp->alpha / (double)(m ? m : 1));
		}
		cmp->noise_from_rows += row->ref.found;
		for (size_t i = 1; row->headline && i < cmp->nruns; i++)
			compare_tally(&cmp->tally, row->cells[i].verdict);
		if (o->only_significant && !compare_row_significant(row, cmp->nruns))
			compare_row_free(row, cmp->nruns);
		else
			cmp->rows[out++] = *row;
	}
	cmp->nrows = out;
}

static void compare_note_zero(struct comparison *cmp, const char *case_name, const struct strlist *zero)
{
	if (!zero->n)
		return;
	struct cmp_left *l = compare_left(cmp, CMP_LEFT_ZERO, case_name, NULL, NULL);
	for (size_t i = 0; i < zero->n; i++)
		strlist_add(&l->metrics, zero->v[i]);
}

/* Metric names of a case in order of first appearance over its iterations. */
static void compare_case_metrics(const struct run_case *c, struct strlist *names)
{
	for (size_t i = 0; i < c->niter; i++)
		for (size_t k = 0; k < c->iters[i].nmetrics; k++) {
			const char *name = c->iters[i].metrics[k].name;
			size_t j = 0;
			while (j < names->n && strcmp(names->v[j], name))
				j++;
			if (j == names->n)
				strlist_add(names, name);
		}
}


/* Iteration i of c is a warm-up: one of the case's first `warmup`, which
 * the runner stores as skipped when it passed (a warm-up that failed
 * failed). */
static bool compare_is_warmup(const struct run_case *c, size_t i)
{
	json_int_t warmup = json_integer_value(json_object_get(c->options, "warmup"));
	int no = c->iter_no ? c->iter_no[i] : (int)i;
	return c->iters[i].outcome == OUTCOME_SKIP && no < warmup;
}

/* Iterations that did not pass are not counted: say so, the warm-ups
 * apart (they were never meant to count). */
static void compare_note_failed(struct comparison *cmp, size_t ri, const struct compare_opts *o)
{
	const struct run *r = cmp->runs[ri];
	for (size_t k = 0; k < r->ncases; k++) {
		const struct run_case *c = &r->cases[k];
		size_t bad = 0, warm = 0;
		for (size_t i = 0; i < c->niter; i++) {
			bool w = compare_is_warmup(c, i);
			warm += w;
			bad += !w && c->iters[i].outcome != OUTCOME_PASS;
		}
		if (!compare_glob(o->cases, c->name))
			continue;
		if (warm) {
			struct cmp_left *l = compare_left(cmp, CMP_LEFT_WARMUP, c->name, NULL, cmp->labels[ri]);
			l->count = warm;
			l->of = c->niter;
		}
		if (bad) {
			struct cmp_left *l = compare_left(cmp, CMP_LEFT_FAILED, c->name, NULL, cmp->labels[ri]);
			l->count = bad;
			l->of = c->niter;
		}
	}
}

/* Say what a run holds that the base does not, and what it lacks. */
static void compare_note_left_out(struct comparison *cmp, size_t ri, const struct compare_opts *o)
{
	const struct run *base = cmp->runs[0], *r = cmp->runs[ri];
	for (size_t k = 0; k < r->ncases; k++) {
		const struct run_case *c = &r->cases[k];
		if (!compare_glob(o->cases, c->name))
			continue;
		const struct run_case *bc = compare_find_case(base, c->name);
		if (!bc) {
			compare_left(cmp, CMP_LEFT_ONLY_IN_RUN, c->name, NULL, cmp->labels[ri]);
			continue;
		}
		struct strlist mine = { 0 }, theirs = { 0 };
		compare_case_metrics(c, &mine);
		compare_case_metrics(bc, &theirs);
		for (size_t i = 0; i < mine.n; i++)
			if (compare_glob(o->metrics, mine.v[i]) && !strlist_has(&theirs, mine.v[i]))
				compare_left(cmp, CMP_LEFT_ONLY_IN_RUN, c->name, mine.v[i], cmp->labels[ri]);
		strlist_free(&mine);
		strlist_free(&theirs);
	}
	for (size_t k = 0; k < base->ncases; k++)
		if (compare_glob(o->cases, base->cases[k].name) && !compare_find_case(r, base->cases[k].name))
			compare_left(cmp, CMP_LEFT_NOT_IN_RUN, base->cases[k].name, NULL, cmp->labels[ri]);
}

static char *compare_label(const struct run *r, size_t idx)
{
	if (r->info.name && *r->info.name)
		return xstrdup(r->info.name);
	if (r->info.id > 0)
		return xasprintf("#%lld", (long long)r->info.id);
	return xasprintf("run%zu", idx + 1);
}

static void compare_labels(struct comparison *cmp)
{
	cmp->labels = xcalloc(cmp->nruns, sizeof(char *));
	for (size_t i = 0; i < cmp->nruns; i++)
		cmp->labels[i] = compare_label(cmp->runs[i], i);
	/* Runs that share a name get their ids (or positions) appended. */
	bool *dup = xcalloc(cmp->nruns, sizeof(bool));
	for (size_t i = 0; i < cmp->nruns; i++)
		for (size_t j = 0; j < cmp->nruns; j++)
			if (i != j && !strcmp(cmp->labels[i], cmp->labels[j]))
				dup[i] = true;
	for (size_t k = 0; k < cmp->nruns; k++) {
		if (!dup[k])
			continue;
		char *l = cmp->runs[k]->info.id > 0
				  ? xasprintf("%s#%lld", cmp->labels[k], (long long)cmp->runs[k]->info.id)
				  : xasprintf("%s(%zu)", cmp->labels[k], k + 1);
		free(cmp->labels[k]);
		cmp->labels[k] = l;
	}
	free(dup);
}

double cmp_ratio_pct(double ratio)
{
	double pct = (ratio - 1) * 100;
	return pct == 0 ? 0 : pct;
}

struct cmp_mag {
	size_t row;
	double mag;
};

static int compare_mag_desc(const void *x, const void *y)
{
	double a = ((const struct cmp_mag *)x)->mag, b = ((const struct cmp_mag *)y)->mag;
	return (a < b) - (a > b);
}

size_t cmp_explain(const struct comparison *cmp, size_t r, size_t i, size_t *out, size_t max)
{
	const struct cmp_row *head = &cmp->rows[r];
	struct cmp_mag *c = xcalloc(cmp->nrows + 1, sizeof(*c));
	size_t n = 0;
	for (size_t k = 0; k < cmp->nrows; k++) {
		const struct cmp_row *row = &cmp->rows[k];
		if (row->headline || strcmp(row->case_name, head->case_name) || !row->cells[i].significant)
			continue;
		/* By the size of the change on a log scale; a change from 0 is the largest. */
		double ratio = row->cells[i].ratio;
		c[n++] = (struct cmp_mag){ .row = k, .mag = isnan(ratio) || ratio <= 0 ? INFINITY : fabs(log(ratio)) };
	}
	qsort(c, n, sizeof(*c), compare_mag_desc);
	n = n < max ? n : max;
	for (size_t k = 0; k < n; k++)
		out[k] = c[k].row;
	free(c);
	return n;
}

/* A counter keeps its meaning under emulation; a time or a rate does not. */
static bool compare_is_counter(const struct cmp_row *row)
{
	static const char *const timed[] = { "ns", "us", "ms", "s", "%" };
	for (size_t i = 0; i < ARRAY_SIZE(timed); i++)
		if (!strcmp(row->unit, timed[i]))
			return false;
	return !strstr(row->unit, "/s");
}

/* Stable: counters first within each case, each group in its old order. */
static void compare_counters_first(struct comparison *cmp)
{
	struct cmp_row *out = xcalloc(cmp->nrows, sizeof(*out));
	size_t o = 0;
	for (size_t start = 0; start < cmp->nrows;) {
		size_t end = start;
		while (end < cmp->nrows && !strcmp(cmp->rows[end].case_name, cmp->rows[start].case_name))
			end++;
		for (int pass = 0; pass < 2; pass++)
			for (size_t r = start; r < end; r++)
				if (compare_is_counter(&cmp->rows[r]) == (pass == 0))
					out[o++] = cmp->rows[r];
		start = end;
	}
	free(cmp->rows);
	cmp->rows = out;
}

/* Cases with a passing value in the base and in another run; rows of a
 * case are next to each other until the verdicts drop or reorder them. */
static void compare_count_shared(struct comparison *cmp)
{
	bool shared = false;
	for (size_t r = 0; r < cmp->nrows; r++) {
		if (r && strcmp(cmp->rows[r].case_name, cmp->rows[r - 1].case_name)) {
			cmp->nshared += shared;
			shared = false;
		}
		for (size_t i = 1; i < cmp->nruns; i++)
			shared |= cmp->rows[r].cells[0].present && cmp->rows[r].cells[i].present;
	}
	cmp->nshared += shared;
}

void compare_runs(const struct run *const *runs, size_t n, const struct compare_opts *o,
		  struct comparison *cmp)
{
	memset(cmp, 0, sizeof(*cmp));
	cmp->runs = runs;
	cmp->nruns = n;
	cmp->alpha = o->alpha > 0 ? o->alpha : 0.05;
	cmp->noise_min = o->noise_min > 0 ? o->noise_min : 0.01;
	cmp->unstable_cv = o->unstable_cv > 0 ? o->unstable_cv : 0.20;
	cmp->noise_ref = o->noise_ref;
	cmp->noise_from = o->noise_ref ? xstrdup(o->noise_ref_name ? o->noise_ref_name : "?") : NULL;
	compare_labels(cmp);
	for (size_t i = 1; i < n; i++)
		cmp->ninterleaved += compare_interleaved(runs[0], runs[i]);
	compare_env_diff(cmp, o);
	for (size_t k = 0; n && k < runs[0]->ncases; k++) {
		const struct run_case *c = &runs[0]->cases[k];
		if (!compare_glob(o->cases, c->name))
			continue;
		struct strlist metrics = { 0 }, zero = { 0 };
		compare_case_metrics(c, &metrics);
		for (size_t m = 0; m < metrics.n; m++)
			if (compare_glob(o->metrics, metrics.v[m]))
				compare_add_row(cmp, c->name, metrics.v[m], o, &zero);
		compare_note_zero(cmp, c->name, &zero);
		strlist_free(&metrics);
		strlist_free(&zero);
	}
	compare_count_shared(cmp);
	compare_verdicts(cmp, o);
	compare_env_flags(cmp, o);
	for (size_t i = 1; i < n; i++)
		compare_note_left_out(cmp, i, o);
	for (size_t i = 0; i < n; i++)
		compare_note_failed(cmp, i, o);
	compare_trust(cmp, o);
	for (size_t i = 0; i < n; i++)
		cmp->emulated |= compare_run_emulated(runs[i]);
	if (cmp->emulated && cmp->nrows)
		compare_counters_first(cmp);
	cmp->noise_ref = NULL;
}

void compare_free(struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->nrows; i++)
		compare_row_free(&cmp->rows[i], cmp->nruns);
	for (size_t i = 0; i < cmp->nenv; i++) {
		for (size_t k = 0; k < cmp->nruns; k++)
			free(cmp->env[i].values[k]);
		free(cmp->env[i].values);
		free(cmp->env[i].key);
	}
	for (size_t i = 0; cmp->labels && i < cmp->nruns; i++)
		free(cmp->labels[i]);
	free(cmp->labels);
	free(cmp->rows);
	free(cmp->env);
	for (size_t i = 0; i < cmp->nleft; i++) {
		free(cmp->left_out[i].case_name);
		free(cmp->left_out[i].metric);
		free(cmp->left_out[i].run);
		strlist_free(&cmp->left_out[i].metrics);
	}
	free(cmp->left_out);
	strlist_free(&cmp->env_flags);
	free(cmp->noise_from);
	compare_trust_free(cmp);
	memset(cmp, 0, sizeof(*cmp));
}
