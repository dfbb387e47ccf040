/* A bisection drawn for the report: the references' bands, each step by
 * its decision with its interval, the first bad marked where it is; and
 * the text and JSON name candidates by their series lines. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/bisect_fmt.h"
#include "t.h"

static struct plot_line *find_line(const struct plot *p, const char *label)
{
	for (size_t i = 0; i < p->nlines; i++)
		if (!strcmp(p->lines[i]->label, label))
			return p->lines[i];
	return NULL;
}

int main(void)
{
	struct bisect_candidate c[5] = {
		{ .line = "k -- a=1", .kernel = "k", .append = "a=1" }, { .line = "k -- a=2", .kernel = "k", .append = "a=2" },
		{ .line = "k -- a=3", .kernel = "k", .append = "a=3" }, { .line = "k -- a=4", .kernel = "k", .append = "a=4" },
		{ .line = "k -- a=5", .kernel = "k", .append = "a=5" },
	};
	struct bisect_step steps[2] = {
		{ .cand = 2, .decision = SPRT_GOOD, .iterations = 1, .fig = { 1, 100, 90, 110 }, .bound = 0.0101 },
		{ .cand = 3, .decision = SPRT_BAD, .iterations = 2, .fig = { 2, 800, 700, 900 }, .bound = 0.0101 },
	};
	double gv[3] = { 95, 101, 107 }, bv[3] = { 780, 810, 840 };
	struct bisect_result r = {
		.name = "b", .case_name = "reread", .metric = "major-faults-reread", .unit = "faults", .cands = c,
		.ncands = 5, .alpha = 0.01, .good = { .cand = 0, .values = gv, .fig = { 3, 101, 95, 107 } },
		.bad = { .cand = 4, .values = bv, .fig = { 3, 810, 780, 840 } }, .differ = true, .verdict = "regressed", .q = 1e-4,
		.mde = 0.3, .steps = steps, .nsteps = 2, .end = BISECT_FOUND, .last_good = 2, .first_bad = 3,
		.bound = 0.032,
	};
	struct plot p;

	bisect_plot(&r, &p);
	const struct plot_line *gb = find_line(&p, "good reference, 95% interval");
	CHECK(gb && gb->n == 2 && gb->y[0] == 95 && gb->x[0] == 1 && gb->x[1] == 5,
	      "the good band runs along the whole series at its interval's low end");
	const struct plot_line *bb = find_line(&p, "bad reference, 95% interval");
	CHECK(bb && bb->n == 2 && bb->y[0] == 780, "the bad band is drawn");
	const struct plot_line *sg = find_line(&p, "steps: good"), *sb = find_line(&p, "steps: bad");
	CHECK(sg && sg->n == 1 && sg->x[0] == 3 && sg->y[0] == 100 && sg->e[0] == 10,
	      "the good step at its position with its interval");
	CHECK(sb && sb->n == 1 && sb->x[0] == 4, "the bad step at its position");
	const struct plot_line *fb = find_line(&p, "first bad");
	CHECK(fb && fb->n == 2 && fb->x[0] == 4 && fb->x[1] == 4 && fb->y[1] > 840, "the first bad is marked at #4");
	char *script = plot_script(&p);
	CHECK(script && strstr(script, "major-faults-reread along the series"), "the graph is titled by the metric");
	if (getenv("VMR_PLOT_OUT") && script) {
		FILE *f = fopen(getenv("VMR_PLOT_OUT"), "w");
		fputs(script, f);
		fclose(f);
	}
	free(script);
	plot_free(&p);

	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	bisect_text(m, &r);
	fclose(m);
	CHECK(strstr(text, "first bad: #4 k -- a=4\n") && strstr(text, "last good: #3 k -- a=3\n"),
	      "the text leads with the first bad and the last good, by their lines");
	CHECK(strstr(text, "chance this answer is wrong: at most 3.20%"), "the text states the bound");
	free(text);
	json_t *j = bisect_json(&r);
	CHECK_STR(json_string_value(json_object_get(json_object_get(j, "first_bad"), "line")), "k -- a=4",
		  "JSON names the first bad by its series line");
	CHECK(json_integer_value(json_object_get(json_object_get(j, "last_good"), "index")) == 3,
	      "and the last good by its position");
	CHECK_NEAR(json_real_value(json_object_get(j, "error_bound")), 0.032, 1e-12, "JSON carries the bound");
	CHECK(json_array_size(json_object_get(json_object_get(json_object_get(j, "references"), "bad"), "values")) == 3,
	      "JSON carries the references' values");
	json_decref(j);
	T_DONE();
}
