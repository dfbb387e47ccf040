/* The trust warnings of a comparison (trust.h, cmp_model.h). */
#include "stats/trust.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/util.h"
#include "store/store.h"

static struct cmp_trust *compare_trust_add(struct comparison *cmp, enum cmp_trust_kind kind, const char *detail)
{
	cmp->trust = xrealloc(cmp->trust, (cmp->ntrust + 1) * sizeof(*cmp->trust));
	struct cmp_trust *t = &cmp->trust[cmp->ntrust++];
	*t = (struct cmp_trust){ .kind = kind, .detail = detail ? xstrdup(detail) : NULL };
	return t;
}

/* Runs that did not end as they meant to: interrupted (Ctrl-C, a kill),
 * failed, or still being written; one entry per state, named as list and
 * show name it (run_info_state). */
static void compare_trust_status(struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->nruns; i++) {
		const char *st = cmp->runs[i]->info.status ? run_info_state(&cmp->runs[i]->info) : NULL;
		if (!st || !strcmp(st, "complete"))
			continue;
		size_t k = 0;
		while (k < cmp->ntrust && !(cmp->trust[k].kind == CMP_TRUST_INCOMPLETE && !strcmp(cmp->trust[k].detail, st)))
			k++;
		if (k == cmp->ntrust)
			compare_trust_add(cmp, CMP_TRUST_INCOMPLETE, st);
		strlist_add(&cmp->trust[k].runs, cmp->labels[i]);
	}
}

/* Runs not interleaved with the base: drift between them passes for an effect. */
static void compare_trust_apart(struct comparison *cmp)
{
	if (cmp->nruns < 2 || cmp->ninterleaved + 1 == cmp->nruns)
		return;
	struct cmp_trust *t = compare_trust_add(cmp, CMP_TRUST_APART, NULL);
	for (size_t i = 1; i < cmp->nruns; i++)
		if (!compare_interleaved(cmp->runs[0], cmp->runs[i]))
			strlist_add(&t->runs, cmp->labels[i]);
}

/* A DAMON scheme that reclaims (pageout, lru_deprio) on a kdamond that
 * was on: it takes pages from every process, the sandbox's included. */
static const char *compare_trust_damon(const json_t *env)
{
	const json_t *kd = json_object_get(json_object_get(env, "damon"), "kdamonds");
	size_t i, k;
	const json_t *d, *s;
	json_array_foreach(kd, i, d)
	{
		if (strcmp(json_string_value(json_object_get(d, "state")) ?: "", "on"))
			continue;
		json_array_foreach(json_object_get(d, "schemes"), k, s)
		{
			const char *a = json_string_value(s);
			if (a && (!strcmp(a, "pageout") || !strcmp(a, "lru_deprio")))
				return a;
		}
	}
	return NULL;
}

/* Host-wide activity the runs' environments recorded.  Entries by index:
 * adding one moves the others. */
static void compare_trust_host(struct comparison *cmp)
{
	size_t damon = SIZE_MAX, others = SIZE_MAX;
	for (size_t i = 0; i < cmp->nruns; i++) {
		const json_t *env = cmp->runs[i]->env;
		const char *scheme = env ? compare_trust_damon(env) : NULL;
		if (scheme && damon == SIZE_MAX) {
			compare_trust_add(cmp, CMP_TRUST_KDAMOND, scheme);
			damon = cmp->ntrust - 1;
		}
		if (scheme)
			strlist_add(&cmp->trust[damon].runs, cmp->labels[i]);
		json_int_t n = env ? json_integer_value(json_object_get(env, "other_sandboxes")) : 0;
		if (n > 0 && others == SIZE_MAX) {
			compare_trust_add(cmp, CMP_TRUST_SANDBOXES, NULL);
			others = cmp->ntrust - 1;
		}
		if (n > 0) {
			struct cmp_trust *t = &cmp->trust[others];
			t->count = (size_t)n > t->count ? (size_t)n : t->count;
			strlist_add(&t->runs, cmp->labels[i]);
		}
	}
}

/* Host-wide khugepaged collapses and compaction stalls over run r's
 * passing iterations (the runner's vmstat-* deltas); false when they are
 * under CMP_TRUST_HUGEPAGE_MIN an iteration. */
static bool compare_trust_hugepage_run(const struct run *r, size_t *collapses, size_t *stalls)
{
	double col = 0, st = 0;
	size_t n = 0;
	for (size_t ci = 0; ci < r->ncases; ci++)
		for (size_t i = 0; i < r->cases[ci].niter; i++) {
			const struct result *it = &r->cases[ci].iters[i];
			const struct metric *a = result_find_metric(it, "vmstat-thp_collapse_alloc");
			const struct metric *b = result_find_metric(it, "vmstat-compact_stall");
			if (it->outcome != OUTCOME_PASS || (!a && !b))
				continue;
			col += a && a->value > 0 ? a->value : 0;
			st += b && b->value > 0 ? b->value : 0;
			n++;
		}
	*collapses = (size_t)col;
	*stalls = (size_t)st;
	return n && col + st > CMP_TRUST_HUGEPAGE_MIN * (double)n;
}

static void compare_trust_hugepage(struct comparison *cmp)
{
	struct cmp_trust *t = NULL;
	for (size_t i = 0; i < cmp->nruns; i++) {
		size_t col = 0, st = 0;
		if (!compare_trust_hugepage_run(cmp->runs[i], &col, &st))
			continue;
		if (!t)
			t = compare_trust_add(cmp, CMP_TRUST_HUGEPAGE, NULL);
		t->count += col;
		t->stalls += st;
		strlist_add(&t->runs, cmp->labels[i]);
	}
}

/* Run r's host-steal over its passing iterations, weighted by their
 * elapsed time (1 each without it); NAN when none recorded it. */
static double compare_trust_steal_run(const struct run *r)
{
	double sum = 0, w = 0;
	for (size_t ci = 0; ci < r->ncases; ci++)
		for (size_t i = 0; i < r->cases[ci].niter; i++) {
			const struct result *it = &r->cases[ci].iters[i];
			const struct metric *s = result_find_metric(it, CMP_STEAL_METRIC);
			const struct metric *e = result_find_metric(it, "elapsed");
			if (it->outcome != OUTCOME_PASS || !s || !isfinite(s->value))
				continue;
			double wi = e && isfinite(e->value) && e->value > 0 ? e->value : 1;
			sum += s->value * wi;
			w += wi;
		}
	return w > 0 ? sum / w : NAN;
}

static void compare_trust_steal(struct comparison *cmp)
{
	struct cmp_trust *t = NULL;
	for (size_t i = 0; i < cmp->nruns; i++) {
		double share = compare_trust_steal_run(cmp->runs[i]);
		if (!(share > CMP_TRUST_STEAL_PCT))
			continue;
		if (!t)
			t = compare_trust_add(cmp, CMP_TRUST_STEAL, NULL);
		t->share = share > t->share ? share : t->share;
		strlist_add(&t->runs, cmp->labels[i]);
	}
}

void compare_trust(struct comparison *cmp, const struct compare_opts *o)
{
	compare_trust_status(cmp);
	compare_trust_apart(cmp);
	compare_trust_host(cmp);
	compare_trust_hugepage(cmp);
	compare_trust_steal(cmp);
	if (o->cases) {
		struct cmp_trust *t = compare_trust_add(cmp, CMP_TRUST_CASES, o->cases);
		const struct cmp_tally *y = &cmp->tally;
		t->count = y->regressed + y->improved + y->same + y->unstable + y->changed;
	}
}

void compare_trust_free(struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->ntrust; i++) {
		free(cmp->trust[i].detail);
		strlist_free(&cmp->trust[i].runs);
	}
	free(cmp->trust);
}
