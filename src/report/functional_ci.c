/* The selftests' cases as CI formats' test cases (report/functional.h). */
#include "report/functional.h"

#include <string.h>

#include "core/util.h"
#include "report/xml.h"

/* One CI test case: a case of run r (r >= 1) or of the base absent from it. */
struct fci_case {
	const struct fn_case *c;        /* the run's, or the base's when absent */
	struct fn_count count;          /* the run's (n 0: absent) */
	const char *status;             /* fn_case_status of count */
	const struct fn_change *change; /* what compare made of it, or NULL */
};

static const struct fn_change *fci_change(const struct functional *fn, const char *run, const struct fn_case *c)
{
	for (size_t i = 0; i < fn->n; i++) {
		const struct fn_change *x = &fn->v[i];
		if (!strcmp(x->run, run) && !strcmp(x->suite_case, c->suite_case) && !strcmp(x->test, c->test) &&
		    !strcmp(x->name, c->name))
			return x;
	}
	return NULL;
}

/* Call each for every CI case of the compared runs, in run order, each
 * run's cases in the order they ran and then the base's it lacks. */
static void fci_each(const struct functional *fn, void (*each)(void *ctx, size_t r, const struct fci_case *k),
		     void *ctx)
{
	if (!fn || fn->nruns < 2 || !fn->any)
		return;
	const struct fn_run *base = &fn->runs[0];
	for (size_t r = 1; r < fn->nruns; r++) {
		const struct fn_run *t = &fn->runs[r];
		for (size_t i = 0; i < t->n; i++) {
			struct fci_case k = { .c = &t->v[i], .count = t->v[i].c, .status = fn_case_status(&t->v[i].c),
					      .change = fci_change(fn, t->run, &t->v[i]) };
			each(ctx, r, &k);
		}
		for (size_t i = 0; i < base->n; i++)
			if (!fn_run_find(t, base->v[i].suite_case, base->v[i].test, base->v[i].name)) {
				struct fci_case k = { .c = &base->v[i], .status = "absent",
						      .change = fci_change(fn, t->run, &base->v[i]) };
				each(ctx, r, &k);
			}
	}
}

struct fci_tally {
	size_t n, failures, skipped;
};

static bool fci_failed(const struct fci_case *k)
{
	return k->count.fail > 0;
}

static bool fci_skipped(const struct fci_case *k)
{
	return !k->count.fail && !k->count.pass;
}

static void fci_tally_one(void *ctx, size_t r, const struct fci_case *k)
{
	struct fci_tally *t = ctx;
	(void)r;
	t->n++;
	t->failures += fci_failed(k);
	t->skipped += fci_skipped(k);
}

size_t functional_ci_count(const struct functional *fn, size_t *failures, size_t *skipped)
{
	struct fci_tally t = { 0 };
	fci_each(fn, fci_tally_one, &t);
	*failures = t.failures;
	*skipped = t.skipped;
	return t.n;
}

/* "regression: passed 3 of 3 before, failed 1 of 3 after: REASON", or
 * for a case compare made nothing of, its count and reason alone. */
static char *fci_message(const struct fci_case *k)
{
	const struct fn_count *c = &k->count;
	char what[96];
	if (!c->n)
		snprintf(what, sizeof(what), "not run here (the base ran it)");
	else if (c->fail)
		snprintf(what, sizeof(what), "failed %u of %u iteration%s", c->fail, c->n, c->n == 1 ? "" : "s");
	else if (c->pass)
		snprintf(what, sizeof(what), "passed %u of %u iteration%s", c->pass, c->n, c->n == 1 ? "" : "s");
	else
		snprintf(what, sizeof(what), "skipped in %u of %u iteration%s", c->skip, c->n, c->n == 1 ? "" : "s");
	const char *reason = c->n ? k->c->reason : NULL;
	if (k->change)
		return xasprintf("%s: %s (before: %u of %u passed)%s%s", fn_kind_name(k->change->kind), what,
				 k->change->before.pass, k->change->before.n, reason ? ": " : "", reason ? reason : "");
	return xasprintf("%s%s%s", what, reason ? ": " : "", reason ? reason : "");
}

/* ---- JUnit ---- */

struct fci_out {
	FILE *f;
	char *const *labels;
	size_t n;
};

static void fci_junit_one(void *ctx, size_t r, const struct fci_case *k)
{
	struct fci_out *o = ctx;
	FILE *f = o->f;
	char *msg = fci_message(k);
	fputs("<testcase classname=\"kselftest.", f);
	xml_escape(f, k->c->suite_case);
	fputc('.', f);
	xml_escape(f, k->c->test);
	fputs("\" name=\"", f);
	xml_escape(f, k->c->name);
	fputs(" (", f);
	xml_escape(f, o->labels[r]);
	fprintf(f, ")\" time=\"%.3f\">", k->count.n ? (double)k->c->time_ns / 1e9 : 0.0);
	if (fci_failed(k) || fci_skipped(k)) {
		fprintf(f, "<%s message=\"", fci_failed(k) ? "failure" : "skipped");
		xml_escape(f, msg);
		fputs("\"/>", f);
	} else {
		fputs("<system-out>", f);
		xml_escape(f, msg);
		fputs("</system-out>", f);
	}
	fputs("</testcase>\n", f);
	free(msg);
}

void functional_write_junit(FILE *f, const struct functional *fn, char *const *labels)
{
	size_t fail = 0, skip = 0, n = functional_ci_count(fn, &fail, &skip);
	if (!n)
		return;
	fprintf(f, "<testsuite name=\"vmregress compare: kernel selftests\" tests=\"%zu\" failures=\"%zu\" "
		   "errors=\"0\" skipped=\"%zu\">\n", n, fail, skip);
	if (fn->versions) {
		fputs("<properties><property name=\"selftests-differ\" value=\"", f);
		xml_escape(f, fn->versions);
		fputs("\"/></properties>\n", f);
	}
	struct fci_out o = { .f = f, .labels = labels };
	fci_each(fn, fci_junit_one, &o);
	fputs("</testsuite>\n", f);
}

/* ---- TAP ---- */

/* TAP's description may not hold '#', which starts a directive. */
static void fci_tap_text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == '#' ? '+' : *s == '\n' ? ' ' : *s, f);
}

static void fci_tap_one(void *ctx, size_t r, const struct fci_case *k)
{
	struct fci_out *o = ctx;
	FILE *f = o->f;
	char *msg = fci_message(k);
	fprintf(f, "%s %zu - kselftest ", fci_failed(k) ? "not ok" : "ok", ++o->n);
	fci_tap_text(f, k->c->suite_case);
	fputc('/', f);
	fci_tap_text(f, k->c->test);
	fputs(": ", f);
	fci_tap_text(f, k->c->name);
	fputs(" (", f);
	fci_tap_text(f, o->labels[r]);
	fputs(")", f);
	if (fci_skipped(k)) {
		fputs(" # SKIP ", f);
		fci_tap_text(f, msg);
	} else {
		fputs(": ", f);
		fci_tap_text(f, msg);
	}
	fputc('\n', f);
	free(msg);
}

void functional_write_tap(FILE *f, const struct functional *fn, char *const *labels, size_t *n)
{
	struct fci_out o = { .f = f, .labels = labels, .n = *n };
	fci_each(fn, fci_tap_one, &o);
	*n = o.n;
}
