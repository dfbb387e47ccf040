/* A bisection's result as text and JSON: see bisect_fmt.h. */
#include "report/bisect_fmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/util.h"

static const char *const bisect_kinds[] = { "means", "reciprocals of rates", "ranks" };

static const char *bisect_fmt_value(char *buf, size_t len, const struct bisect_result *r, double v)
{
	return units_format_value(buf, len, v, r->unit ? r->unit : "");
}

static void bisect_fmt_pct(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "?");
	else if (p < 0.001)
		snprintf(buf, len, "%.2g%%", p * 100);
	else
		snprintf(buf, len, "%.2f%%", p * 100);
}

char *bisect_nothing_line(const struct bisect_result *r)
{
	char mde[32] = "?";

	if (r->end == BISECT_NO_DIFFERENCE) {
		if (!isnan(r->mde))
			snprintf(mde, sizeof(mde), "%.3g", r->mde * 100);
		return xasprintf("nothing to bisect: good and bad do not differ on %s (could have seen >= %s%%; "
				 "compare calls it %s)", r->metric, mde, r->verdict ? r->verdict : "missing");
	}
	if (r->end == BISECT_NO_TEST)
		return xasprintf("nothing to bisect at alpha %g: %s (more --references iterations, or a larger "
				 "--alpha)", r->alpha, r->why ? r->why : "");
	return NULL;
}

static void bisect_text_answer(FILE *f, const struct bisect_result *r)
{
	char b[32];
	const struct bisect_candidate *c = r->cands;

	bisect_fmt_pct(b, sizeof(b), r->bound);
	if (r->end == BISECT_READY) {
		fprintf(f, "ready: good and bad differ; each step of git bisect run:\n"
			"  vmregress bisect run --kernel arch/x86/boot/bzImage --reference %s\n", r->name);
		return;
	}
	if (r->end == BISECT_GIT)
		fprintf(f, "the first bad is the commit git bisect names from these steps\n");
	else if (r->end == BISECT_FOUND)
		fprintf(f, "first bad: #%zu %s\nlast good: #%zu %s\n", r->first_bad + 1, c[r->first_bad].line,
			r->last_good + 1, c[r->last_good].line);
	else
		fprintf(f, "%s: the first bad is one of #%zu..#%zu (last good #%zu %s, bad #%zu %s)\n",
			r->end == BISECT_RANGE ? "only skipped candidates left" : "the budget ran out", r->last_good + 2,
			r->first_bad + 1, r->last_good + 1, c[r->last_good].line, r->first_bad + 1,
			c[r->first_bad].line);
	fprintf(f, "chance this answer is wrong: at most %s (confirmation q ", b);
	bisect_fmt_pct(b, sizeof(b), r->q);
	size_t decided = 0;
	for (size_t k = 0; k < r->nsteps; k++)
		decided += r->steps[k].decision != SPRT_UNDECIDED;
	fprintf(f, "%s, references alpha %g, %zu decided step%s at %.3g each)\n", b, r->alpha, decided,
		decided == 1 ? "" : "s", sprt_step_bound(r->alpha));
}

/* The counters that explain the metric, beside a step or a reference. */
static void bisect_text_explain(FILE *f, const struct bisect_result *r, const double *means)
{
	char v[32];

	for (size_t k = 0; k < r->nexplain; k++)
		fprintf(f, "%s%s %s", k ? ", " : "       beside it: ", r->explain[k],
			units_format_value(v, sizeof(v), means[k], ""));
	if (r->nexplain)
		fputc('\n', f);
}

static void bisect_text_ref(FILE *f, const struct bisect_result *r, const char *role, const struct bisect_ref *ref)
{
	char m[32], lo[32], hi[32];

	fprintf(f, "  %-4s #%-3zu %s  %s [%s, %s]  %zu iterations\n", role, ref->cand + 1, r->cands[ref->cand].line,
		bisect_fmt_value(m, sizeof(m), r, ref->fig.centre), bisect_fmt_value(lo, sizeof(lo), r, ref->fig.lo),
		bisect_fmt_value(hi, sizeof(hi), r, ref->fig.hi), ref->fig.n);
	bisect_text_explain(f, r, ref->explain);
}

static void bisect_text_step(FILE *f, const struct bisect_result *r, size_t k, const struct bisect_step *s)
{
	char m[32], lo[32], hi[32], b[32] = "-";

	if (s->decision != SPRT_UNDECIDED)
		bisect_fmt_pct(b, sizeof(b), s->bound);
	char t[32] = "";
	if (isfinite(s->elapsed_s))
		snprintf(t, sizeof(t), "  %.0fs", s->elapsed_s);
	fprintf(f, "  %2zu  #%-3zu %-9s %5zu %5zu  %s [%s, %s]  error <= %s%s\n", k + 1, s->cand + 1,
		s->skip ? "skipped" : sprt_decision_name(s->decision), s->iterations, s->boots,
		bisect_fmt_value(m, sizeof(m), r, s->fig.centre), bisect_fmt_value(lo, sizeof(lo), r, s->fig.lo),
		bisect_fmt_value(hi, sizeof(hi), r, s->fig.hi), b, t);
	fprintf(f, "       %s\n", r->cands[s->cand].line);
	bisect_text_explain(f, r, s->explain);
	if (s->skip)
		fprintf(f, "       skipped: %s\n", s->skip);
}

void bisect_text(FILE *f, const struct bisect_result *r)
{
	char *nothing = bisect_nothing_line(r);

	fprintf(f, "bisect %s: %s, %s on case %s (%s, alpha %g)%s\n", r->name, r->metric,
		bisect_kinds[r->test.kind], r->case_name, bisect_end_name(r->end), r->alpha,
		r->emulated ? "; emulated guests: times mean little, counters hold" : "");
	if (nothing)
		fprintf(f, "%s\n", nothing);
	else
		bisect_text_answer(f, r);
	free(nothing);
	fprintf(f, "references (%s, 95%% interval):\n", r->test.kind == SPRT_RANKS ? "median" : "mean");
	bisect_text_ref(f, r, "good", &r->good);
	bisect_text_ref(f, r, "bad", &r->bad);
	fprintf(f, "  bad against good: %+.1f%%, %s (q %.3g; the smallest change it could see: %.3g%%)\n",
		r->change_pct, r->verdict ? r->verdict : "missing", r->q, r->mde * 100);
	if (r->nsteps)
		fprintf(f, "steps:\n  %2s  %-4s %-9s %5s %5s  %s\n", "", "cand", "decision", "iters", "boots",
			"figure [95% interval]");
	for (size_t k = 0; k < r->nsteps; k++)
		bisect_text_step(f, r, k, &r->steps[k]);
	if (r->elapsed_s > 0)
		fprintf(f, "total time %.0fs; ", r->elapsed_s);
	fprintf(f, "stored as group %s (vmregress bisect show %s, list, compare %s, report %s)\n", r->name, r->name,
		r->name, r->name);
}

static json_t *bisect_json_cand(const struct bisect_result *r, size_t i)
{
	const struct bisect_candidate *c = &r->cands[i];
	return json_pack("{s:i, s:s, s:s, s:s?}", "index", (json_int_t)(i + 1), "line", c->line, "kernel", c->kernel,
			 "append", c->append);
}

static json_t *bisect_json_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *bisect_json_fig(const struct bisect_figure *g)
{
	return json_pack("{s:i, s:o, s:o, s:o}", "n", (json_int_t)g->n, "centre", bisect_json_num(g->centre), "low",
			 bisect_json_num(g->lo), "high", bisect_json_num(g->hi));
}

static json_t *bisect_json_explain(const struct bisect_result *r, const double *means)
{
	json_t *j = json_object();
	for (size_t k = 0; k < r->nexplain; k++)
		json_object_set_new(j, r->explain[k], bisect_json_num(means[k]));
	return j;
}

static json_t *bisect_json_ref(const struct bisect_result *r, const struct bisect_ref *ref)
{
	json_t *v = json_array();
	for (size_t i = 0; i < ref->fig.n; i++)
		json_array_append_new(v, json_real(ref->values[i]));
	return json_pack("{s:o, s:o, s:o, s:I, s:o}", "candidate", bisect_json_cand(r, ref->cand), "figure",
			 bisect_json_fig(&ref->fig), "values", v, "run_id", (json_int_t)ref->run_id, "explain",
			 bisect_json_explain(r, ref->explain));
}

static json_t *bisect_json_step(const struct bisect_result *r, const struct bisect_step *s)
{
	json_t *runs = json_array();
	for (size_t i = 0; i < s->nruns; i++)
		json_array_append_new(runs, json_integer(s->run_ids[i]));
	json_t *j = json_pack("{s:o, s:s, s:i, s:i, s:i, s:o, s:o, s:o, s:o, s:o}", "candidate",
			      bisect_json_cand(r, s->cand), "decision", s->skip ? "skipped" : sprt_decision_name(s->decision),
			      "iterations",
			      (json_int_t)s->iterations, "measured", (json_int_t)s->measured, "boots",
			      (json_int_t)s->boots, "figure", bisect_json_fig(&s->fig), "llr", bisect_json_num(s->llr),
			      "error_bound", bisect_json_num(s->bound), "elapsed_s", bisect_json_num(s->elapsed_s), "runs", runs);
	json_object_set_new(j, "skipped", s->skip ? json_string(s->skip) : json_null());
	json_object_set_new(j, "explain", bisect_json_explain(r, s->explain));
	return j;
}

static json_t *bisect_json_test(const struct bisect_result *r)
{
	const struct sprt *t = &r->test;
	json_t *j = json_pack("{s:s, s:f, s:f}", "kind", t->kind == SPRT_RANKS ? "ranks" : t->kind == SPRT_RECIPROCALS
			      ? "reciprocals" : "means", "threshold", t->upper, "step_error_bound",
			      sprt_step_bound(r->alpha));
	if (t->kind == SPRT_RANKS)
		json_object_set_new(j, "hypotheses", json_pack("{s:o, s:o, s:o}", "cut", bisect_json_num(t->sign * t->cut),
			"p_good", bisect_json_num(t->p_good), "p_bad", bisect_json_num(t->p_bad)));
	else
		json_object_set_new(j, "hypotheses", json_pack("{s:o, s:o, s:o}", "good", bisect_json_num(t->sign * t->mu_good),
			"bad", bisect_json_num(t->sign * t->mu_bad), "sigma", bisect_json_num(t->sigma)));
	return j;
}

json_t *bisect_json(const struct bisect_result *r)
{
	bool answer = r->end == BISECT_FOUND || r->end == BISECT_RANGE || r->end == BISECT_BUDGET;
	bool bound = answer || r->end == BISECT_GIT;
	json_t *steps = json_array(), *skipped = json_array();
	char *nothing = bisect_nothing_line(r);

	for (size_t k = 0; k < r->nsteps; k++) {
		json_array_append_new(steps, bisect_json_step(r, &r->steps[k]));
		if (r->steps[k].skip)
			json_array_append_new(skipped, bisect_json_cand(r, r->steps[k].cand));
	}
	json_t *j = json_pack("{s:s, s:s?, s:s, s:s, s:s, s:f, s:s, s:b, s:b}", "name", r->name, "group", r->group_uuid,
			      "case", r->case_name, "metric", r->metric, "unit", r->unit ? r->unit : "", "alpha",
			      r->alpha, "end", bisect_end_name(r->end), "found", r->end == BISECT_FOUND, "emulated",
			      r->emulated);
	json_object_set_new(j, "first_bad", answer ? bisect_json_cand(r, r->first_bad) : json_null());
	json_object_set_new(j, "last_good", answer ? bisect_json_cand(r, r->last_good) : json_null());
	json_object_set_new(j, "error_bound", bound ? bisect_json_num(r->bound) : json_null());
	json_object_set_new(j, "reason", nothing ? json_string(nothing) : json_null());
	json_object_set_new(j, "confirmation", json_pack("{s:b, s:s, s:o, s:o, s:o}", "differ", r->differ, "verdict",
		r->verdict ? r->verdict : "missing", "change_pct", bisect_json_num(r->change_pct), "q",
		bisect_json_num(r->q), "mde", bisect_json_num(r->mde)));
	json_object_set_new(j, "references", json_pack("{s:o, s:o}", "good", bisect_json_ref(r, &r->good), "bad",
		bisect_json_ref(r, &r->bad)));
	json_object_set_new(j, "test", bisect_json_test(r));
	json_object_set_new(j, "steps", steps);
	json_object_set_new(j, "skipped", skipped);
	json_object_set_new(j, "elapsed_s", json_real(r->elapsed_s));
	free(nothing);
	return j;
}
