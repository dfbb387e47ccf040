/* Bisection over a series of kernels: see bisect.h. */
#include "vm/bisect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "harness/suite.h"
#include "stats/compare.h"

/* What one boot brought home, filled by the matrix's report callback. */
struct bisect_boot_out {
	int64_t run_id;
	int64_t failed_id;  /* the failed run of the group that says why, or 0 */
	char *reason;       /* why it failed, or NULL */
	bool emulated, kvm;
};

struct bisect_ctx {
	struct bisect_opts *o;
	const struct kernel_series *s;
	struct bisect_result *res;
	char *work, *log_base, *suite_file;
	char group_uuid[40];
	double start, deadline;
	size_t index_base;      /* candidate i is the group's variant index_base + i */
};

/* ---- the guests ---------------------------------------------------------- */

static int bisect_on_guests(const struct matrix_ctx *c, struct matrix_guest *g, size_t n)
{
	struct bisect_opts *o = (struct bisect_opts *)c->o;  /* m is its first member */
	struct bisect_boot_out *out = o->out;

	out->kvm = c->accel == GUEST_ACCEL_KVM;
	out->emulated = !out->kvm;
	if (n < 1)
		return VMR_EXIT_CANNOT;
	out->run_id = strcmp(g[0].status, "complete") == 0 ? g[0].run_id : 0;
	if (!out->run_id) {
		out->failed_id = g[0].run_id;
		out->reason = xstrdup(g[0].reason ? g[0].reason : "the guest failed");
	}
	return VMR_EXIT_OK;
}

/* A candidate whose kernel cannot be found stores no run in the matrix:
 * a failed run of the group with no cases says so, so that the store
 * holds every skipped candidate (bisect show).  Its id, or 0. */
static int64_t bisect_store_failed(struct bisect_ctx *b, size_t i, const char *run_name,
				   const struct store_group *grp, const char *reason)
{
	const struct bisect_candidate *c = &b->s->c[i];
	struct store *st = NULL;
	char *path = b->o->m.db ? xstrdup(b->o->m.db) : store_default_path();
	json_t *env = json_pack("{s:{s:s, s:s, s:s}}", "matrix", "kernel", c->kernel, "append",
				c->append ? c->append : "", "reason", reason);
	int64_t id = 0;

	if (store_open(&st, path, STORE_CREATE) == 0) {
		if (store_run_begin_group(st, run_name, b->o->m.suite, NULL, env, b->o->m.name, grp, &id) < 0 ||
		    store_run_end(st, id, "failed") < 0)
			id = 0;
		store_close(st);
	}
	if (!id)
		vmr_warn("bisect: cannot record the skipped candidate #%zu in %s", b->index_base + i + 1, path);
	json_decref(env);
	free(path);
	return id;
}

/* Boot candidate i once for iterations iterations; its run's id in
 * out->run_id, or 0 with out->reason and the failed run that says so in
 * out->failed_id.  An exit code for what must stop the bisection (no
 * static binary, Ctrl-C); a kernel that cannot be found is a failed boot
 * (out->reason), not an error. */
static int bisect_boot(struct bisect_ctx *b, size_t i, long iterations, struct bisect_boot_out *out)
{
	struct bisect_opts *o = b->o;
	const struct bisect_candidate *c = &b->s->c[i];
	static unsigned seq;
	size_t at = b->index_base + i;
	char *log_dir = xasprintf("%s/%zu.%u", b->log_base, at + 1, ++seq);
	char *run_name = xasprintf("%s-%zu.%u", o->m.name, at + 1, seq);
	char variant[32];
	snprintf(variant, sizeof(variant), "%zu", at + 1);
	struct store_group grp = { .uuid = b->group_uuid, .name = o->m.name, .variant = variant, .index = (int)at };
	struct matrix_store_as as = { .run_name = run_name, .suite = o->m.suite, .group = &grp };
	struct matrix_opts m = o->m;

	*out = (struct bisect_boot_out){ 0 };
	memset(&m.kernels, 0, sizeof(m.kernels));
	memset(&m.appends, 0, sizeof(m.appends));
	strlist_add(&m.kernels, c->kernel);
	if (c->append)
		strlist_add(&m.appends, c->append);
	m.suite = b->suite_file;
	m.iterations = iterations;
	m.log_dir = log_dir;
	m.json = true;  /* the matrix's own lines would repeat ours */
	m.store_as = &as;
	o->out = out;
	struct bisect_opts shell = *o;
	shell.m = m;
	fprintf(stderr, "vmregress: bisect: #%zu %s: %ld iteration%s\n", at + 1, c->line, iterations,
		iterations == 1 ? "" : "s");
	int r = matrix_host(&shell.m, bisect_on_guests);
	if (r == VMR_EXIT_USAGE && !out->run_id && !out->reason) {
		out->reason = xstrdup("the kernel cannot be found or fetched");
		out->failed_id = bisect_store_failed(b, i, run_name, &grp, out->reason);
		r = VMR_EXIT_OK;
	} else if (r == VMR_EXIT_OK && out->emulated) {
		o->m.accel = 2;  /* tcg from now on: the verdict is known, say it once */
	}
	strlist_free(&m.kernels);
	strlist_free(&m.appends);
	free(run_name);
	free(log_dir);
	return r == VMR_EXIT_FAIL ? VMR_EXIT_OK : r;
}

/* The passing iterations' values of the metric in a stored run, in their
 * order; the run itself in *keep when keep is not NULL. */
static int bisect_values(struct bisect_ctx *b, int64_t id, double **v, size_t *n, struct run **keep)
{
	struct store *st = NULL;
	struct run *r = NULL;
	char *path = b->o->m.db ? xstrdup(b->o->m.db) : store_default_path();
	int rc = -1;

	*v = NULL;
	*n = 0;
	/* each iteration's metrics alone; a run kept for compare with its
	 * info too, which compare may read after the store is closed */
	if (store_open(&st, path, STORE_READ) == 0 &&
	    store_load_run_parts(st, id, keep ? RESULT_HEAD : RESULT_METRICS, &r) == 0) {
		rc = 0;
		for (size_t c = 0; c < r->ncases; c++) {
			if (strcmp(r->cases[c].name, b->o->case_name))
				continue;
			*v = xcalloc(r->cases[c].niter + 1, sizeof(**v));
			for (size_t k = 0; k < r->cases[c].niter; k++) {
				const struct result *it = &r->cases[c].iters[k];
				const struct metric *m = result_find_metric(it, b->o->metric);
				if (m && it->outcome == OUTCOME_PASS && isfinite(m->value))
					(*v)[(*n)++] = m->value;
				if (m && !b->res->unit)
					b->res->unit = xstrdup(m->unit ? m->unit : "");
			}
		}
		json_t *mx = json_object_get(r->env, "matrix");
		b->res->emulated |= json_is_true(json_object_get(mx, "emulated"));
	}
	if (keep && rc == 0)
		*keep = r;
	else
		run_free(r);
	if (st)
		store_close(st);
	free(path);
	return rc;
}

/* Add facts under "bisect" to the environment of stored runs. */
static void bisect_mark(struct bisect_ctx *b, const int64_t *ids, size_t n, json_t *facts)
{
	struct store *st = NULL;
	char *path = b->o->m.db ? xstrdup(b->o->m.db) : store_default_path();

	if (store_open(&st, path, STORE_WRITE) == 0) {
		for (size_t i = 0; i < n; i++) {
			struct run *r = NULL;
			/* its environment is what changes */
			if (!ids[i] || store_load_run_parts(st, ids[i], RESULT_METRICS, &r) < 0)
				continue;
			json_t *env = json_is_object(r->env) ? json_deep_copy(r->env) : json_object();
			json_t *old = json_object_get(env, "bisect");
			json_t *fx = json_is_object(old) ? json_deep_copy(old) : json_object();
			json_object_update(fx, facts);
			json_object_set_new(env, "bisect", fx);
			if (store_run_env_set(st, ids[i], env) < 0)
				vmr_warn("bisect: cannot record the step in run %lld", (long long)ids[i]);
			json_decref(env);
			run_free(r);
		}
		store_close(st);
	}
	json_decref(facts);
	free(path);
}

static json_t *bisect_facts(struct bisect_ctx *b, size_t i, const char *role)
{
	const struct bisect_candidate *c = &b->s->c[i];
	json_t *f = json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:s?, s:s, s:s, s:f}", "name", b->o->m.name, "mode",
			      b->o->git ? "git" : "series", "role", role, "candidate", (json_int_t)(b->index_base + i + 1),
			      "line", c->line, "kernel", c->kernel, "append", c->append, "case", b->o->case_name,
			      "metric", b->o->metric, "alpha", b->o->alpha);
	if (b->o->echo && strcmp(role, "step"))
		json_object_set(f, "options", b->o->echo);
	return f;
}

/* ---- the references and the confirmation -------------------------------- */

static int bisect_reference(struct bisect_ctx *b, size_t i, const char *role, struct bisect_ref *ref,
			    struct run **run)
{
	struct bisect_boot_out out = { 0 };
	size_t n = 0;
	int r = bisect_boot(b, i, b->o->references, &out);

	ref->cand = i;
	if (r == VMR_EXIT_OK && !out.run_id) {
		vmr_err("bisect: the %s reference (#%zu %s) did not run: %s (its console and output are in %s)", role,
			i + 1, b->s->c[i].line, out.reason, b->log_base);
		r = VMR_EXIT_CANNOT;
	}
	free(out.reason);
	if (r != VMR_EXIT_OK)
		return r;
	ref->run_id = out.run_id;
	if (bisect_values(b, out.run_id, &ref->values, &n, run) < 0)
		return VMR_EXIT_CANNOT;
	if (n < 2) {
		vmr_err("bisect: case '%s' of the %s reference has %zu passing iteration%s with metric '%s' "
			"(see vmregress show %s-%zu.*)", b->o->case_name, role, n, n == 1 ? "" : "s", b->o->metric,
			b->o->m.name, i + 1);
		return VMR_EXIT_USAGE;
	}
	ref->fig.n = n;
	bisect_mark(b, &ref->run_id, 1, bisect_facts(b, i, role));
	return VMR_EXIT_OK;
}

/* Runs made in separate boots are not interleaved: compare them apart. */
static void bisect_ungroup(struct run *r)
{
	free(r->info.group_uuid);
	free(r->info.group_name);
	free(r->info.variant);
	r->info.group_uuid = r->info.group_name = r->info.variant = NULL;
}

/* The mean of a metric's passing iterations in case_name of r, or NAN. */
static double bisect_run_mean(const struct run *r, const char *case_name, const char *metric)
{
	double sum = 0;
	size_t n = 0;

	for (size_t c = 0; c < r->ncases; c++)
		for (size_t k = 0; !strcmp(r->cases[c].name, case_name) && k < r->cases[c].niter; k++) {
			const struct result *it = &r->cases[c].iters[k];
			const struct metric *m = result_find_metric(it, metric);
			if (m && it->outcome == OUTCOME_PASS && isfinite(m->value)) {
				sum += m->value;
				n++;
			}
		}
	return n ? sum / (double)n : NAN;
}

/* The counters that explain the metric's change between the references,
 * as compare finds them (every metric of the case, its own FDR). */
static void bisect_explainers(struct bisect_ctx *b, const struct run *const *runs)
{
	struct bisect_result *res = b->res;
	struct compare_opts co = { .alpha = b->o->alpha, .cases = b->o->case_name, .headline_glob = b->o->metric };
	struct comparison cmp = { 0 };
	size_t idx[BISECT_EXPLAIN];

	compare_runs(runs, 2, &co, &cmp);
	for (size_t r = 0; r < cmp.nrows; r++) {
		if (strcmp(cmp.rows[r].case_name, b->o->case_name) || strcmp(cmp.rows[r].metric, b->o->metric))
			continue;
		res->nexplain = cmp_explain(&cmp, r, 1, idx, BISECT_EXPLAIN);
		for (size_t k = 0; k < res->nexplain; k++)
			res->explain[k] = xstrdup(cmp.rows[idx[k]].metric);
	}
	compare_free(&cmp);
	for (size_t k = 0; k < res->nexplain; k++) {
		res->good.explain[k] = bisect_run_mean(runs[0], b->o->case_name, res->explain[k]);
		res->bad.explain[k] = bisect_run_mean(runs[1], b->o->case_name, res->explain[k]);
	}
}

/* A step's means of the explaining counters over its runs. */
static void bisect_step_explain(struct bisect_ctx *b, struct bisect_step *st)
{
	struct store *s = NULL;
	char *path = b->o->m.db ? xstrdup(b->o->m.db) : store_default_path();
	double sum[BISECT_EXPLAIN] = { 0 };
	size_t n[BISECT_EXPLAIN] = { 0 };

	for (size_t k = 0; k < BISECT_EXPLAIN; k++)
		st->explain[k] = NAN;
	if (!b->res->nexplain || store_open(&s, path, STORE_READ) < 0) {
		free(path);
		return;
	}
	for (size_t i = 0; i < st->nruns; i++) {
		struct run *r = NULL;
		if (store_load_run_parts(s, st->run_ids[i], RESULT_METRICS, &r) < 0)
			continue;
		for (size_t k = 0; k < b->res->nexplain; k++) {
			double m = bisect_run_mean(r, b->o->case_name, b->res->explain[k]);
			if (isfinite(m)) {
				sum[k] += m;
				n[k]++;
			}
		}
		run_free(r);
	}
	for (size_t k = 0; k < b->res->nexplain; k++)
		st->explain[k] = n[k] ? sum[k] / (double)n[k] : NAN;
	store_close(s);
	free(path);
}

static int bisect_confirm(struct bisect_ctx *b, struct run *good, struct run *bad)
{
	struct bisect_result *res = b->res;
	const struct run *runs[2] = { good, bad };
	struct compare_opts co = { .alpha = b->o->alpha, .metrics = b->o->metric, .cases = b->o->case_name,
				   .headline_glob = b->o->metric };
	struct comparison cmp = { 0 };

	bisect_ungroup(good);
	bisect_ungroup(bad);
	compare_runs(runs, 2, &co, &cmp);
	bisect_explainers(b, runs);
	const struct cmp_row *row = NULL;
	for (size_t i = 0; i < cmp.nrows && !row; i++)
		if (!strcmp(cmp.rows[i].case_name, b->o->case_name) && !strcmp(cmp.rows[i].metric, b->o->metric))
			row = &cmp.rows[i];
	if (row) {
		const struct cmp_cell *cell = &row->cells[1];
		res->differ = cell->significant;
		res->verdict = cmp_verdict_name(cell->verdict);
		res->change_pct = cmp_ratio_pct(cell->ratio);
		res->q = cell->q;
		res->mde = cell->mde;
		enum sprt_kind kind = row->test == CMP_TEST_MWU ? SPRT_RANKS
				      : row->combine == COMBINE_HMEAN ? SPRT_RECIPROCALS : SPRT_MEANS;
		res->test.kind = kind;
	} else {
		res->verdict = "missing";
		res->q = res->mde = NAN;
	}
	compare_free(&cmp);
	return 0;
}

/* ---- the steps ------------------------------------------------------------ */

static void bisect_step_done(struct bisect_ctx *b, struct bisect_step *st, const double *v, struct sprt *t)
{
	st->decision = t->decision;
	st->iterations = t->n;
	st->llr = t->llr;
	st->bound = t->decision == SPRT_UNDECIDED ? 0 : sprt_step_bound(b->o->alpha);
	sprt_figure(t->kind, v, t->n, &st->fig.centre, &st->fig.lo, &st->fig.hi);
	st->fig.n = t->n;
	if (t->decision == SPRT_UNDECIDED && !st->skip)
		st->skip = xasprintf("undecided after %zu iteration%s (log likelihood ratio %.2f, needs +-%.2f)", t->n,
				     t->n == 1 ? "" : "s", t->llr, t->upper);
	json_t *f = bisect_facts(b, st->cand, "step");
	json_object_set_new(f, "decision", json_string(sprt_decision_name(st->decision)));
	json_object_set_new(f, "iterations", json_integer((json_int_t)st->iterations));
	json_object_set_new(f, "llr", json_real(st->llr));
	json_object_set_new(f, "bound", json_real(st->bound));
	json_object_set_new(f, "skip", st->skip ? json_string(st->skip) : json_null());
	json_object_set_new(f, "step", json_integer((json_int_t)(b->index_base + b->res->nsteps)));
	bisect_mark(b, st->run_ids, st->nruns, f);
}

/* One step: boots of candidate i until the test decides, its most
 * iterations are measured, or the next boot would pass its share. */
static int bisect_step(struct bisect_ctx *b, size_t i, double share_s, struct bisect_step *st)
{
	struct sprt t = b->res->test;
	double t0 = bisect_now(), boot_s = 0, *v = NULL;
	int r = VMR_EXIT_OK;

	t.n = 0;
	t.llr = 0;
	t.decision = SPRT_UNDECIDED;
	st->cand = i;
	while (r == VMR_EXIT_OK && t.decision == SPRT_UNDECIDED && (long)st->measured < b->o->max_iterations) {
		struct bisect_boot_out out = { 0 };
		double bt = bisect_now();
		if (st->boots && bisect_now() - t0 + boot_s > share_s)
			break;
		long want = b->o->batch;
		if (want > b->o->max_iterations - (long)st->measured)
			want = b->o->max_iterations - (long)st->measured;
		r = bisect_boot(b, i, want, &out);
		boot_s = bisect_now() - bt;
		st->boots++;
		if (r == VMR_EXIT_OK && !out.run_id) {
			st->skip = xasprintf("did not boot: %s", out.reason);
			free(out.reason);
			if (out.failed_id) {  /* the step's facts go on it */
				st->run_ids = xrealloc(st->run_ids, (st->nruns + 1) * sizeof(*st->run_ids));
				st->run_ids[st->nruns++] = out.failed_id;
			}
			break;
		}
		free(out.reason);
		if (r != VMR_EXIT_OK)
			break;
		st->run_ids = xrealloc(st->run_ids, (st->nruns + 1) * sizeof(*st->run_ids));
		st->run_ids[st->nruns++] = out.run_id;
		double *nv = NULL;
		size_t nn = 0;
		if (bisect_values(b, out.run_id, &nv, &nn, NULL) < 0)
			nn = 0;
		v = xrealloc(v, (st->measured + nn + 1) * sizeof(*v));
		memcpy(v + st->measured, nv, nn * sizeof(*v));
		for (size_t k = 0; k < nn && t.decision == SPRT_UNDECIDED; k++)
			sprt_add(&t, nv[k]);
		st->measured += nn;
		free(nv);
		if (nn == 0 && !st->skip)
			st->skip = xasprintf("no passing iteration with metric '%s'", b->o->metric);
		if (nn == 0)
			break;
	}
	st->elapsed_s = bisect_now() - t0;
	if (r == VMR_EXIT_OK) {
		bisect_step_explain(b, st);
		bisect_step_done(b, st, v, &t);
	}
	free(v);
	return r;
}

static int bisect_step_cb(void *ctx, size_t i, double share_s, struct bisect_step *st)
{
	return bisect_step(ctx, i, share_s, st);
}

/* ---- set-up --------------------------------------------------------------- */

/* The suite with only [global] and the case: the guest runs nothing else. */
static char *bisect_one_case(const char *text, const char *case_name)
{
	size_t cap = strlen(text) + 1, len = 0;
	char *out = xcalloc(cap, 1), *copy = xstrdup(text), *save = NULL;
	bool keep = true;

	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p = line + strspn(line, " \t");
		if (*p == '[') {
			const char *end = strchr(p, ']');
			size_t nl = end ? (size_t)(end - p - 1) : 0;
			keep = (nl == 6 && !strncmp(p + 1, "global", 6)) ||
			       (nl == strlen(case_name) && !strncmp(p + 1, case_name, nl));
		}
		if (keep)
			len += (size_t)snprintf(out + len, cap - len, "%s\n", line);
	}
	free(copy);
	return out;
}

static int bisect_suite(struct bisect_ctx *b)
{
	struct suite su = { 0 };
	bool found = false;

	if (suite_load(&su, b->o->m.suite) < 0)
		return VMR_EXIT_USAGE;
	char all[512] = "";
	for (size_t i = 0; i < su.ncases; i++) {
		found |= !strcmp(su.cases[i].name, b->o->case_name);
		size_t l = strlen(all);
		snprintf(all + l, sizeof(all) - l, "%s%s", i ? ", " : "", su.cases[i].name);
	}
	if (!found) {
		vmr_err("bisect: no case '%s' in suite %s (its cases: %s)", b->o->case_name, b->o->m.suite, all);
	} else {
		char *text = bisect_one_case(su.text, b->o->case_name);
		b->suite_file = xasprintf("%s/%s.ini", b->work, b->o->case_name);
		if (vmr_write_atomic(b->suite_file, text, strlen(text), 0644) < 0) {
			vmr_errno("cannot write %s", b->suite_file);
			found = false;
		}
		free(text);
	}
	suite_free(&su);
	return found ? VMR_EXIT_OK : VMR_EXIT_USAGE;
}

static int bisect_prepare(struct bisect_ctx *b)
{
	struct bisect_opts *o = b->o;
	const char *tmp = getenv("TMPDIR"), *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	size_t n = b->s->n;

	if (!b->group_uuid[0])
		store_uuid(b->group_uuid, sizeof(b->group_uuid));
	if (b->index_base)
		goto paths;  /* a step of bisect run: no references here */
	if (o->good < 0 || o->bad < 0 || (size_t)o->good > n || (size_t)o->bad > n) {
		vmr_err("bisect: --good/--bad: the series has candidates 1 to %zu", n);
		return VMR_EXIT_USAGE;
	}
	b->res->good.cand = o->good ? (size_t)o->good - 1 : 0;
	b->res->bad.cand = o->bad ? (size_t)o->bad - 1 : n - 1;
	if (b->res->good.cand == b->res->bad.cand) {
		vmr_err("bisect: the good and the bad reference are both candidate %zu", b->res->good.cand + 1);
		return VMR_EXIT_USAGE;
	}
	if (b->res->good.cand > b->res->bad.cand) {
		vmr_err("bisect: the good reference (%zu) comes after the bad one (%zu): the series is oldest first",
			b->res->good.cand + 1, b->res->bad.cand + 1);
		return VMR_EXIT_USAGE;
	}
paths:
	b->work = xasprintf("%s/vmregress-bisect.%d.XXXXXX", tmp && *tmp ? tmp : "/tmp", (int)getpid());
	if (!mkdtemp(b->work)) {
		vmr_errno("cannot create a work directory in %s", tmp && *tmp ? tmp : "/tmp");
		free(b->work);
		b->work = NULL;
		return VMR_EXIT_CANNOT;
	}
	if (o->m.log_dir)
		b->log_base = xstrdup(o->m.log_dir);
	else if (x && *x == '/')
		b->log_base = xasprintf("%s/vmregress/bisect/%s", x, o->m.name);
	else
		b->log_base = xasprintf("%s/.local/share/vmregress/bisect/%s", home && *home ? home : "/root", o->m.name);
	return bisect_suite(b);
}

static void bisect_mark_confirm(struct bisect_ctx *b)
{
	struct bisect_result *res = b->res;
	int64_t ids[2] = { res->good.run_id, res->bad.run_id };
	json_t *f = json_pack("{s:{s:b, s:s, s:f, s:f, s:f, s:i}, s:s}", "confirm", "differ", res->differ, "verdict",
			      res->verdict ? res->verdict : "missing", "change_pct", res->change_pct,
			      "q", isfinite(res->q) ? res->q : 1.0, "mde", isfinite(res->mde) ? res->mde : -1.0,
			      "kind", (json_int_t)res->test.kind, "unit", res->unit ? res->unit : "");
	bisect_mark(b, ids, 2, f);
}

/* The references measured and compared, the test set up from them. */
static int bisect_references(struct bisect_ctx *b)
{
	struct bisect_result *res = b->res;
	struct run *good = NULL, *bad = NULL;
	char why[256] = "";
	int r = bisect_reference(b, res->good.cand, "good", &res->good, &good);

	if (r == VMR_EXIT_OK)
		r = bisect_reference(b, res->bad.cand, "bad", &res->bad, &bad);
	if (r == VMR_EXIT_OK) {
		bisect_confirm(b, good, bad);
		bisect_mark_confirm(b);
	}
	run_free(good);
	run_free(bad);
	if (r != VMR_EXIT_OK)
		return r;
	enum sprt_kind kind = res->test.kind;
	bisect_ref_figures(res);
	res->last_good = res->good.cand;
	res->first_bad = res->bad.cand;
	if (!res->differ) {
		res->end = BISECT_NO_DIFFERENCE;
		return VMR_EXIT_OK;
	}
	if (sprt_init(&res->test, kind, b->o->alpha, res->good.values, res->good.fig.n, res->bad.values,
		      res->bad.fig.n, why, sizeof(why)) < 0) {
		res->end = BISECT_NO_TEST;
		res->why = xstrdup(why);
		return VMR_EXIT_OK;
	}
	res->end = BISECT_READY;
	return VMR_EXIT_OK;
}

static int bisect_run(struct bisect_ctx *b)
{
	int r = bisect_references(b);

	if (r != VMR_EXIT_OK || b->res->end != BISECT_READY || b->o->start)
		return r;
	return bisect_search(b->res, b->s->n, b->deadline, bisect_step_cb, b);
}

static void bisect_ctx_free(struct bisect_ctx *b)
{
	if (b->work && !b->o->m.keep)
		vmr_rm_rf(b->work);
	free(b->work);
	free(b->log_base);
	free(b->suite_file);
}

int bisect_host_step(struct bisect_opts *o, const struct kernel_series *s, struct bisect_result *res,
		     size_t index)
{
	struct bisect_ctx b = { .o = o, .s = s, .res = res, .index_base = index };
	double t0 = bisect_now();
	int r;

	snprintf(b.group_uuid, sizeof(b.group_uuid), "%s", res->group_uuid);
	r = bisect_prepare(&b);
	if (r == VMR_EXIT_OK) {
		res->steps = xrealloc(res->steps, (res->nsteps + 1) * sizeof(*res->steps));
		struct bisect_step *st = &res->steps[res->nsteps];
		memset(st, 0, sizeof(*st));
		res->nsteps++;
		r = bisect_step(&b, 0, (double)o->budget_ns / 1e9, st);
		bisect_bound(res);
	}
	res->elapsed_s += bisect_now() - t0;
	bisect_ctx_free(&b);
	return r;
}

int bisect_host(struct bisect_opts *o, const struct kernel_series *s, struct bisect_result *res)
{
	struct bisect_ctx b = { .o = o, .s = s, .res = res };
	int r;

	memset(res, 0, sizeof(*res));
	res->cands = s->c;
	res->ncands = s->n;
	res->alpha = o->alpha;
	res->q = res->mde = NAN;
	res->name = xstrdup(o->m.name);
	res->case_name = xstrdup(o->case_name);
	res->metric = xstrdup(o->metric);
	b.start = bisect_now();
	b.deadline = b.start + (double)o->budget_ns / 1e9;
	r = bisect_prepare(&b);
	res->group_uuid = xstrdup(b.group_uuid);
	if (r == VMR_EXIT_OK)
		r = bisect_run(&b);
	if (r == VMR_EXIT_OK)
		bisect_bound(res);
	res->elapsed_s = bisect_now() - b.start;
	bisect_ctx_free(&b);
	return r;
}
