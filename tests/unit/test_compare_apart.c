/* A bisection's group is compared as runs made apart: its runs share a
 * group (so list, compare and report take it by name) but each is a boot
 * of its own, minutes from the others, so compare must give them the
 * floor of runs made apart (the larger of the minimum and either side's
 * CV), no paired test, and the "not interleaved" warning; the variants of
 * an interleaved group keep the minimum floor. */
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "stats/compare.h"
#include "stats/trust.h"
#include "store/store.h"
#include "workload/workload.h"
#include "t.h"
#include "trun.h"

static struct run *mkrun(const char *name, int64_t id, const char *env, const double *v, size_t n)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup(name);
	r->info.id = id;
	r->info.group_uuid = xstrdup("b15ec7");
	r->info.group_name = xstrdup("pc0");
	r->env = json_loads(env, 0, NULL);
	struct run_case *c = t_one_case(r, "reread", "reread", n, (int)(id & 1));
	for (size_t i = 0; i < n; i++)
		result_metric(&c->iters[i], "reread-time", "ns", BETTER_LOWER, COMBINE_AMEAN, v[i]);
	return r;
}

static bool apart_warned(const struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->ntrust; i++)
		if (cmp->trust[i].kind == CMP_TRUST_APART && cmp->trust[i].runs.n == 1)
			return true;
	return false;
}

/* Compare b against a: the cell of reread-time. */
static const struct cmp_cell *cell_of(struct comparison *cmp, const struct run *a, const struct run *b)
{
	const struct run *g[] = { a, b };
	struct compare_opts o = { .alpha = 0.05, .headline = workload_metric_headline };
	compare_runs(g, 2, &o, cmp);
	for (size_t i = 0; i < cmp->nrows; i++)
		if (!strcmp(cmp->rows[i].metric, "reread-time"))
			return &cmp->rows[i].cells[1];
	return NULL;
}

int main(void)
{
	/* 40 iterations a side, CV about 8%, the second 6% slower. */
	double va[40], vb[40];
	for (size_t i = 0; i < 40; i++) {
		va[i] = 1000 * (1 + 0.08 * 1.41 * sin(1.7 * (double)i));
		vb[i] = 1060 * (1 + 0.08 * 1.41 * sin(1.7 * (double)i + 0.9));
	}
	struct comparison cmp = { 0 };

	struct run *ga = mkrun("v-a", 1, "{}", va, 40), *gb = mkrun("v-b", 2, "{}", vb, 40);
	const struct cmp_cell *c = cell_of(&cmp, ga, gb);
	CHECK(c && c->interleaved && c->noise_floor == 0.01 && cmp.ninterleaved == 1 && !apart_warned(&cmp),
	      "variants of an interleaved group: the minimum floor, no warning");
	CHECK(c && c->verdict == CMP_REGRESSED, "and the 6%% change is called");
	compare_free(&cmp);
	run_free(ga);
	run_free(gb);

	const char *good = "{\"bisect\": {\"name\": \"pc0\", \"role\": \"good\", \"candidate\": 1}}";
	const char *step = "{\"bisect\": {\"name\": \"pc0\", \"role\": \"step\", \"candidate\": 4}}";
	struct run *ba = mkrun("pc0-1.1", 3, good, va, 40), *bb = mkrun("pc0-4.3", 4, step, vb, 40);
	CHECK(!compare_interleaved(ba, bb) && !compare_interleaved(bb, ba),
	      "two boots of a bisection's group are not interleaved");
	c = cell_of(&cmp, ba, bb);
	CHECK(c && !c->interleaved && !c->paired && c->noise_floor > 0.07 && cmp.ninterleaved == 0,
	      "a bisection's group: the floor of runs made apart, the CV (%g), no pairs",
	      c ? c->noise_floor : NAN);
	CHECK(c && !c->significant, "so the 6%% change under the CV is not called");
	CHECK(apart_warned(&cmp), "and compare warns that the run was not interleaved with the base");
	compare_free(&cmp);

	/* One side a bisection's: still apart. */
	struct run *va_ = mkrun("v-a", 5, "{}", va, 40);
	c = cell_of(&cmp, va_, bb);
	CHECK(c && !c->interleaved && apart_warned(&cmp), "a bisection's run beside a variant is apart");
	compare_free(&cmp);
	run_free(va_);
	run_free(ba);
	run_free(bb);
	T_DONE();
}
