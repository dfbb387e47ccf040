/* The comparison engine on runs built by hand: direction of change,
 * verdicts, too-few markers, what is left out, the environment diff and
 * the filters. */
#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "report/compare_fmt.h"
#include "report/run_json.h"
#include "stats/compare.h"
#include "t.h"

static struct run *mkrun(const char *name, int64_t id, const char *env)
{
	struct run *r = xcalloc(1, sizeof(*r));
	r->info.name = xstrdup(name);
	r->info.id = id;
	r->env = json_loads(env, 0, NULL);
	return r;
}

static struct run_case *mkcase(struct run *r, const char *name, size_t niter)
{
	r->cases = xrealloc(r->cases, (r->ncases + 1) * sizeof(*r->cases));
	struct run_case *c = &r->cases[r->ncases++];
	memset(c, 0, sizeof(*c));
	c->name = xstrdup(name);
	c->workload = xstrdup("fault");
	c->options = json_object();
	c->niter = niter;
	c->iters = xcalloc(niter, sizeof(struct result));
	for (size_t i = 0; i < niter; i++)
		result_init(&c->iters[i], "fault");
	return c;
}

static void put(struct run_case *c, const char *metric, enum better b, enum combine cb, const double *v)
{
	const char *unit = b == BETTER_HIGHER ? "faults/s" : "ns";
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

static bool env_has(const struct comparison *cmp, const char *key)
{
	for (size_t i = 0; i < cmp->nenv; i++)
		if (!strcmp(cmp->env[i].key, key))
			return true;
	return false;
}

static bool flag_has(const struct comparison *cmp, const char *needle)
{
	for (size_t i = 0; i < cmp->env_flags.n; i++)
		if (strstr(cmp->env_flags.v[i], needle))
			return true;
	return false;
}

/* The environment diff and flags of two runs, each with one case. */
static void compare_two(struct run *x, struct run *y, struct comparison *cmp)
{
	double v[] = { 10, 11, 10, 11 };
	put(mkcase(x, "c", 4), "time", BETTER_LOWER, COMBINE_AMEAN, v);
	put(mkcase(y, "c", 4), "time", BETTER_LOWER, COMBINE_AMEAN, v);
	const struct run *two[] = { x, y };
	compare_runs(two, 2, &(struct compare_opts){ .alpha = 0.05 }, cmp);
}

/* A matrix run and a LAVA run record how they ran each in its own section:
 * neither section is a difference between them, emulation is said apart. */
static void check_origins(void)
{
#define MX "{\"kernel\":{\"release\":\"6.1.0-57\"},\"matrix\":{\"name\":\"m\",\"accel\":\"%s\"," \
	   "\"emulated\":%s,\"console_log\":\"m.log\",\"mem_bytes\":536870912}}"
#define LAB "{\"kernel\":{\"release\":\"6.1.0-57\"},\"lava\":{\"job_id\":\"4711\",\"device\":\"qemu-03\"%s}}"
	char *m_tcg = xasprintf(MX, "tcg", "true"), *m_kvm = xasprintf(MX, "kvm", "false");
	char *l_tcg = xasprintf(LAB, ",\"accel\":\"tcg\",\"emulated\":true"), *l_board = xasprintf(LAB, "");
#undef MX
#undef LAB
	struct comparison cmp = { 0 };
	struct run *x = mkrun("matrix-tcg", 61, m_tcg), *y = mkrun("lava-tcg", 62, l_tcg);

	compare_two(x, y, &cmp);
	CHECK(!env_has(&cmp, "matrix.accel") && !env_has(&cmp, "matrix.console_log") && !env_has(&cmp, "lava.job_id"),
	      "a matrix run against a LAVA run: neither's own section is a difference");
	CHECK(!flag_has(&cmp, "matrix.accel") && !flag_has(&cmp, "emulated"), "nor a flag: both ran under TCG");
	compare_free(&cmp);
	run_free(x);
	run_free(y);
	x = mkrun("matrix-tcg", 61, m_tcg);
	y = mkrun("lava-board", 63, l_board);
	compare_two(x, y, &cmp);
	CHECK(flag_has(&cmp, "some runs ran emulated (TCG), others natively"),
	      "a TCG guest against a lab's board is still said");
	compare_free(&cmp);
	run_free(x);
	run_free(y);
	x = mkrun("matrix-tcg", 61, m_tcg);
	y = mkrun("matrix-kvm", 64, m_kvm);
	compare_two(x, y, &cmp);
	CHECK(env_has(&cmp, "matrix.accel") && flag_has(&cmp, "matrix.accel: tcg | kvm"),
	      "two matrix runs still differ by their accelerator");
	compare_free(&cmp);
	run_free(x);
	run_free(y);
	x = mkrun("matrix-tcg", 61, m_tcg);
	y = mkrun("host", 65, "{\"kernel\":{\"release\":\"6.1.0-57\"}}");
	compare_two(x, y, &cmp);
	CHECK(env_has(&cmp, "matrix.accel"), "a matrix run against one on the host keeps the matrix's facts");
	compare_free(&cmp);
	run_free(x);
	run_free(y);
	free(m_tcg);
	free(m_kvm);
	free(l_tcg);
	free(l_board);
}

static bool left_out_has(const struct comparison *cmp, const char *needle)
{
	bool found = false;
	for (size_t i = 0; i < cmp->nleft && !found; i++) {
		char *t = compare_left_text(&cmp->left_out[i]);
		found = strstr(t, needle) != NULL;
		free(t);
	}
	return found;
}

int main(void)
{
	struct run *a = mkrun("base", 1, "{\"sysctl\":{\"vm.page-cluster\":3,\"vm.swappiness\":60},"
					  "\"uptime_s\":10,\"swap\":[{\"type\":\"file\"}]}");
	struct run *b = mkrun("new", 2, "{\"sysctl\":{\"vm.page-cluster\":0,\"vm.swappiness\":60},"
					 "\"uptime_s\":99,\"swap\":[{\"type\":\"zram\"}],\"zswap\":\"Y\"}");
	double at[] = { 1234, 1236, 1232, 1235 }, bt[] = { 1010, 1012, 1009, 1011 };
	double ar[] = { 100, 101, 99, 100 }, br[] = { 80, 81, 79, 80 };
	double an[] = { 5, 6, 5, 6 }, bn[] = { 5, 6, 6, 5 };
	struct run_case *ca = mkcase(a, "fault-zero", 4), *cb = mkcase(b, "fault-zero", 4);
	put(ca, "time", BETTER_LOWER, COMBINE_AMEAN, at);
	put(cb, "time", BETTER_LOWER, COMBINE_AMEAN, bt);
	put(ca, "rate", BETTER_HIGHER, COMBINE_HMEAN, ar);
	put(cb, "rate", BETTER_HIGHER, COMBINE_HMEAN, br);
	put(ca, "noise", BETTER_LOWER, COMBINE_AMEAN, an);
	put(cb, "noise", BETTER_LOWER, COMBINE_AMEAN, bn);
	put(cb, "extra", BETTER_LOWER, COMBINE_AMEAN, bn);
	double az[] = { 0, 0, 0, 0 }, bz[] = { 40, 42, 41, 40 };
	put(ca, "swapins", BETTER_LOWER, COMBINE_AMEAN, az);
	put(cb, "swapins", BETTER_LOWER, COMBINE_AMEAN, bz);
	double one[] = { 7 };
	put(mkcase(a, "single", 1), "time", BETTER_LOWER, COMBINE_AMEAN, one);
	put(mkcase(b, "single", 1), "time", BETTER_LOWER, COMBINE_AMEAN, one);
	put(mkcase(a, "only-base", 1), "time", BETTER_LOWER, COMBINE_AMEAN, one);
	put(mkcase(b, "only-new", 1), "time", BETTER_LOWER, COMBINE_AMEAN, one);
	struct run_case *fc = mkcase(b, "failing", 2);
	put(mkcase(a, "failing", 2), "time", BETTER_LOWER, COMBINE_AMEAN, at);
	put(fc, "time", BETTER_LOWER, COMBINE_AMEAN, bt);
	result_set_outcome(&fc->iters[1], OUTCOME_FAIL, "bad data");

	const struct run *runs[] = { a, b };
	struct compare_opts o = { .alpha = 0.05 };
	struct comparison cmp = { 0 };
	compare_runs(runs, 2, &o, &cmp);

	const struct cmp_row *t = row_of(&cmp, "fault-zero", "time");
	CHECK(t && t->cells[1].verdict == CMP_IMPROVED, "a lower time is an improvement");
	CHECK(t && t->cells[1].change_pct < -18 && t->cells[1].change_pct > -18.3,
	      "time change is -18.x%%: after over before minus one, whatever is better");
	const struct cmp_row *r = row_of(&cmp, "fault-zero", "rate");
	CHECK(r && r->cells[1].verdict == CMP_REGRESSED, "a lower rate is a regression");
	CHECK(r && r->cells[1].change_pct < -19, "rate change is negative, the same sign as the time's");
	CHECK(r && fabs(r->cells[0].s.mean - stats_hmean(ar, 4)) < 1e-9, "rates combine by harmonic mean");
	const struct cmp_row *n = row_of(&cmp, "fault-zero", "noise");
	CHECK(n && n->cells[1].verdict == CMP_UNSTABLE && !n->cells[1].significant,
	      "noise is not significant, and four iterations at a CV of 10%% cannot tell");
	const struct cmp_row *s = row_of(&cmp, "single", "time");
	CHECK(s && s->cells[1].verdict == CMP_TOO_FEW && !s->cells[1].significant, "one iteration: too few to say");
	CHECK(s && s->cells[1].change_pct == 0 && !signbit(s->cells[1].change_pct), "no change is +0, not -0");
	const struct cmp_row *f = row_of(&cmp, "failing", "time");
	CHECK(f && f->cells[1].s.n == 1 && f->cells[1].verdict == CMP_TOO_FEW, "failed iterations are not counted");
	CHECK(left_out_has(&cmp, "1 of 2 iterations of case 'failing' in new did not pass"), "failed iteration noted");
	CHECK(!row_of(&cmp, "fault-zero", "extra"), "a metric only the new run has is not a row");
	CHECK(left_out_has(&cmp, "metric 'extra' of case 'fault-zero' is only in new"), "and is noted");
	CHECK(left_out_has(&cmp, "case 'only-new' is only in new"), "a case the base lacks is noted");
	CHECK(left_out_has(&cmp, "case 'only-base' is not in new"), "a case the new run lacks is noted");
	const struct cmp_row *ob = row_of(&cmp, "only-base", "time");
	CHECK(ob && !ob->cells[1].present && ob->cells[1].verdict == CMP_MISSING, "missing cell is marked");
	const struct cmp_row *z = row_of(&cmp, "fault-zero", "swapins");
	CHECK(z && isnan(z->cells[1].change_pct) && z->cells[1].significant,
	      "a change from a base of 0 has no percentage, and can be significant");
	char *text = NULL;
	size_t tlen = 0;
	FILE *tf = open_memstream(&text, &tlen);
	compare_write_text(tf, &cmp);
	fclose(tf);
	CHECK(strstr(text, "swapins             0 ns (   0.00%)         40.75 ns *+40.75 ns*") && !strstr(text, "nan"),
	      "the text shows a change from 0 as its absolute value, never as nan%%");
	free(text);

	bool pc = false, swap = false, zswap = false, same = false, uptime = false;
	for (size_t i = 0; i < cmp.nenv; i++) {
		const struct cmp_env_diff *d = &cmp.env[i];
		pc |= !strcmp(d->key, "sysctl.vm.page-cluster") && !strcmp(d->values[0], "3") &&
		      !strcmp(d->values[1], "0");
		swap |= !strcmp(d->key, "swap[0].type") && !strcmp(d->values[1], "zram");
		zswap |= !strcmp(d->key, "zswap") && !strcmp(d->values[0], "-");
		same |= !strcmp(d->key, "sysctl.vm.swappiness");
		uptime |= !strcmp(d->key, "uptime_s");
	}
	CHECK(pc && swap && zswap, "environment diff names what differs, by key path");
	CHECK(!same, "environment diff leaves out what is the same");
	CHECK(!uptime, "environment diff leaves out what changes every boot");
	compare_free(&cmp);

	o.only_significant = true;
	compare_runs(runs, 2, &o, &cmp);
	CHECK(cmp.nrows == 3 && row_of(&cmp, "fault-zero", "time") && row_of(&cmp, "fault-zero", "rate") &&
		      row_of(&cmp, "fault-zero", "swapins"),
	      "--only-significant keeps the significant rows only");
	compare_free(&cmp);

	o = (struct compare_opts){ .alpha = 0.05, .cases = "fault-*", .metrics = "t*" };
	compare_runs(runs, 2, &o, &cmp);
	CHECK(cmp.nrows == 1 && row_of(&cmp, "fault-zero", "time"), "--cases and --metrics globs narrow");
	CHECK(!left_out_has(&cmp, "only-new"), "filtered cases are not reported as left out");
	compare_free(&cmp);

	/* A run survives the JSON round trip, and compares the same after it. */
	json_t *j = run_to_json(b);
	const char *why = NULL;
	struct run *b2 = run_from_json(j, &why);
	json_decref(j);
	CHECK(b2 && b2->ncases == b->ncases && !strcmp(b2->info.name, "new"), "run JSON round trip");
	const struct run *runs2[] = { a, b2 };
	o = (struct compare_opts){ .alpha = 1e-12 };
	compare_runs(runs2, 2, &o, &cmp);
	t = row_of(&cmp, "fault-zero", "time");
	CHECK(t && !t->cells[1].significant && t->cells[1].verdict == CMP_UNSTABLE && t->cells[1].settle_n > 4,
	      "a tiny alpha makes nothing significant: a change beyond the floor it does not call cannot tell (%zu)",
	      t ? t->cells[1].settle_n : 0);
	compare_free(&cmp);
	json_t *bad = json_loads("{\"cases\":[{\"name\":\"x\"}]}", 0, NULL);
	struct run *badrun = run_from_json(bad, &why);
	CHECK(!badrun && why, "a malformed run is refused: %s", why ? why : "");
	json_decref(bad);

	/* A knob set for the whole run differs the same way in every case: one
	 * row.  Per-process names (cgroups, swap files) are not settings. */
	struct run *k3 = mkrun("k3", 11, "{}"), *k0 = mkrun("k0", 12, "{}");
	const char *names[] = { "one", "two", "three" };
	for (int i = 0; i < 3; i++) {
		struct run_case *c3 = mkcase(k3, names[i], 2), *c0 = mkcase(k0, names[i], 2);
		put(c3, "time", BETTER_LOWER, COMBINE_AMEAN, at);
		put(c0, "time", BETTER_LOWER, COMBINE_AMEAN, bt);
		json_object_set_new(c3->options, "sandbox", json_pack("{s[s]}", "set", "vm.page-cluster=3"));
		json_object_set_new(c0->options, "sandbox", json_pack("{s[s]}", "set", "vm.page-cluster=0"));
		json_object_set_new(c3->options, "size", json_integer(i));
		json_object_set_new(c0->options, "size", json_integer(i == 2 ? 99 : i));
		for (int it = 0; it < 2; it++) {
			char cg[64];
			snprintf(cg, sizeof(cg), "/sys/fs/cgroup/memory/vmregress-%d-%d-0", 100 + i, it);
			result_info_set(&c3->iters[it], "sandbox", json_pack("{ss sI}", "cgroup", cg, "limit_bytes", 1 << 26));
			snprintf(cg, sizeof(cg), "/sys/fs/cgroup/memory/vmregress-%d-%d-0", 200 + i, it);
			result_info_set(&c0->iters[it], "sandbox", json_pack("{ss sI}", "cgroup", cg, "limit_bytes",
									    i == 1 ? 1 << 27 : 1 << 26));
		}
	}
	const struct run *kruns[] = { k3, k0 };
	compare_runs(kruns, 2, &(struct compare_opts){ .alpha = 0.05 }, &cmp);
	size_t set_rows = 0, cgroup_rows = 0;
	bool size3 = false, limit2 = false;
	for (size_t i = 0; i < cmp.nenv; i++) {
		set_rows += strstr(cmp.env[i].key, "sandbox.set[0]") != NULL;
		cgroup_rows += strstr(cmp.env[i].key, "cgroup") != NULL;
		size3 |= !strcmp(cmp.env[i].key, "case.three.size");
		limit2 |= !strcmp(cmp.env[i].key, "case.two.sandbox-in-force.limit_bytes");
	}
	CHECK(set_rows == 1 && env_has(&cmp, "case.*.sandbox.set[0]"), "a run-wide knob is one row for every case");
	CHECK(size3 && limit2, "a setting that differs in one case names that case");
	CHECK(cgroup_rows == 0, "per-process cgroup names are not settings");
	compare_free(&cmp);
	run_free(k3);
	run_free(k0);

	/* A trace a run generates lies in a new directory every run: its path
	 * is no setting.  What the trace holds (header: description, size,
	 * seed, checksum) is.  Runs 0 and 1 replayed one trace, run 2 one of
	 * another seed; runs 3 and 4 never got as far as opening theirs. */
	struct run *tr[5];
	for (int k = 0; k < 5; k++) {
		char path[96];
		tr[k] = mkrun("tr", 20 + k, "{}");
		struct run_case *c = mkcase(tr[k], "replay", 2);
		put(c, "time", BETTER_LOWER, COMBINE_AMEAN, at);
		snprintf(path, sizeof(path), "/var/tmp/vmregress-traces-%d-Ab%dCd/trace-0.refs", 300 + k, k);
		json_object_set_new(c->options, "options", json_pack("{ss}", "refs", path));
		for (int it = 0; k < 3 && it < 2; it++) {
			struct result *res = &c->iters[it];
			result_info_set(res, "refs", json_string(path));
			result_info_set(res, "refs_description", json_string("pattern=zipf alpha=1.1"));
			result_info_set(res, "pages", json_integer(256));
			result_info_set(res, "references", json_integer(4000));
			result_info_set(res, "refs_seed", json_integer(k == 2 ? 2 : 1));
			result_info_set(res, "refs_checksum", json_integer(k == 2 ? 0xda8c5553 : 0x24344486));
		}
	}
	const struct run *same_trace[] = { tr[0], tr[1] }, *other_trace[] = { tr[0], tr[2] },
			 *unopened[] = { tr[3], tr[4] };
	compare_runs(same_trace, 2, &(struct compare_opts){ 0 }, &cmp);
	CHECK(cmp.nenv == 0, "one trace generated in two runs is no difference (%zu rows, first %s)", cmp.nenv,
	      cmp.nenv ? cmp.env[0].values[1] : "-");
	compare_free(&cmp);
	compare_runs(other_trace, 2, &(struct compare_opts){ 0 }, &cmp);
	CHECK(cmp.nenv == 1 && env_has(&cmp, "case.replay.options.refs"), "traces of different seeds differ");
	CHECK(cmp.nenv == 1 && strstr(cmp.env[0].values[0], "seed 1, crc32 24344486") &&
		      !strcmp(cmp.env[0].values[1], "pattern=zipf alpha=1.1, 256 pages, 4000 references, seed 2, crc32 da8c5553"),
	      "the difference names each trace by its header: %s", cmp.nenv ? cmp.env[0].values[1] : "-");
	compare_free(&cmp);
	compare_runs(unopened, 2, &(struct compare_opts){ 0 }, &cmp);
	CHECK(cmp.nenv == 0, "generated traces no iteration opened are not told apart by path");
	compare_free(&cmp);
	for (int k = 0; k < 5; k++)
		run_free(tr[k]);

	/* Two runs of one name get told apart. */
	struct run *a2 = mkrun("base", 7, "{}");
	const struct run *same_name[] = { a, a2 };
	compare_runs(same_name, 2, &(struct compare_opts){ 0 }, &cmp);
	CHECK_STR(cmp.labels[1], "base#7", "same-named runs get their ids");
	CHECK(cmp.alpha == 0.05, "alpha defaults to 0.05");
	compare_free(&cmp);

	/* Runs from an emulated guest lead with counters: their times say more
	 * about the emulator than the kernel. */
	struct run *e1 = mkrun("tcg-a", 10, "{\"matrix\":{\"emulated\":true}}");
	struct run *e2 = mkrun("tcg-b", 11, "{\"matrix\":{\"emulated\":true}}");
	const double tv[] = { 5, 6, 7 };
	for (int k = 0; k < 2; k++) {
		struct run_case *ec = mkcase(k ? e2 : e1, "fault-zero", 3);
		put(ec, "time-passes", BETTER_LOWER, COMBINE_AMEAN, tv);
		for (size_t i = 0; i < ec->niter; i++)
			result_metric(&ec->iters[i], "refd", "pages", BETTER_LOWER, COMBINE_AMEAN, tv[i] * 100);
	}
	const struct run *emu[] = { e1, e2 };
	compare_runs(emu, 2, &(struct compare_opts){ 0 }, &cmp);
	CHECK(cmp.emulated, "a run from an emulated guest is noticed");
	CHECK(cmp.nrows == 2 && !strcmp(cmp.rows[0].metric, "refd") && !strcmp(cmp.rows[1].metric, "time-passes"),
	      "emulated runs put counters before times");
	compare_free(&cmp);
	const struct run *plain[] = { a, b };
	compare_runs(plain, 2, &(struct compare_opts){ 0 }, &cmp);
	CHECK(!cmp.emulated, "runs on the host are not called emulated");
	compare_free(&cmp);
	run_free(e1);
	run_free(e2);

	/* Warm-ups (run --warmup) are skipped and not counted: said as run and
	 * show say them, not as iterations that did not pass.  No steal in any
	 * run is a measure of the host, not a counter that never moved. */
	{
		struct run *wa = mkrun("w-base", 41, "{}"), *wb = mkrun("w-new", 42, "{}");
		struct run_case *c0 = mkcase(wa, "warming", 4), *c1 = mkcase(wb, "warming", 4);
		double zero[] = { 0, 0, 0, 0 };
		put(c0, "time", BETTER_LOWER, COMBINE_AMEAN, at);
		put(c1, "time", BETTER_LOWER, COMBINE_AMEAN, bt);
		put(c0, "host-steal", BETTER_NONE, COMBINE_AMEAN, zero);
		put(c1, "host-steal", BETTER_NONE, COMBINE_AMEAN, zero);
		put(c0, "never", BETTER_NONE, COMBINE_AMEAN, zero);
		put(c1, "never", BETTER_NONE, COMBINE_AMEAN, zero);
		json_object_set_new(c1->options, "warmup", json_integer(2));
		result_set_outcome(&c1->iters[0], OUTCOME_SKIP, "warm-up iteration, not counted");
		result_set_outcome(&c1->iters[1], OUTCOME_FAIL, "bad data");  /* a warm-up that failed failed */
		result_set_outcome(&c1->iters[3], OUTCOME_FAIL, "bad data");
		const struct run *wr[] = { wa, wb };
		o = (struct compare_opts){ .alpha = 0.05 };
		compare_runs(wr, 2, &o, &cmp);
		CHECK(left_out_has(&cmp, "1 of 4 iterations of case 'warming' in w-new is a warm-up iteration, not counted"),
		      "a warm-up is said as one, not counted");
		CHECK(left_out_has(&cmp, "2 of 4 iterations of case 'warming' in w-new did not pass"),
		      "the iterations that failed (a warm-up among them) did not pass");
		CHECK(left_out_has(&cmp, "1 metric of case 'warming' is zero in every run: never"),
		      "a counter that never moved is named, host-steal at 0 is not");
		CHECK(!left_out_has(&cmp, "host-steal"), "no steal is not a metric that measured nothing");
		compare_free(&cmp);
		run_free(wa);
		run_free(wb);
	}
	check_origins();
	run_free(a);
	run_free(a2);
	run_free(b);
	run_free(b2);
	T_DONE();
}
