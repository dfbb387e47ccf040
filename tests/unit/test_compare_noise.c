/* compare --noise-from: an A/A group's spread gives each headline metric
 * it holds its noise floor (the larger of the stated minimum and the
 * group's CV) and its minimal detectable effect (the group's spread at
 * this comparison's iterations).  A noisy A/A raises both, a quiet one
 * lowers the MDE below what the comparison's own spread gives; without
 * the reference neither moves. */
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "stats/compare.h"
#include "stats/stats.h"
#include "store/store.h"
#include "workload/workload.h"
#include "t.h"
#include "trun.h"

#define N 8

static struct run *mkrun(const char *name, int64_t id, const char *group)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup(name);
	r->info.id = id;
	r->info.group_uuid = xstrdup(group);
	r->env = json_object();
	return r;
}

/* One case of fault with time-passes, its iterations in blocks of two. */
static void fill(struct run *r, const double *v, int side)
{
	struct run_case *c = t_one_case(r, "fault-zero", "fault", N, side);
	for (size_t i = 0; i < N; i++)
		result_metric(&c->iters[i], "time-passes", "ns", BETTER_LOWER, COMBINE_AMEAN, v[i]);
}

/* A group of two variants: a drifts by drift (its CV), b is a times
 * e^(change + jitter_k), the jitter's sd the blocks' spread. */
static void group(struct run **ra, struct run **rb, const char *g, double drift, double jitter, double change)
{
	double a[N], b[N];
	for (size_t i = 0; i < N; i++) {
		a[i] = 1e9 * (1 + drift * sin(1.7 * (double)i));
		b[i] = a[i] * exp(change + jitter * cos(2.1 * (double)i));
	}
	*ra = mkrun("a", 1, g);
	*rb = mkrun("b", 2, g);
	fill(*ra, a, 0);
	fill(*rb, b, 1);
}

static double cell_cv_max(const struct comparison *c)
{
	return fmax(c->rows[0].cells[0].s.cv, c->rows[0].cells[1].s.cv);
}

int main(void)
{
	struct run *ta, *tb, *qa, *qb, *na, *nb;
	group(&ta, &tb, "target", 0.02, 0.03, log(1.04));   /* a 4% change, blocks' spread 3% */
	group(&qa, &qb, "quiet", 0.002, 0.002, 0);           /* A/A: quiet */
	group(&na, &nb, "noisy", 0.15, 0.12, 0);             /* A/A: noisy */
	const struct run *target[] = { ta, tb }, *quiet[] = { qa, qb }, *noisy[] = { na, nb };
	struct compare_opts o = { .alpha = 0.05, .headline = workload_metric_headline };
	struct comparison own = { 0 }, rq = { 0 }, rn = { 0 }, withq = { 0 }, withn = { 0 };
	compare_runs(target, 2, &o, &own);
	compare_runs(quiet, 2, &o, &rq);
	compare_runs(noisy, 2, &o, &rn);
	if (own.nrows != 1 || rq.nrows != 1 || rn.nrows != 1 || !own.rows[0].cells[1].paired) {
		CHECK(false, "one paired headline row in each comparison (%zu %zu %zu)", own.nrows, rq.nrows, rn.nrows);
		T_DONE();
	}
	const struct cmp_cell *c0 = &own.rows[0].cells[1];
	CHECK(!c0->noise_ref && !own.noise_from && own.noise_from_rows == 0, "without a reference: none said");
	CHECK_NEAR(c0->noise_floor, 0.01, 1e-12, "the floor is the stated minimum");

	o.noise_ref = &rn;
	o.noise_ref_name = "noisy";
	compare_runs(target, 2, &o, &withn);
	const struct cmp_cell *cn = &withn.rows[0].cells[1];
	double cv = cell_cv_max(&rn);
	CHECK(cn->noise_ref && withn.noise_from && !strcmp(withn.noise_from, "noisy") && withn.noise_from_rows == 1,
	      "the noisy A/A gave the row's floor and MDE, and is named");
	CHECK(cv > 0.05 && fabs(cn->noise_floor - cv) < 1e-12, "the floor is the A/A group's CV (%.3f, was %.3f)",
	      cn->noise_floor, c0->noise_floor);
	double sd = log(rn.rows[0].cells[1].pair_run[0]) - log(rn.rows[0].cells[1].pair_base[0]);
	double d[N];
	for (size_t k = 0; k < N; k++)
		d[k] = log(rn.rows[0].cells[1].pair_run[k] / rn.rows[0].cells[1].pair_base[k]);
	sd = sqrt(stats_variance(d, N));
	double want = fmax(cv, expm1(stats_t1_mde(N, 0.05, 0.8) * sd));
	CHECK(fabs(cn->mde - want) < 1e-9 && cn->mde > c0->mde,
	      "the MDE is the A/A spread's at this comparison's 8 blocks (%.4f, own %.4f)", cn->mde, c0->mde);
	CHECK(c0->verdict == CMP_REGRESSED && cn->verdict != CMP_REGRESSED,
	      "a 4%% change called on its own spread is within the noisy A/A's floor");

	o.noise_ref = &rq;
	o.noise_ref_name = "quiet";
	compare_runs(target, 2, &o, &withq);
	const struct cmp_cell *cq = &withq.rows[0].cells[1];
	CHECK(cq->noise_ref && fabs(cq->noise_floor - 0.01) < 1e-12, "a quiet A/A leaves the stated minimum floor");
	CHECK(cq->mde < c0->mde, "and its smaller spread gives a smaller MDE (%.4f, own %.4f)", cq->mde, c0->mde);

	/* A reference without the case: nothing from it. */
	free(qa->cases[0].name);
	free(qb->cases[0].name);
	qa->cases[0].name = xstrdup("other");
	qb->cases[0].name = xstrdup("other");
	struct comparison ro = { 0 }, witho = { 0 };
	compare_runs(quiet, 2, &(struct compare_opts){ .alpha = 0.05, .headline = workload_metric_headline }, &ro);
	o.noise_ref = &ro;
	compare_runs(target, 2, &o, &witho);
	CHECK(witho.noise_from_rows == 0 && !witho.rows[0].cells[1].noise_ref &&
		      fabs(witho.rows[0].cells[1].mde - c0->mde) < 1e-12,
	      "a reference sharing no case gives nothing");

	struct comparison *all[] = { &own, &rq, &rn, &withq, &withn, &ro, &witho };
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		compare_free(all[i]);
	struct run *runs[] = { ta, tb, qa, qb, na, nb };
	for (size_t i = 0; i < ARRAY_SIZE(runs); i++)
		run_free(runs[i]);
	T_DONE();
}
