/* A bisection's result and its search rule: see bisect.h. */
#include "stats/bisect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"

size_t bisect_pick(const int *status, size_t n, size_t lo, size_t hi)
{
	size_t best = n;
	double mid = ((double)lo + (double)hi) / 2, bestd = INFINITY;

	for (size_t i = lo + 1; i < hi && i < n; i++)
		if (status[i] == 0 && fabs((double)i - mid) < bestd) {
			best = i;
			bestd = fabs((double)i - mid);
		}
	return best;
}

const char *bisect_end_name(enum bisect_end e)
{
	static const char *const names[] = { "found", "range", "no-difference", "no-test", "budget", "ready", "git" };
	return names[e];
}

void bisect_bound(struct bisect_result *res)
{
	double *bounds = xcalloc(res->nsteps + 1, sizeof(*bounds));
	for (size_t i = 0; i < res->nsteps; i++)
		bounds[i] = res->steps[i].bound;
	res->bound = sprt_answer_bound(res->q, res->alpha, bounds, res->nsteps);
	free(bounds);
}

void bisect_result_free(struct bisect_result *r)
{
	for (size_t i = 0; i < r->nsteps; i++) {
		free(r->steps[i].skip);
		free(r->steps[i].run_ids);
	}
	free(r->steps);
	free(r->good.values);
	free(r->bad.values);
	free(r->name);
	free(r->group_uuid);
	free(r->case_name);
	free(r->metric);
	free(r->unit);
	free(r->why);
	for (size_t i = 0; i < r->nexplain; i++)
		free(r->explain[i]);
	memset(r, 0, sizeof(*r));
}

double bisect_now(void)
{
	struct timespec ts = { 0 };
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The steps a search between lo and hi still needs, at least one. */
static size_t bisect_steps_left(size_t lo, size_t hi)
{
	size_t k = 0;
	for (size_t w = hi - lo; w > 1; w = (w + 1) / 2)
		k++;
	return k ? k : 1;
}

int bisect_search(struct bisect_result *res, size_t n, double deadline, bisect_step_fn step, void *ctx)
{
	size_t lo = res->good.cand, hi = res->bad.cand;
	int *status = xcalloc(n, sizeof(*status)), r = 0;

	status[lo] = 1;
	status[hi] = 2;
	res->end = BISECT_FOUND;
	for (;;) {
		size_t i = bisect_pick(status, n, lo, hi);
		if (i == n)
			break;
		double now = isfinite(deadline) ? bisect_now() : 0;
		if (now >= deadline) {
			res->end = BISECT_BUDGET;
			break;
		}
		res->steps = xrealloc(res->steps, (res->nsteps + 1) * sizeof(*res->steps));
		struct bisect_step *st = &res->steps[res->nsteps];
		memset(st, 0, sizeof(*st));
		res->nsteps++;
		if ((r = step(ctx, i, (deadline - now) / (double)bisect_steps_left(lo, hi), st)) != 0)
			break;
		status[i] = st->skip ? 3 : st->decision == SPRT_GOOD ? 1 : st->decision == SPRT_BAD ? 2 : 3;
		if (status[i] == 1)
			lo = i;
		else if (status[i] == 2)
			hi = i;
	}
	res->last_good = lo;
	res->first_bad = hi;
	for (size_t i = lo + 1; i < hi && res->end == BISECT_FOUND; i++)
		if (status[i] == 3)
			res->end = BISECT_RANGE;
	free(status);
	return r;
}

void bisect_ref_figures(struct bisect_result *r)
{
	struct bisect_ref *refs[2] = { &r->good, &r->bad };
	for (int i = 0; i < 2; i++)
		sprt_figure(r->test.kind, refs[i]->values, refs[i]->fig.n, &refs[i]->fig.centre, &refs[i]->fig.lo,
			    &refs[i]->fig.hi);
}
