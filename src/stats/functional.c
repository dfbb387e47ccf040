#include "stats/functional.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

const char *fn_kind_name(enum fn_kind k)
{
	static const char *const names[] = { "regression", "flaky", "improvement", "coverage" };
	return (unsigned)k <= FN_COVERAGE ? names[k] : "?";
}

const char *fn_case_status(const struct fn_count *c)
{
	if (!c->n)
		return "absent";
	if (c->fail)
		return c->pass ? "flaky" : "fail";
	return c->pass ? "pass" : "skip";
}

const struct fn_case *fn_run_find(const struct fn_run *t, const char *sc, const char *test, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].suite_case, sc) && !strcmp(t->v[i].test, test) && !strcmp(t->v[i].name, name))
			return &t->v[i];
	return NULL;
}

static void fn_add(struct fn_run *t, const char *sc, const char *test, json_t *c)
{
	const char *name = json_string_value(json_object_get(c, "name"));
	const char *st = json_string_value(json_object_get(c, "status"));
	if (!name || !st)
		return;
	struct fn_case *e = (struct fn_case *)fn_run_find(t, sc, test, name);
	if (!e) {
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 64;
			t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
		}
		e = &t->v[t->n++];
		*e = (struct fn_case){ .suite_case = sc, .test = test, .name = name };
	}
	e->c.n++;
	if (!strcmp(st, "fail") || !strcmp(st, "error"))
		e->c.fail++;
	else if (!strcmp(st, "skip"))
		e->c.skip++;
	else
		e->c.pass++;
	json_int_t ns = json_integer_value(json_object_get(c, "time_ns"));
	e->time_ns += ns > 0 ? (uint64_t)ns : 0;
	const char *why = json_string_value(json_object_get(c, "reason"));
	if (why && *why && strcmp(st, "pass"))
		e->reason = why;
}

void functional_run_cases(const struct run *r, struct fn_run *t)
{
	memset(t, 0, sizeof(*t));
	t->run = r->info.name;
	for (size_t i = 0; i < r->ncases; i++) {
		const struct run_case *rc = &r->cases[i];
		for (size_t k = 0; k < rc->niter; k++) {
			json_t *ks = json_object_get(rc->iters[k].info, "kselftest");
			const char *ver = json_string_value(json_object_get(ks, "version"));
			if (ver && t->version && strcmp(ver, t->version))
				t->mixed_versions = true;
			if (ver && !t->version)
				t->version = ver;
			const char *src = json_string_value(json_object_get(ks, "selftests"));
			if (src && !t->selftests)
				t->selftests = src;
			size_t ti, ci;
			json_t *test, *c;
			json_array_foreach(json_object_get(ks, "tests"), ti, test) {
				const char *tn = json_string_value(json_object_get(test, "test"));
				if (!tn)
					continue;
				json_array_foreach(json_object_get(test, "cases"), ci, c)
					fn_add(t, rc->name, tn, c);
			}
		}
	}
}

void fn_run_free(struct fn_run *fr)
{
	free(fr->v);
	memset(fr, 0, sizeof(*fr));
}

static void fn_push(struct functional *f, enum fn_kind kind, const char *run, const struct fn_case *b,
		    const struct fn_case *a)
{
	const struct fn_case *e = a ? a : b;
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 16;
		f->v = xrealloc(f->v, f->cap * sizeof(*f->v));
	}
	f->v[f->n++] = (struct fn_change){
		.kind = kind, .run = run, .suite_case = xstrdup(e->suite_case), .test = xstrdup(e->test),
		.name = xstrdup(e->name), .before = b ? b->c : (struct fn_count){ 0 },
		.after = a ? a->c : (struct fn_count){ 0 }, .reason = a && a->reason ? xstrdup(a->reason) : NULL,
	};
	f->count[kind]++;
}

/* The rule of the header, for one case present in the base (b) and
 * perhaps in the run (a). */
static void fn_judge(struct functional *f, const char *run, const struct fn_case *b, const struct fn_case *a)
{
	const struct fn_count *cb = &b->c;
	unsigned ran_b = cb->pass + cb->fail, ran_a = a ? a->c.pass + a->c.fail : 0;
	if (ran_b && !ran_a)
		fn_push(f, FN_COVERAGE, run, b, a);           /* tested before, skipped or gone now */
	else if (!ran_b && ran_a)
		fn_push(f, FN_COVERAGE, run, b, a);           /* skipped before, tested now */
	else if (ran_a && a->c.fail && !cb->fail)
		fn_push(f, FN_REGRESSION, run, b, a);
	else if (ran_a && a->c.fail && cb->fail && cb->pass)
		fn_push(f, FN_FLAKY, run, b, a);
	else if (ran_a && !a->c.fail && cb->fail && !cb->pass)
		fn_push(f, FN_IMPROVEMENT, run, b, a);
}

void functional_compare(const struct run *const *runs, size_t n, struct functional *f)
{
	memset(f, 0, sizeof(*f));
	if (!n)
		return;
	f->runs = xcalloc(n, sizeof(*f->runs));
	f->nruns = n;
	for (size_t r = 0; r < n; r++)
		functional_run_cases(runs[r], &f->runs[r]);
	const struct fn_run *base = &f->runs[0];
	f->ncases = base->n;
	f->any = base->n > 0;
	for (size_t r = 1; r < n; r++) {
		const struct fn_run *t = &f->runs[r];
		f->any |= t->n > 0;
		const char *run = runs[r]->info.name;
		for (size_t i = 0; i < base->n; i++)
			fn_judge(f, run, &base->v[i], fn_run_find(t, base->v[i].suite_case, base->v[i].test, base->v[i].name));
		for (size_t i = 0; i < t->n; i++)  /* new cases that ran: coverage gained */
			if (!fn_run_find(base, t->v[i].suite_case, t->v[i].test, t->v[i].name) && t->v[i].c.pass + t->v[i].c.fail)
				fn_push(f, FN_COVERAGE, run, NULL, &t->v[i]);
		if (!f->versions && base->version && t->version && (strcmp(base->version, t->version) || t->mixed_versions))
			f->versions = xasprintf("%s -> %s%s", base->version, t->version,
						t->mixed_versions ? " (and others)" : "");
	}
}

void functional_free(struct functional *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].suite_case);
		free(f->v[i].test);
		free(f->v[i].name);
		free(f->v[i].reason);
	}
	free(f->v);
	free(f->versions);
	for (size_t r = 0; r < f->nruns; r++)
		fn_run_free(&f->runs[r]);
	free(f->runs);
	memset(f, 0, sizeof(*f));
}
