/* The verdict of a comparison (docs/statistics.md): headline metrics,
 * the noise floor, unstable and too-few cases, the false-discovery
 * families, ratios and their intervals, absolute changes, environment
 * flags, explanations and the formats that carry them. */
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "report/compare_fmt.h"
#include "stats/compare.h"
#include "stats/envdiff.h"
#include "store/store.h"
#include "workload/workload.h"
#include "t.h"

static struct run *mkrun(const char *name, int64_t id, const char *env)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup(name);
	r->info.id = id;
	r->env = json_loads(env, 0, NULL);
	return r;
}

static struct run_case *mkcase(struct run *r, const char *name, const char *workload, size_t niter)
{
	r->cases = xrealloc(r->cases, (r->ncases + 1) * sizeof(*r->cases));
	struct run_case *c = &r->cases[r->ncases++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->workload = xstrdup(workload);
	c->options = json_object();
	c->niter = niter;
	c->iters = xcalloc(niter, sizeof(struct result));
	for (size_t i = 0; i < niter; i++)
		result_init(&c->iters[i], workload);
	return c;
}

static void put(struct run_case *c, const char *metric, const char *unit, enum better b, enum combine cb,
		const double *v)
{
	for (size_t i = 0; i < c->niter; i++)
		result_metric(&c->iters[i], metric, unit, b, cb, v[i]);
}

static const struct cmp_row *row_of(const struct comparison *cmp, const char *c, const char *m)
{
	for (size_t i = 0; i < cmp->nrows; i++)
		if (!strcmp(cmp->rows[i].case_name, c) && !strcmp(cmp->rows[i].metric, m))
			return &cmp->rows[i];
	return NULL;
}

static bool flag_has(const struct comparison *cmp, const char *needle)
{
	for (size_t i = 0; i < cmp->env_flags.n; i++)
		if (strstr(cmp->env_flags.v[i], needle))
			return true;
	return false;
}

static char *text_of(const struct comparison *cmp, void (*w)(FILE *, const struct comparison *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	w(f, cmp);
	fclose(f);
	return buf;
}

static void junit_of(FILE *f, const struct comparison *cmp)
{
	compare_write_junit(f, cmp, NULL);
}

static void tap_of(FILE *f, const struct comparison *cmp)
{
	compare_write_tap(f, cmp, NULL);
}

/* The workloads' own declarations, pft's per-task-count names included. */
static void test_headline(void)
{
	CHECK(workload_metric_headline("fault", "time-passes"), "fault time-passes is headline");
	CHECK(workload_metric_headline("fault", "refault-rate"), "fault refault-rate is headline");
	CHECK(!workload_metric_headline("fault", "major-faults-passes"), "a counter is not");
	CHECK(workload_metric_headline("pft", "faults-per-sec-t2"), "pft faults-per-sec per task count is headline");
	CHECK(!workload_metric_headline("pft", "faults-per-sec-tx") && !workload_metric_headline("pft", "faults-per-sec-t"),
	      "but not a name that only starts like one");
	CHECK(!workload_metric_headline("pft", "faults-per-cpu-sec-t1"), "pft's CPU-time rate is not headline");
	CHECK(workload_metric_headline("reread", "reread-time") && workload_metric_headline("mmap", "access-p99") &&
		      workload_metric_headline("null", "time"),
	      "reread, mmap and null declare theirs");
	CHECK(!workload_metric_headline("nosuch", "time"), "an unknown workload has none");
}

static void put2(struct run *a, struct run *b, const char *cname, const char *wl, const char *metric, const char *unit,
		 enum better be, enum combine cb, const double *va, size_t na, const double *vb, size_t nb)
{
	put(mkcase(a, cname, wl, na), metric, unit, be, cb, va);
	put(mkcase(b, cname, wl, nb), metric, unit, be, cb, vb);
}

static void add(struct run *r, const char *cname, const char *metric, const char *unit, enum better be,
		const double *v)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].name, cname))
			put(&r->cases[i], metric, unit, be, COMBINE_AMEAN, v);
}

int main(void)
{
	test_headline();
	struct run *a = mkrun("a", 1, "{\"kernel\":{\"release\":\"6.1\"},\"sysctl\":{\"vm.page-cluster\":3},"
				      "\"thp\":{\"enabled\":\"madvise\"},\"cgroup\":{\"version\":\"v1\"}}");
	struct run *b = mkrun("b", 2, "{\"kernel\":{\"release\":\"6.5\"},\"sysctl\":{\"vm.page-cluster\":0},"
				      "\"thp\":{\"enabled\":\"madvise\"},\"cgroup\":{\"version\":\"v1\"},"
				      "\"matrix\":{\"emulated\":true}}");
	/* A clear regression of a headline time, +20%, CV under 1%. */
	double t_a[] = { 1000, 1004, 996, 1002, 998 }, t_b[] = { 1200, 1206, 1195, 1203, 1196 };
	put2(a, b, "fz", "fault", "time-passes", "ns", BETTER_LOWER, COMBINE_AMEAN, t_a, 5, t_b, 5);
	/* Counters beside it: major faults up 4x, a count from 2 to 5. */
	double m_a[] = { 100, 101, 99, 100, 100 }, m_b[] = { 400, 404, 396, 401, 399 };
	double c_a[] = { 2, 2, 2, 2, 2 }, c_b[] = { 5, 5, 5, 5, 5 };
	add(a, "fz", "major-faults-passes", "faults", BETTER_LOWER, m_a);
	add(b, "fz", "major-faults-passes", "faults", BETTER_LOWER, m_b);
	add(a, "fz", "swap_ra", "pages", BETTER_NONE, c_a);
	add(b, "fz", "swap_ra", "pages", BETTER_NONE, c_b);
	/* A rate down 3%, CV about 0.3%: above the 1% floor, below a 5% one. */
	double r_a[] = { 1000, 1003, 997, 1001, 999 }, r_b[] = { 970, 973, 967, 971, 969 };
	put2(a, b, "fr", "fault", "refault-rate", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, r_a, 5, r_b, 5);
	/* Noisy, CV about 35% on one side, and +82%: its interval is far from
	 * no change, a finding with its CV shown. */
	double u_a[] = { 100, 160, 60, 140, 90 }, u_b[] = { 200, 201, 199, 200, 200 };
	put2(a, b, "rr", "reread", "reread-time", "ns", BETTER_LOWER, COMBINE_AMEAN, u_a, 5, u_b, 5);
	/* Unstable: a rate +4% at a CV of about 18%, its interval spanning no
	 * change and changes far beyond the 1% floor. */
	double s_a[] = { 100, 130, 80, 120, 95 }, s_b[] = { 105, 90, 140, 110, 100 };
	put2(a, b, "pf", "pft", "faults-per-sec-t1", "faults/s", BETTER_HIGHER, COMBINE_HMEAN, s_a, 5, s_b, 5);
	/* Too few: two iterations. */
	double f_a[] = { 10, 11 }, f_b[] = { 20, 21 };
	put2(a, b, "nl", "null", "time", "ns", BETTER_LOWER, COMBINE_AMEAN, f_a, 2, f_b, 2);
	/* A percentile: Mann-Whitney. */
	double p_a[] = { 1520, 1610, 1480, 1590, 1550 }, p_b[] = { 1900, 2050, 1990, 1950, 1870 };
	put2(a, b, "mm", "mmap", "access-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, p_a, 5, p_b, 5);

	const struct run *runs[] = { a, b };
	struct compare_opts o = { .alpha = 0.05, .headline = workload_metric_headline };
	struct comparison cmp = { 0 };
	compare_runs(runs, 2, &o, &cmp);

	const struct cmp_row *t = row_of(&cmp, "fz", "time-passes");
	CHECK(t && t->headline && t->test == CMP_TEST_WELCH, "time-passes is a headline Welch row");
	CHECK(t && t->cells[1].verdict == CMP_REGRESSED, "a 20%% slower time is a regression");
	CHECK(t && fabs(t->cells[1].ratio - stats_amean(t_b, 5) / stats_amean(t_a, 5)) < 1e-12, "ratio of means");
	CHECK(t && t->cells[1].ci_low > 1.18 && t->cells[1].ci_low < t->cells[1].ratio &&
		      t->cells[1].ci_high > t->cells[1].ratio && t->cells[1].ci_high < 1.22,
	      "the interval holds the ratio and excludes 1");
	/* The headline family alone: the counters' small p-values do not count,
	 * nor does the cell with too few iterations to be called. */
	double fam[8], q[8];
	size_t nfam = 0, at = 0;
	for (size_t i = 0; i < cmp.nrows; i++)
		if (cmp.rows[i].headline && cmp.rows[i].cells[1].verdict != CMP_TOO_FEW) {
			at = &cmp.rows[i] == t ? nfam : at;
			fam[nfam++] = cmp.rows[i].cells[1].p;
		}
	stats_bh(fam, nfam, q);
	CHECK(t && nfam == 5 && t->cells[1].q == q[at], "q is BH over the headline family (%zu tests)", nfam);
	const struct cmp_row *m = row_of(&cmp, "fz", "major-faults-passes");
	CHECK(m && !m->headline && m->cells[1].significant, "the counter changed, and is no headline");
	const struct cmp_row *c = row_of(&cmp, "fz", "swap_ra");
	CHECK(c && c->cells[1].abs_change, "a count under 10 is an absolute change");
	size_t ex[4], nex = cmp_explain(&cmp, (size_t)(t - cmp.rows), 1, ex, 4);
	CHECK(nex == 2 && cmp.rows[ex[0]].metric && !strcmp(cmp.rows[ex[0]].metric, "major-faults-passes"),
	      "explanations: the same case's counters, largest change first (%zu)", nex);

	const struct cmp_row *r = row_of(&cmp, "fr", "refault-rate");
	CHECK(r && r->cells[1].verdict == CMP_REGRESSED, "3%% slower rate, CV 0.3%%: above the 1%% floor");
	CHECK(r && fabs(r->cells[1].ratio - stats_hmean(r_b, 5) / stats_hmean(r_a, 5)) < 1e-12,
	      "a rate's ratio is of harmonic means");
	CHECK(r && r->cells[1].ci_low < r->cells[1].ratio && r->cells[1].ci_high > r->cells[1].ratio &&
		      r->cells[1].ci_high < 1,
	      "and its interval holds it");
	const struct cmp_row *u = row_of(&cmp, "rr", "reread-time");
	CHECK(u && u->cells[1].verdict == CMP_REGRESSED && u->cells[1].noisy && u->cells[1].ci_low > 1.1,
	      "CV 35%%, +82%%: a regression, marked noisy (%g - %g)", u ? u->cells[1].ci_low : NAN,
	      u ? u->cells[1].ci_high : NAN);
	const struct cmp_row *sr = row_of(&cmp, "pf", "faults-per-sec-t1");
	CHECK(sr && sr->cells[1].verdict == CMP_UNSTABLE && sr->cells[1].ci_low < 0.99 && sr->cells[1].ci_high > 1.01,
	      "an interval spanning no change and more than the floor: unstable (%g - %g)",
	      sr ? sr->cells[1].ci_low : NAN, sr ? sr->cells[1].ci_high : NAN);
	/* Each side of the log-scale interval shrinks about the change as
	 * 1/sqrt(n), until it fits within the floor (the change, +4.7%, is
	 * within this apart comparison's floor of max(1%, CV)). */
	double lr = sr ? log(sr->cells[1].ratio) : NAN, f = sr ? log1p(sr->cells[1].noise_floor) : NAN;
	double kk = sr ? fmin((f - lr) / (log(sr->cells[1].ci_high) - lr), (f + lr) / (lr - log(sr->cells[1].ci_low)))
		      : NAN;
	CHECK(sr && fabs(lr) < f && sr->cells[1].settle_n == (size_t)ceil(5 / (kk * kk)),
	      "with the iterations that would settle it (%zu)", sr ? sr->cells[1].settle_n : 0);
	const struct cmp_row *n = row_of(&cmp, "nl", "time");
	CHECK(n && n->cells[1].verdict == CMP_TOO_FEW, "two iterations: too few");
	CHECK(n && !isnan(n->cells[1].p) && isnan(n->cells[1].q), "its p is shown, but it is no test of the family");
	const struct cmp_row *p = row_of(&cmp, "mm", "access-p99");
	struct mwu mw = { 0 };
	stats_mann_whitney(p_a, 5, p_b, 5, &mw);
	CHECK(p && p->test == CMP_TEST_MWU && p->cells[1].p == mw.p, "a percentile is tested by Mann-Whitney");
	CHECK(p && p->cells[1].verdict == CMP_REGRESSED, "and its shift is a regression (q %g)", p ? p->cells[1].q : NAN);
	CHECK(cmp.tally.regressed == 4 && cmp.tally.unstable == 1 && cmp.tally.too_few == 1 && cmp.tally.same == 0,
	      "the tally counts headline cells only (%zu regressed)", cmp.tally.regressed);

	CHECK(flag_has(&cmp, "kernel.release: 6.1 | 6.5"), "a different kernel is flagged");
	CHECK(!flag_has(&cmp, "page-cluster"), "the setting compared is not");
	CHECK(flag_has(&cmp, "emulated"), "emulated against native is flagged");
	struct run *l = mkrun("l", 3, "{\"lava\":{\"accel\":\"tcg\",\"emulated\":true}}");
	CHECK(compare_run_emulated(l) && compare_run_emulated(b) && !compare_run_emulated(a),
	      "a LAVA job run here under TCG is emulated, as a matrix guest is");
	run_free(l);

	char *text = text_of(&cmp, compare_write_text);
	CHECK(!strncmp(text, "4 regressions, 0 improvements, 0 unchanged, 1 unstable, 1 too few to say (FDR 5%", 80),
	      "the text starts with the verdict: %.90s", text);
	CHECK(strstr(text, "\nEnvironment differs beyond the settings compared"), "then the environment flag");
	CHECK(strstr(text, "\n  regressed  fz time-passes in b: +20.0% [95% CI +19."), "one line per finding");
	CHECK(strstr(text, "\n  fz time-passes +20.0% in b: major-faults-passes +300.0%, swap_ra 2 pages -> 5 pages\n"),
	      "explanations beside the finding");
	CHECK(strstr(text, "mean 1.000 us -> 1.200 us"), "units scaled for people");
	CHECK(strstr(text, "\n  regressed  rr reread-time in b: +81.8% [95% CI ") &&
		      strstr(text, "; noisy: CV 36.4% and 0.4% (above 20%)"),
	      "a noisy finding shows its CV");
	CHECK(strstr(text, "\n  unstable   pf faults-per-sec-t1 in b: cannot tell, ") &&
		      strstr(text, "spans no change and more than the 19.6% floor; about 19 iterations a side would settle it (14 more)"),
	      "an unstable one says so, and what would settle it");
	free(text);
	text = text_of(&cmp, junit_of);
	CHECK(strstr(text, "tests=\"6\" failures=\"4\"") && strstr(text, "skipped=\"2\""), "junit counts cases");
	free(text);
	text = text_of(&cmp, tap_of);
	CHECK(strstr(text, "1..6\n") && strstr(text, "\nnot ok 1 - fz time-passes (b): regressed") &&
		      strstr(text, "# SKIP unstable"),
	      "tap lists headline cells");
	free(text);
	json_t *j = compare_to_json(&cmp);
	CHECK(json_integer_value(json_object_get(json_object_get(j, "verdict"), "regressions")) == 4,
	      "JSON carries the verdict");
	json_decref(j);
	compare_free(&cmp);

	/* The same runs with a 5% floor: the 3% rate change is no longer
	 * called, whatever its p. */
	o.noise_min = 0.05;
	compare_runs(runs, 2, &o, &cmp);
	r = row_of(&cmp, "fr", "refault-rate");
	CHECK(r && r->cells[1].verdict == CMP_SAME && r->cells[1].p < 1e-6,
	      "below the noise floor: same, though p is tiny");
	/* Its minimal detectable effect: d at 80% power for the t-test at
	 * alpha / 5 (five headline tests), times the pooled sd of the
	 * reciprocals tested, over their base mean; never under the floor. */
	double ia[5], ib[5];
	for (size_t i = 0; i < 5; i++)
		ia[i] = 1 / r_a[i], ib[i] = 1 / r_b[i];
	double sp = sqrt((stats_variance(ia, 5) + stats_variance(ib, 5)) / 2);
	double want = stats_t_mde(5, 5, 0.05 / 5, 0.8) * sp / stats_amean(ia, 5);
	CHECK(r && want < 0.05 && r->cells[1].mde == 0.05, "an MDE under the floor is the floor (%g)", want);
	const struct cmp_row *tp = row_of(&cmp, "fz", "time-passes");
	CHECK(tp && isnan(tp->cells[0].mde) && isfinite(tp->cells[1].mde), "headline cells have an MDE, the base none");
	const struct cmp_row *mf = row_of(&cmp, "fz", "major-faults-passes");
	CHECK(mf && isnan(mf->cells[1].mde), "counters have none");
	text = text_of(&cmp, compare_write_text);
	CHECK(strstr(text, "\n  same       fr refault-rate in b: -3.0% [95% CI ") &&
		      strstr(text, "; could have seen >= 5.0%\n"),
	      "the text says what an unchanged metric could have seen");
	free(text);
	compare_free(&cmp);

	/* Without the floor the MDE is the power calculation's. */
	o.noise_min = 1e-6;
	compare_runs(runs, 2, &o, &cmp);
	r = row_of(&cmp, "fr", "refault-rate");
	CHECK(r && fabs(r->cells[1].mde - fmax(want, r->cells[1].noise_floor)) < 1e-12,
	      "MDE: d sp / mean at alpha/m (%g, want %g)", r ? r->cells[1].mde : NAN, want);
	compare_free(&cmp);

	/* The variant's own setting named: the kernel is no longer flagged. */
	const char *const settings[] = { "kernel.*", NULL };
	o = (struct compare_opts){ .alpha = 0.05, .headline = workload_metric_headline, .setting_keys = settings };
	compare_runs(runs, 2, &o, &cmp);
	CHECK(!flag_has(&cmp, "kernel.release"), "a key named as a setting is not flagged");
	compare_free(&cmp);

	/* Variants of one group ran interleaved: a 6% slower time with a CV
	 * of about 8% is called from 40 iterations a side, where runs made
	 * apart keep the CV as their floor and call nothing. */
	{
		struct run *ga = mkrun("g-a", 11, "{}"), *gb = mkrun("g-b", 12, "{}");
		double va[40], vb[40];
		for (size_t i = 0; i < 40; i++) {
			double z = 1.41 * sin(1.7 * (double)i);
			va[i] = 1000 * (1 + 0.08 * z);
			vb[i] = 1060 * (1 + 0.08 * sin(1.7 * (double)i + 0.9) * 1.41);
		}
		put2(ga, gb, "fz", "fault", "time-passes", "ns", BETTER_LOWER, COMBINE_AMEAN, va, 40, vb, 40);
		const struct run *g[] = { ga, gb };
		o = (struct compare_opts){ .alpha = 0.05, .headline = workload_metric_headline };
		compare_runs(g, 2, &o, &cmp);
		const struct cmp_row *gt = row_of(&cmp, "fz", "time-passes");
		CHECK(gt && !gt->cells[1].interleaved && gt->cells[1].noise_floor > 0.07 &&
			      !gt->cells[1].significant && gt->cells[1].q < 0.05 &&
			      (gt->cells[1].ci_high - 1 > gt->cells[1].noise_floor) == (gt->cells[1].verdict == CMP_UNSTABLE),
		      "runs apart: the CV is the floor, and a 6%% change under it is not called; unstable as its "
		      "interval reaches beyond the floor (q %g)",
		      gt ? gt->cells[1].q : NAN);
		CHECK(gt && gt->cells[1].mde >= gt->cells[1].noise_floor, "nor could one be seen");
		text = text_of(&cmp, compare_write_text);
		CHECK(strstr(text, "noise floor max(1%, CV)"), "the verdict line says the floor is the CV");
		free(text);
		compare_free(&cmp);
		ga->info.group_uuid = xstrdup("5f0c");
		gb->info.group_uuid = xstrdup("5f0c");
		compare_runs(g, 2, &o, &cmp);
		gt = row_of(&cmp, "fz", "time-passes");
		CHECK(cmp.ninterleaved == 1 && gt && gt->cells[1].interleaved && gt->cells[1].noise_floor == 0.01,
		      "variants of one group: the floor is the minimum alone");
		CHECK(gt && gt->cells[1].verdict == CMP_REGRESSED, "and the 6%% change is a regression");
		CHECK(gt && gt->cells[1].mde < 0.07 && gt->cells[1].mde > 0.01,
		      "its MDE is the power calculation's, under the CV (%g)", gt ? gt->cells[1].mde : NAN);
		text = text_of(&cmp, compare_write_text);
		CHECK(strstr(text, "noise floor 1%: variants interleaved"), "the verdict line says why: %.120s", text);
		free(text);
		json_t *gj = compare_to_json(&cmp);
		json_t *h0 = json_array_get(json_object_get(json_object_get(gj, "verdict"), "headline"), 0);
		CHECK(json_is_true(json_object_get(h0, "interleaved")), "JSON says the cell was interleaved");
		json_decref(gj);
		compare_free(&cmp);
		/* A run of another group is apart. */
		free(gb->info.group_uuid);
		gb->info.group_uuid = xstrdup("77aa");
		compare_runs(g, 2, &o, &cmp);
		gt = row_of(&cmp, "fz", "time-passes");
		CHECK(cmp.ninterleaved == 0 && gt && !gt->cells[1].significant && !gt->cells[1].interleaved,
		      "another group's run is apart");
		compare_free(&cmp);
		run_free(ga);
		run_free(gb);
	}

	/* The blocks of an interleaved group are paired: the machine's drift
	 * (here 1000 to 1400 over the run) is in both iterations of a block,
	 * so a 2% slower time that Welch cannot see under the drift is called
	 * by the paired t-test; an iteration that failed takes its block out. */
	{
		struct run *pa = mkrun("p-a", 21, "{}"), *pb = mkrun("p-b", 22, "{}");
		pa->info.group_uuid = xstrdup("9e1d");
		pb->info.group_uuid = xstrdup("9e1d");
		double va[12], vb[12];
		for (size_t i = 0; i < 12; i++) {
			double drift = 1000 + 400 * sin(0.6 * (double)i) * sin(0.6 * (double)i);
			va[i] = drift * (1 + 0.004 * sin(2.1 * (double)i));
			vb[i] = drift * 1.02 * (1 + 0.004 * cos(1.3 * (double)i));
		}
		put2(pa, pb, "fz", "fault", "time-passes", "ns", BETTER_LOWER, COMBINE_AMEAN, va, 12, vb, 12);
		put2(pa, pb, "rt", "fault", "refault-rate", "pages/s", BETTER_HIGHER, COMBINE_HMEAN, va, 12, vb, 12);
		put2(pa, pb, "mm", "mmap", "access-p99", "ns", BETTER_LOWER, COMBINE_AMEAN, va, 12, vb, 12);
		for (size_t k = 0; k < 3; k++)
			for (struct run *rr = pa; rr; rr = rr == pa ? pb : NULL) {
				struct run_case *pc = &rr->cases[k];
				pc->iter_no = xcalloc(12, sizeof(int));
				pc->iter_seq = xcalloc(12, sizeof(int64_t));
				for (size_t i = 0; i < 12; i++) {
					pc->iter_no[i] = (int)i;
					pc->iter_seq[i] = (int64_t)(2 * i + (rr == pb));
				}
			}
		const struct run *g[] = { pa, pb };
		o = (struct compare_opts){ .alpha = 0.05, .headline = workload_metric_headline };
		compare_runs(g, 2, &o, &cmp);
		const struct cmp_row *pt = row_of(&cmp, "fz", "time-passes"), *pr = row_of(&cmp, "rt", "refault-rate");
		CHECK(pt && pt->cells[1].paired && pt->cells[1].npairs == 12 && pt->cells[1].w.df == 11,
		      "interleaved blocks are paired (%zu pairs)", pt ? pt->cells[1].npairs : 0);
		CHECK(pt && pt->cells[1].verdict == CMP_REGRESSED && fabs(pt->cells[1].ratio - 1.02) < 0.003 &&
			      pt->cells[1].ci_low > 1.01 && pt->cells[1].ci_high < 1.03,
		      "and the 2%% under the drift is a regression, its interval tight (%g - %g)",
		      pt ? pt->cells[1].ci_low : NAN, pt ? pt->cells[1].ci_high : NAN);
		CHECK(pt && pt->cells[1].mde < 0.015, "its MDE is the pairs' (%g)", pt ? pt->cells[1].mde : NAN);
		CHECK(pr && pr->cells[1].paired && pr->cells[1].verdict == CMP_IMPROVED &&
			      fabs(pr->cells[1].ratio - stats_hmean(vb, 12) / stats_hmean(va, 12)) < 1e-12,
		      "a rate is paired on its reciprocals, its ratio of harmonic means");
		const struct cmp_row *pp = row_of(&cmp, "mm", "access-p99");
		struct wsr ws = { 0 };
		stats_wilcoxon(va, vb, 12, &ws);
		CHECK(pp && pp->test == CMP_TEST_MWU && pp->cells[1].paired && pp->cells[1].p == ws.p &&
			      pp->cells[1].verdict == CMP_REGRESSED,
		      "a percentile's blocks get the signed-rank test (p %g), and the 2%% is called",
		      pp ? pp->cells[1].p : NAN);
		CHECK(pp && pp->cells[1].ci_low > 1 && pp->cells[1].ci_high < 1.04 &&
			      fabs(pp->cells[1].ratio - stats_median(vb, 12) / stats_median(va, 12)) < 1e-12,
		      "its ratio of medians, and a bootstrap of the blocks around it (%g - %g)",
		      pp ? pp->cells[1].ci_low : NAN, pp ? pp->cells[1].ci_high : NAN);
		text = text_of(&cmp, compare_write_text);
		CHECK(strstr(text, "paired t; noise floor 1.0%") && strstr(text, "signed-rank; noise floor 1.0%"),
		      "the text names the tests");
		CHECK(pp && pp->cells[0].median == stats_median(va, 12) && pp->cells[1].median == stats_median(vb, 12) &&
			      isnan(pt->cells[1].median),
		      "compare gives a percentile's cells their medians, and no other row's");
		char med[160] = "";
		if (pp) {
			char ma[64], mb[64];
			snprintf(med, sizeof(med), "; median %s -> %s", cmp_fmt_scaled(ma, sizeof(ma), pp->cells[0].median,
				 pp->unit), cmp_fmt_scaled(mb, sizeof(mb), pp->cells[1].median, pp->unit));
		}
		CHECK(*med && strstr(text, med), "and the text shows them (%s)", med);
		free(text);
		json_t *pj = compare_to_json(&cmp);
		json_t *h0 = json_array_get(json_object_get(json_object_get(pj, "verdict"), "headline"), 0);
		CHECK(!strcmp(json_string_value(json_object_get(h0, "test")) ?: "", "paired-t"), "JSON names it");
		json_decref(pj);
		compare_free(&cmp);
		/* Block 3 failed in b: 11 pairs. */
		pb->cases[0].iters[3].outcome = OUTCOME_FAIL;
		compare_runs(g, 2, &o, &cmp);
		pt = row_of(&cmp, "fz", "time-passes");
		CHECK(pt && pt->cells[1].npairs == 11 && pt->cells[1].verdict == CMP_REGRESSED, "a failed block is left out");
		compare_free(&cmp);
		/* Without the recorded order (an older store) nothing is paired:
		 * Welch, which the drift hides the change from. */
		for (size_t k = 0; k < 3; k++) {
			free(pb->cases[k].iter_seq);
			pb->cases[k].iter_seq = NULL;
		}
		compare_runs(g, 2, &o, &cmp);
		pt = row_of(&cmp, "fz", "time-passes");
		CHECK(pt && !pt->cells[1].paired && pt->cells[1].verdict == CMP_UNSTABLE && pt->cells[1].mde > 0.05 &&
			      pt->cells[1].settle_n > 12,
		      "without the order: Welch, and under the drift it cannot tell (MDE %g, settles at %zu)",
		      pt ? pt->cells[1].mde : NAN, pt ? pt->cells[1].settle_n : 0);
		compare_free(&cmp);
		run_free(pa);
		run_free(pb);
	}

	/* Trust warnings: what the runs recorded that can move their figures. */
	{
		struct run *ta = mkrun("t-a", 31, "{\"damon\":{\"kdamonds\":[{\"state\":\"on\",\"schemes\":[\"stat\"]}]}}");
		struct run *tb = mkrun("t-b", 32, "{\"other_sandboxes\":2,\"damon\":{\"kdamonds\":[{\"state\":\"off\","
						  "\"schemes\":[\"pageout\"]},{\"state\":\"on\",\"schemes\":[\"lru_deprio\"]}]}}");
		ta->info.status = xstrdup("complete");
		tb->info.status = xstrdup("incomplete");
		put2(ta, tb, "fz", "fault", "time-passes", "ns", BETTER_LOWER, COMBINE_AMEAN, t_a, 5, t_b, 5);
		const struct run *tr[] = { ta, tb };
		o = (struct compare_opts){ .alpha = 0.05, .headline = workload_metric_headline, .cases = "f*" };
		compare_runs(tr, 2, &o, &cmp);
		text = text_of(&cmp, compare_write_brief);
		CHECK(strstr(text, "\nCaution: t-b did not complete (interrupted)"),
		      "an interrupted run is said as list and show say it");
		CHECK(strstr(text, "\nCaution: t-b was not interleaved with the base: "), "runs made apart are said");
		CHECK(strstr(text, "\nCaution: a kdamond with a lru_deprio scheme was on during t-b: "),
		      "a reclaiming kdamond that was on is said, a stat scheme or one that was off is not");
		CHECK(strstr(text, "\nCaution: 2 other sandboxes were live when t-b started"), "other sandboxes are said");
		CHECK(strstr(text, "\nCaution: --cases 'f*': the FDR family is the 1 headline test "), "a --cases filter is said");
		CHECK(cmp.nshared == 1 && strstr(text, "\n--all adds the table of every metric"), "and the rest is on request");
		free(text);
		compare_free(&cmp);
		run_free(ta);
		run_free(tb);
	}

	/* A/A: a run against itself calls nothing. */
	const struct run *same[] = { a, a };
	o = (struct compare_opts){ .alpha = 0.05, .headline = workload_metric_headline };
	compare_runs(same, 2, &o, &cmp);
	CHECK(cmp.tally.regressed == 0 && cmp.tally.improved == 0 && !cmp.env_flags.n, "A/A: no finding, no flag");
	compare_free(&cmp);
	run_free(a);
	run_free(b);
	T_DONE();
}
