/* A run read with only the parts of its results a reader needs
 * (store_load_run_parts) holds the same metrics, outcomes and reasons as
 * the whole run, gets the same info when a statistic asks for it, its
 * detail when a case's graphs ask for it, and compares exactly as the
 * whole run does: JSON byte for byte. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "report/compare_fmt.h"
#include "report/run_json.h"
#include "stats/compare.h"
#include "store/store.h"
#include "t.h"
#include "trun.h"

#define FIXTURES "tests/fixtures/runs/"

static char *compare_json_text(const struct run *a, const struct run *b)
{
	const struct run *runs[] = { a, b };
	struct comparison cmp = { 0 };
	compare_runs(runs, 2, &(struct compare_opts){ .alpha = 0.05 }, &cmp);
	json_t *j = compare_to_json(&cmp);
	char *text = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_decref(j);
	compare_free(&cmp);
	return text;
}

/* Every iteration's metrics, outcome and reason as the whole run's; no
 * detail and no info held before anyone asks. */
static bool same_heads(const struct run *whole, const struct run *part)
{
	bool same = whole->ncases == part->ncases;
	for (size_t c = 0; same && c < whole->ncases; c++) {
		const struct run_case *w = &whole->cases[c], *p = &part->cases[c];
		same = w->niter == p->niter && p->missing == (RESULT_INFO | RESULT_DETAIL);
		for (size_t i = 0; same && i < w->niter; i++) {
			const struct result *a = &w->iters[i], *b = &p->iters[i];
			same = a->outcome == b->outcome && a->nmetrics == b->nmetrics && !b->info && !b->nmaps &&
			       !b->nseries && !b->nhists && !b->ntables &&
			       !strcmp(a->reason ? a->reason : "", b->reason ? b->reason : "");
			for (size_t m = 0; same && m < a->nmetrics; m++)
				same = !strcmp(a->metrics[m].name, b->metrics[m].name) &&
				       !strcmp(a->metrics[m].unit, b->metrics[m].unit) &&
				       a->metrics[m].value == b->metrics[m].value;
		}
	}
	return same;
}

/* Each iteration's info read on demand is the whole run's. */
static bool same_infos(const struct run *whole, const struct run *part)
{
	bool same = true;
	for (size_t c = 0; same && c < whole->ncases; c++)
		for (size_t i = 0; same && i < whole->cases[c].niter; i++)
			same = json_equal(whole->cases[c].iters[i].info, run_iter_info(part, &part->cases[c], i));
	return same;
}

/* Read case by case one iteration at a time, each iteration's detail is
 * the whole one's (its info read on demand before), and the run held
 * keeps none of it. */
static bool same_details(struct store *st, const struct run *whole, struct run *part, size_t *with_detail)
{
	bool same = true;
	*with_detail = 0;
	for (size_t c = 0; same && c < whole->ncases; c++) {
		const struct run_case *pc = &part->cases[c];
		same = t_case_each_same(st, part, pc, &whole->cases[c], with_detail);
		for (size_t i = 0; same && i < pc->niter; i++)
			same = !pc->iters[i].nmaps && !pc->iters[i].nseries && !pc->iters[i].nhists &&
			       !pc->iters[i].ntables && pc->iters[i].nmetrics;
		same = same && (pc->missing & RESULT_DETAIL) == RESULT_DETAIL;
	}
	return same;
}

static void test_pick(void)
{
	const char *text = "{\"workload\":\"x\",\"outcome\":\"pass\",\"options\":{},\"info\":{\"a\":\"}\\\"\"},"
			   "\"metrics\":[],\"tables\":[],\"hists\":[],\"maps\":[{\"name\":\"m\",\"pages\":\"##\"}],"
			   "\"series\":[]}";
	json_t *j = NULL;
	CHECK(result_pick_text(text, strlen(text), RESULT_HEAD, &j) == 1 && json_object_size(j) == 5 &&
		      !strcmp(json_string_value(json_object_get(json_object_get(j, "info"), "a")), "}\""),
	      "the head picked past a brace and a quote inside a string");
	json_decref(j);
	CHECK(result_pick_text(text, 60, RESULT_HEAD, &j) == 0 && !j, "a prefix short of the metrics asks for more");
	CHECK(result_pick_text(text, strlen(text), RESULT_MAPS, &j) == 1 &&
		      json_array_size(json_object_get(j, "maps")) == 1 && !json_object_get(j, "info"),
	      "the maps alone");
	json_decref(j);
	CHECK(result_pick_text("[1]", 3, RESULT_HEAD, &j) == -1, "not an object is refused");
}

int main(void)
{
	test_pick();
	char dir[] = "/tmp/vmr-test-parts-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "temporary directory");
		T_DONE();
	}
	char *path = xasprintf("%s/results.db", dir);
	struct run *a = run_json_load(FIXTURES "pc3.json"), *b = run_json_load(FIXTURES "pc0.json");
	CHECK(a && b, "fixture runs load");
	struct store *st = NULL;
	int64_t ida = -1, idb = -1;
	if (a && b && store_open(&st, path, STORE_CREATE) == 0) {
		ida = t_store_put(st, a);
		idb = t_store_put(st, b);
	}
	CHECK(ida > 0 && idb > 0, "runs stored");
	struct run *wa = NULL, *wb = NULL, *pa = NULL, *pb = NULL;
	if (ida > 0 && idb > 0) {
		CHECK(store_load_run(st, ida, &wa) == 0 && store_load_run(st, idb, &wb) == 0, "whole runs loaded");
		CHECK(store_load_run_parts(st, ida, RESULT_METRICS, &pa) == 0 &&
			      store_load_run_parts(st, idb, RESULT_METRICS, &pb) == 0,
		      "runs loaded with their metrics alone");
	}
	if (wa && wb && pa && pb) {
		CHECK(same_heads(wa, pa) && same_heads(wb, pb), "metrics, outcomes and reasons as the whole runs'");
		char *whole = compare_json_text(wa, wb), *part = compare_json_text(pa, pb);
		CHECK(whole && part && !strcmp(whole, part), "compare's JSON byte for byte the whole runs'");
		free(whole);
		free(part);
		CHECK(same_infos(wa, pa) && same_infos(wb, pb), "each iteration's info read on demand is the same");
		size_t with = 0;
		CHECK(same_details(st, wa, pa, &with), "each case's detail read an iteration at a time, the same, none of it held");
		CHECK(with > 0, "the fixture's iterations have detail to load (%zu)", with);
	}
	run_free(wa);
	run_free(wb);
	run_free(pa);
	run_free(pb);
	run_free(a);
	run_free(b);
	store_close(st);
	char *rm = xasprintf("rm -rf %s", dir);
	CHECK(system(rm) == 0, "temporary store removed");
	free(rm);
	free(path);
	T_DONE();
}
