#include "stats/compare.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static const char *const verdict_names[] = { "same",    "improved", "regressed", "changed",
					     "too-few", "missing",  "unstable" };

const char *cmp_verdict_name(enum cmp_verdict v)
{
	return (unsigned)v < ARRAY_SIZE(verdict_names) ? verdict_names[v] : "?";
}

double cmp_change_pct(double base, double value, enum better b)
{
	if (base == 0)
		return value == 0 ? 0 : NAN;
	double rel = (value - base) / fabs(base) * 100.0;
	if (rel == 0)
		return 0;  /* not -0, which would print as "-0.00%" */
	return b == BETTER_LOWER ? -rel : rel;
}

static void compare_note_to(struct strlist *l, char *note)
{
	strlist_add(l, note);
	free(note);
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

const char *compare_left_reason(enum cmp_left_why why)
{
	static const char *const names[] = { "no-passing-iteration", "zero-in-every-run", "did-not-pass",
					     "only-in-run", "not-in-run" };
	return names[why % ARRAY_SIZE(names)];
}

static const struct run_case *compare_find_case(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].name, name))
			return &r->cases[i];
	return NULL;
}

/* The passing iterations' values of one metric; the first holder's
 * description fills m.  Returns how many iterations held it. */
static size_t compare_collect(const struct run_case *c, const char *metric, double **vals,
			      const struct metric **m)
{
	*vals = xcalloc(c->niter + 1, sizeof(double));
	size_t n = 0;
	for (size_t i = 0; i < c->niter; i++) {
		const struct metric *x = result_find_metric(&c->iters[i], metric);
		if (!x || c->iters[i].outcome != OUTCOME_PASS || !isfinite(x->value))
			continue;
		if (!*m)
			*m = x;
		(*vals)[n++] = x->value;
	}
	return n;
}

/* Percentiles and maxima of an iteration are not normal across
 * iterations (a few slow events move them): a rank test, not a t-test. */
static bool compare_nonnormal(const char *metric)
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

/* Welch on the means, and the ratio's interval as 1 + (difference's
 * interval) / base mean.  Rates are averaged by harmonic mean, which is the
 * arithmetic mean of their reciprocals (time per unit of work): they are
 * tested on those, so that test, ratio and interval agree. */
static void compare_welch(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row)
{
	size_t na = base->s.n, nb = cell->s.n;
	bool recip = row->combine == COMBINE_HMEAN && base->s.min > 0 && cell->s.min > 0;
	double *a = xcalloc(na + 1, sizeof(double)), *b = xcalloc(nb + 1, sizeof(double));
	for (size_t k = 0; k < na; k++)
		a[k] = recip ? 1 / base->values[k] : base->values[k];
	for (size_t k = 0; k < nb; k++)
		b[k] = recip ? 1 / cell->values[k] : cell->values[k];
	double ma = stats_amean(a, na), mb = stats_amean(b, nb), lo, hi;
	stats_welch(a, na, b, nb, &cell->w);
	stats_welch_ci(ma, stats_variance(a, na), na, mb, stats_variance(b, nb), nb, 0.95, &lo, &hi);
	cell->p = cell->w.too_few ? NAN : cell->w.p;
	if (ma == 0) {
		cell->ratio = cell->ci_low = cell->ci_high = NAN;
	} else if (recip) {
		cell->ratio = ma / mb;
		cell->ci_low = ma + hi > 0 ? ma / (ma + hi) : NAN;
		cell->ci_high = ma + lo > 0 ? ma / (ma + lo) : INFINITY;
	} else {
		cell->ratio = mb / ma;
		cell->ci_low = 1 + lo / fabs(ma);
		cell->ci_high = 1 + hi / fabs(ma);
	}
	free(a);
	free(b);
}

/* Mann-Whitney U for p, and a bootstrap interval of the ratio of medians. */
static void compare_mwu(struct cmp_cell *cell, const struct cmp_cell *base)
{
	size_t na = base->s.n, nb = cell->s.n;
	stats_welch(base->values, na, cell->values, nb, &cell->w);
	stats_mann_whitney(base->values, na, cell->values, nb, &cell->mw);
	cell->p = cell->mw.too_few ? NAN : cell->mw.p;
	double ma = stats_median(base->values, na);
	cell->ratio = ma != 0 ? stats_median(cell->values, nb) / ma : NAN;
	cell->ci_low = cell->ci_high = NAN;
	if (!cell->mw.too_few && ma != 0)
		stats_bootstrap_ratio(base->values, na, cell->values, nb, 0.95, 2000, 0x766d72656772ULL,
				      &cell->ci_low, &cell->ci_high);
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
	cell->change_pct = cmp_change_pct(base->s.mean, cell->s.mean, row->better);
	cell->noise_floor = fmax(cmp->noise_min, fmax(base->s.cv, cell->s.cv));
	compare_abs_change(cell, base, row);
	if (row->test == CMP_TEST_MWU)
		compare_mwu(cell, base);
	else
		compare_welch(cell, base, row);
}

/* The rule of docs/statistics.md, once q is known. */
static void compare_cell_verdict(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row,
				 const struct comparison *cmp)
{
	if (cell == base || !cell->present || !base->present)
		return;
	if (base->s.n < CMP_MIN_ITERATIONS || cell->s.n < CMP_MIN_ITERATIONS || isnan(cell->p)) {
		cell->verdict = CMP_TOO_FEW;
		return;
	}
	if (base->s.cv > cmp->unstable_cv || cell->s.cv > cmp->unstable_cv) {
		cell->verdict = CMP_UNSTABLE;
		return;
	}
	/* From a base of 0 there is no ratio: any change beyond the noise is
	 * a change of kind. */
	double change = isnan(cell->ratio) ? INFINITY : fabs(cell->ratio - 1);
	cell->significant = cell->q < cmp->alpha && change > cell->noise_floor;
	if (!cell->significant)
		cell->verdict = CMP_SAME;
	else if (row->better == BETTER_NONE)
		cell->verdict = CMP_CHANGED;
	else {
		bool up = isnan(cell->ratio) ? cell->s.mean > base->s.mean : cell->ratio > 1;
		cell->verdict = up == (row->better == BETTER_HIGHER) ? CMP_IMPROVED : CMP_REGRESSED;
	}
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
	for (size_t i = 0; i < nruns; i++)
		free(row->cells[i].values);
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

static bool compare_glob(const char *pattern, const char *s);

static void compare_add_row(struct comparison *cmp, const char *case_name, const char *metric,
			    const struct compare_opts *o, struct strlist *zero)
{
	struct cmp_row row = { .case_name = xstrdup(case_name), .metric = xstrdup(metric) };
	row.cells = xcalloc(cmp->nruns, sizeof(*row.cells));
	const struct metric *m = NULL;
	const char *workload = NULL;
	for (size_t i = 0; i < cmp->nruns; i++) {
		const struct run_case *c = compare_find_case(cmp->runs[i], case_name);
		if (!c)
			continue;
		workload = workload ? workload : c->workload;
		struct cmp_cell *cell = &row.cells[i];
		size_t n = compare_collect(c, metric, &cell->values, &m);
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
	row.test = compare_nonnormal(metric) ? CMP_TEST_MWU : CMP_TEST_WELCH;
	for (size_t i = 0; i < cmp->nruns; i++)
		if (row.cells[i].present)
			stats_summarize(row.cells[i].values, row.cells[i].s.n, row.combine, &row.cells[i].s);
	for (size_t i = 0; i < cmp->nruns; i++)
		compare_cell_fill(&row.cells[i], &row.cells[0], &row, cmp);
	if (compare_row_zero(&row, cmp->nruns)) {
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

/* The change a headline test would call with 80% power, as a fraction of
 * the base: Cohen's d at that power for the t-test at level alpha / m (m
 * headline tests: the level BH holds a lone true change to), times the
 * pooled standard deviation of the values tested, over their base mean.
 * Mann-Whitney's rows count their iterations at its efficiency against the
 * t-test, 3/pi, and scale by the base median.  Never below the noise
 * floor, which a change must also exceed. */
static void compare_mde(struct cmp_cell *cell, const struct cmp_cell *base, const struct cmp_row *row,
			double alpha)
{
	size_t na = base->s.n, nb = cell->s.n;
	cell->mde = NAN;
	if (cell == base || !cell->present || !base->present || na < 2 || nb < 2)
		return;
	bool recip = row->test == CMP_TEST_WELCH && row->combine == COMBINE_HMEAN && base->s.min > 0 &&
		     cell->s.min > 0;
	double *a = xcalloc(na, sizeof(double)), *b = xcalloc(nb, sizeof(double));
	for (size_t k = 0; k < na; k++)
		a[k] = recip ? 1 / base->values[k] : base->values[k];
	for (size_t k = 0; k < nb; k++)
		b[k] = recip ? 1 / cell->values[k] : cell->values[k];
	double eff = row->test == CMP_TEST_MWU ? 3 / M_PI : 1;
	double sp = sqrt(((double)(na - 1) * stats_variance(a, na) + (double)(nb - 1) * stats_variance(b, nb)) /
			 (double)(na + nb - 2));
	double centre = row->test == CMP_TEST_MWU ? stats_median(a, na) : stats_amean(a, na);
	double d = stats_t_mde((double)na * eff, (double)nb * eff, alpha, 0.8);
	if (centre != 0 && isfinite(d))
		cell->mde = fmax(cell->noise_floor, d * sp / fabs(centre));
	free(a);
	free(b);
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
			compare_cell_verdict(&row->cells[i], &row->cells[0], row, cmp);
			row->cells[i].mde = NAN;
			if (row->headline)
				compare_mde(&row->cells[i], &row->cells[0], row, cmp->alpha / (double)(m ? m : 1));
		}
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

static bool compare_glob(const char *pattern, const char *s)
{
	return !pattern || fnmatch(pattern, s, 0) == 0;
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

static bool strlist_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

/* Iterations that did not pass are not counted: say so. */
static void compare_note_failed(struct comparison *cmp, size_t ri, const struct compare_opts *o)
{
	const struct run *r = cmp->runs[ri];
	for (size_t k = 0; k < r->ncases; k++) {
		const struct run_case *c = &r->cases[k];
		size_t bad = 0;
		for (size_t i = 0; i < c->niter; i++)
			bad += c->iters[i].outcome != OUTCOME_PASS;
		if (bad && compare_glob(o->cases, c->name)) {
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

void cmp_json_flatten(const json_t *j, const char *prefix, struct strlist *keys, struct strlist *values)
{
	if (json_is_object(j)) {
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)j, k, v) {
			char *p = *prefix ? xasprintf("%s.%s", prefix, k) : xstrdup(k);
			cmp_json_flatten(v, p, keys, values);
			free(p);
		}
		return;
	}
	if (json_is_array(j)) {
		size_t i;
		json_t *v;
		json_array_foreach((json_t *)j, i, v) {
			char *p = xasprintf("%s[%zu]", prefix, i);
			cmp_json_flatten(v, p, keys, values);
			free(p);
		}
		return;
	}
	strlist_add(keys, prefix);
	if (json_is_string(j)) {
		strlist_add(values, json_string_value(j));
	} else {
		char *s = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(12));
		strlist_add(values, s ? s : "?");
		free(s);
	}
}

static const char *compare_env_lookup(const struct strlist *keys, const struct strlist *values, const char *key)
{
	for (size_t i = 0; i < keys->n; i++)
		if (!strcmp(keys->v[i], key))
			return values->v[i];
	return NULL;
}

/* Keys naming the machine itself: runs from a fleet's shared store may come
 * from different hardware, and a reader must see that first. */
static bool compare_env_hardware(const char *key)
{
	static const char *const globs[] = { "hostname", "cpu.*", "mem_total_bytes", "numa*", "page_size" };
	for (size_t i = 0; i < ARRAY_SIZE(globs); i++)
		if (fnmatch(globs[i], key, 0) == 0)
			return true;
	return false;
}

/* Keys that change from one boot or one minute to the next say nothing
 * about the setting under test. */
static bool compare_env_volatile(const char *key, const char *value)
{
	/* Names made per process (cgroups, swap files) differ every run. */
	if (value && (!fnmatch("*vmregress-[0-9]*-[0-9]*", value, 0) ||
		      !fnmatch("*sandbox-in-force.swap.device", key, 0)))
		return true;
	static const char *const globs[] = { "*uptime*", "*boot_id*", "*MemFree*", "*MemAvailable*",
					     "*mem_free*", "*mem_available*", "*loadavg*", "*used_bytes*" };
	for (size_t i = 0; i < ARRAY_SIZE(globs); i++)
		if (fnmatch(globs[i], key, FNM_CASEFOLD) == 0)
			return true;
	return false;
}

/* The reference trace a case replayed, by what is in it: its header's
 * description (pattern and parameters), size, seed and checksum as the
 * first iteration that opened it recorded them.  NULL if none did; *path is
 * where the file lay.  (Runs stored before the mmap workload named these
 * refs* called the path and description trace and trace_description.) */
static char *compare_trace_identity(const struct run_case *c, const char **path)
{
	for (size_t i = 0; i < c->niter; i++) {
		json_t *info = c->iters[i].info;
		*path = json_string_value(json_object_get(info, "refs"));
		const char *desc = json_string_value(json_object_get(info, "refs_description"));
		if (!*path) {
			*path = json_string_value(json_object_get(info, "trace"));
			desc = json_string_value(json_object_get(info, "trace_description"));
		}
		if (!*path)
			continue;
		json_t *seed = json_object_get(info, "refs_seed"), *crc = json_object_get(info, "refs_checksum");
		char *id = xasprintf("%s, %lld pages, %lld references", desc && *desc ? desc : "(no description)",
				     (long long)json_integer_value(json_object_get(info, "pages")),
				     (long long)json_integer_value(json_object_get(info, "references")));
		if (json_is_integer(seed) && json_is_integer(crc)) {
			char *more = xasprintf("%s, seed %llu, crc32 %08llx", id, (unsigned long long)json_integer_value(seed),
					       (unsigned long long)json_integer_value(crc));
			free(id);
			id = more;
		}
		return id;
	}
	*path = NULL;
	return NULL;
}

/* A trace file's path says where it lay, not what it held: a run's
 * refs-generate makes a new one in a directory of its own every time.  The
 * values from first on that name the case's trace become the trace's
 * identity, so that two runs of the same trace do not differ and two of
 * different traces do.  A generated path with no identity recorded (no
 * iteration got as far) is a difference of nothing: the case's
 * refs-generate, compared as a setting of its own, says what was asked. */
static void compare_case_trace(const struct run_case *c, struct strlist *vals, size_t first)
{
	const char *path;
	char *id = compare_trace_identity(c, &path);
	for (size_t k = first; k < vals->n; k++) {
		char *v = vals->v[k];
		if (id && path && !strcmp(v, path)) {
			vals->v[k] = xstrdup(id);
			free(v);
		} else if (!id && !fnmatch("*/vmregress-traces-[0-9]*-*/*.refs", v, 0)) {
			vals->v[k] = xstrdup("(generated by the run)");
			free(v);
		}
	}
	free(id);
}

/* A case's options are settings too: "case.NAME.OPTION" for each case
 * of the base that the run also has. */
static void compare_case_options(const struct comparison *cmp, size_t ri, const struct compare_opts *o,
				 struct strlist *keys, struct strlist *vals)
{
	const struct run *base = cmp->runs[0];
	for (size_t k = 0; k < base->ncases; k++) {
		const struct run_case *c = compare_find_case(cmp->runs[ri], base->cases[k].name);
		if (!c || !c->options || !compare_glob(o->cases, c->name))
			continue;
		char *prefix = xasprintf("case.%s", c->name);
		size_t first = vals->n;
		cmp_json_flatten(c->options, prefix, keys, vals);
		compare_case_trace(c, vals, first);
		free(prefix);
		/* What the sandbox really was (knob values in force, swap kind
		 * and size), as the first iteration that ran recorded it. */
		for (size_t i = 0; i < c->niter; i++) {
			json_t *sb = json_object_get(c->iters[i].info, "sandbox");
			if (!json_is_object(sb))
				continue;
			prefix = xasprintf("case.%s.sandbox-in-force", c->name);
			cmp_json_flatten(sb, prefix, keys, vals);
			free(prefix);
			break;
		}
	}
}

/* The case a "case.NAME.REST" key belongs to: the longest case name of
 * the base that fits, so that names with dots work.  Returns REST. */
static const char *compare_key_case(const struct run *base, const char *key, size_t *len)
{
	const char *best = NULL;
	*len = 0;
	if (strncmp(key, "case.", 5))
		return NULL;
	for (size_t k = 0; k < base->ncases; k++) {
		size_t n = strlen(base->cases[k].name);
		if (n > *len && !strncmp(key + 5, base->cases[k].name, n) && key[5 + n] == '.') {
			*len = n;
			best = key + 5 + n + 1;
		}
	}
	return best;
}

static bool compare_same_values(const struct cmp_env_diff *a, const struct cmp_env_diff *b, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++)
		if (strcmp(a->values[i], b->values[i]))
			return false;
	return true;
}

/* A setting that differs the same way in every case (a knob set for the
 * whole run) is one row, "case.*.REST", not one per case. */
static void compare_env_collapse(struct comparison *cmp, size_t ncases)
{
	bool *grouped = xcalloc(cmp->nenv + 1, sizeof(bool));
	const char **rest = xcalloc(cmp->nenv + 1, sizeof(char *));
	for (size_t k = 0; k < cmp->nenv; k++) {
		size_t len;
		rest[k] = ncases > 1 ? compare_key_case(cmp->runs[0], cmp->env[k].key, &len) : NULL;
	}
	for (size_t k = 0; k < cmp->nenv; k++) {
		size_t same = 0;
		for (size_t j = 0; rest[k] && j < cmp->nenv; j++)
			same += rest[j] && !strcmp(rest[j], rest[k]) &&
				compare_same_values(&cmp->env[k], &cmp->env[j], cmp->nruns);
		grouped[k] = rest[k] && same == ncases;
	}
	size_t out = 0;
	struct strlist done = { 0 };
	for (size_t k = 0; k < cmp->nenv; k++) {
		struct cmp_env_diff d = cmp->env[k];
		if (grouped[k]) {
			char *key = xasprintf("case.*.%s", rest[k]);
			if (strlist_has(&done, key)) {
				free(key);
				for (size_t i = 0; i < cmp->nruns; i++)
					free(d.values[i]);
				free(d.values);
				free(d.key);
				continue;
			}
			strlist_add(&done, key);
			free(d.key);
			d.key = key;
		}
		cmp->env[out++] = d;
	}
	cmp->nenv = out;
	strlist_free(&done);
	free(grouped);
	free(rest);
}

/* Cases of the base that every run has (and the filter lets through). */
static size_t compare_shared_cases(const struct comparison *cmp, const struct compare_opts *o)
{
	size_t n = 0;
	for (size_t k = 0; k < cmp->runs[0]->ncases; k++) {
		const char *name = cmp->runs[0]->cases[k].name;
		bool all = compare_glob(o->cases, name);
		for (size_t i = 1; i < cmp->nruns && all; i++)
			all = compare_find_case(cmp->runs[i], name) != NULL;
		n += all;
	}
	return n;
}

/* The first run's value of key, or the first run's that has it. */
static const char *compare_env_first(const struct strlist *keys, const struct strlist *vals, size_t n,
				     const char *key)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = compare_env_lookup(&keys[i], &vals[i], key);
		if (v)
			return v;
	}
	return NULL;
}

static void compare_env_diff(struct comparison *cmp, const struct compare_opts *o)
{
	struct strlist *keys = xcalloc(cmp->nruns, sizeof(*keys)), *vals = xcalloc(cmp->nruns, sizeof(*vals));
	struct strlist all = { 0 };
	for (size_t i = 0; i < cmp->nruns; i++) {
		cmp_json_flatten(cmp->runs[i]->env, "", &keys[i], &vals[i]);
		compare_case_options(cmp, i, o, &keys[i], &vals[i]);
		for (size_t k = 0; k < keys[i].n; k++)
			if (!strlist_has(&all, keys[i].v[k]))
				strlist_add(&all, keys[i].v[k]);
	}
	for (size_t k = 0; k < all.n; k++) {
		const char *first = compare_env_lookup(&keys[0], &vals[0], all.v[k]);
		bool differs = false;
		for (size_t i = 1; i < cmp->nruns && !differs; i++) {
			const char *v = compare_env_lookup(&keys[i], &vals[i], all.v[k]);
			differs = !first || !v || strcmp(first, v);
		}
		if (!differs || compare_env_volatile(all.v[k], compare_env_first(keys, vals, cmp->nruns, all.v[k])))
			continue;
		cmp->env = xrealloc(cmp->env, (cmp->nenv + 1) * sizeof(*cmp->env));
		struct cmp_env_diff *d = &cmp->env[cmp->nenv++];
		d->key = xstrdup(all.v[k]);
		d->hardware = compare_env_hardware(d->key);
		d->values = xcalloc(cmp->nruns, sizeof(char *));
		for (size_t i = 0; i < cmp->nruns; i++) {
			const char *v = compare_env_lookup(&keys[i], &vals[i], all.v[k]);
			d->values[i] = xstrdup(v ? v : "-");
		}
	}
	for (size_t i = 0; i < cmp->nruns; i++) {
		strlist_free(&keys[i]);
		strlist_free(&vals[i]);
	}
	strlist_free(&all);
	free(keys);
	free(vals);
	compare_env_collapse(cmp, compare_shared_cases(cmp, o));
}

static bool compare_run_emulated(const struct run *r)
{
	json_t *m = r->env ? json_object_get(r->env, "matrix") : NULL;
	return json_is_true(json_object_get(m, "emulated"));
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

/* What differs about the machine or the kernel rather than the settings
 * under test: the verdict must say so first (a flag, not a refusal). */
static const char *const compare_env_watch[] = {
	"kernel.release", "kernel.version", "thp.*", "*mthp*", "*hugepages-*", "swaps*", "swap_total_bytes",
	"*AnonHugePages*", "*anon_huge*", "*sandboxes*", "*other_sandbox*", "cgroup.version",
	"cgroup.memory_controller", "matrix.emulated", "matrix.accel", "hostname", "cpu.*",
	"mem_total_bytes", "numa*",
};

static bool compare_env_setting(const char *key, const struct compare_opts *o)
{
	for (size_t i = 0; o->setting_keys && o->setting_keys[i]; i++)
		if (!fnmatch(o->setting_keys[i], key, 0))
			return true;
	return false;
}

static bool compare_env_differs(const struct comparison *cmp, const char *key)
{
	for (size_t k = 0; k < cmp->nenv; k++)
		if (!strcmp(cmp->env[k].key, key))
			return true;
	return false;
}

static void compare_env_flags(struct comparison *cmp, const struct compare_opts *o)
{
	/* The total says that the host's swaps differ in one line; each
	 * area's fields are in the environment table. */
	bool swap_total = compare_env_differs(cmp, "swap_total_bytes");
	for (size_t k = 0; k < cmp->nenv; k++) {
		const struct cmp_env_diff *d = &cmp->env[k];
		if (swap_total && !fnmatch("swaps*", d->key, 0))
			continue;
		bool watch = false;
		for (size_t g = 0; g < ARRAY_SIZE(compare_env_watch) && !watch; g++)
			watch = !fnmatch(compare_env_watch[g], d->key, 0);
		if (!watch || compare_env_setting(d->key, o))
			continue;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		fprintf(f, "%s:", d->key);
		for (size_t i = 0; i < cmp->nruns; i++)
			fprintf(f, "%s %s", i ? " |" : "", d->values[i]);
		if (!strcmp(d->key, "swap_total_bytes"))
			fputs(" (the host's swaps differ: another sandbox's may be on)", f);
		fclose(f);
		compare_note_to(&cmp->env_flags, buf);
	}
	bool emu = false, native = false;
	for (size_t i = 0; i < cmp->nruns; i++) {
		bool e = compare_run_emulated(cmp->runs[i]);
		emu |= e;
		native |= !e;
	}
	if (emu && native)
		strlist_add(&cmp->env_flags, "some runs ran emulated (TCG), others natively");
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

void compare_runs(const struct run *const *runs, size_t n, const struct compare_opts *o,
		  struct comparison *cmp)
{
	memset(cmp, 0, sizeof(*cmp));
	cmp->runs = runs;
	cmp->nruns = n;
	cmp->alpha = o->alpha > 0 ? o->alpha : 0.05;
	cmp->noise_min = o->noise_min > 0 ? o->noise_min : 0.01;
	cmp->unstable_cv = o->unstable_cv > 0 ? o->unstable_cv : 0.20;
	compare_labels(cmp);
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
	compare_verdicts(cmp, o);
	compare_env_flags(cmp, o);
	for (size_t i = 1; i < n; i++)
		compare_note_left_out(cmp, i, o);
	for (size_t i = 0; i < n; i++)
		compare_note_failed(cmp, i, o);
	for (size_t i = 0; i < n; i++)
		cmp->emulated |= compare_run_emulated(runs[i]);
	if (cmp->emulated && cmp->nrows)
		compare_counters_first(cmp);
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
	memset(cmp, 0, sizeof(*cmp));
}
