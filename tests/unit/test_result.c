/* A result survives the JSON round trip whole: it is how a child hands its
 * result to the runner, how the store keeps it and how a guest sends it. */
#include <stdlib.h>

#include "core/result.h"
#include "t.h"

int main(void)
{
	struct result r = { 0 }, back = { 0 };
	result_init(&r, "fault");
	result_metric(&r, "time-pass1", "ns", BETTER_LOWER, COMBINE_AMEAN, 1234.5);
	result_metric(&r, "faults-per-sec", "faults/s", BETTER_HIGHER, COMBINE_HMEAN, 1e6);
	result_metric(&r, "time-pass1", "ns", BETTER_LOWER, COMBINE_AMEAN, 99);
	CHECK(r.nmetrics == 2 && result_find_metric(&r, "time-pass1")->value == 99, "metric replaced, not duplicated");
	const char *cols[] = { "pass", "refd", "present", "time_ns" };
	struct table *t = result_table(&r, "passes", 4, cols);
	double row[] = { 0, 5850, 5850, 326e6 };
	table_add_row(t, row);
	row[0] = 1;
	table_add_row(t, row);
	struct hist *h = hist_new();
	hist_add(h, 1000);
	hist_add(h, 2000);
	result_hist(&r, "fault-latency", "ns", h);
	result_map(&r, "pass0", "##s..#", 6);
	struct series *s = result_series(&r, "pswpout", "pages");
	series_add(s, 0.0, 1);
	series_add(s, 0.5, 3);
	result_info_set(&r, "address", json_string("0x40156000"));
	result_set_outcome(&r, OUTCOME_FAIL, "page %d has wrong data", 17);
	result_set_outcome(&r, OUTCOME_ERROR, "later outcome");

	json_t *j = result_to_json(&r);
	const char *why;
	CHECK(result_from_json(j, &back, &why) == 0, "round trip parses");
	CHECK(back.outcome == OUTCOME_FAIL && !strcmp(back.reason, "page 17 has wrong data"), "first outcome kept");
	CHECK(back.nmetrics == 2 && result_find_metric(&back, "faults-per-sec")->better == BETTER_HIGHER &&
	      result_find_metric(&back, "faults-per-sec")->combine == COMBINE_HMEAN, "metrics keep direction and combine");
	CHECK(back.ntables == 1 && back.tables[0].nrows == 2 && back.tables[0].cells[1] == 5850, "table kept");
	CHECK(back.nhists == 1 && back.hists[0].h->count == 2, "histogram kept");
	CHECK(back.nmaps == 1 && !strcmp(back.maps[0].pages, "##s..#"), "map kept");
	CHECK(back.nseries == 1 && back.series[0].n == 2 && back.series[0].v[1] == 3, "series kept");
	CHECK_STR(json_string_value(json_object_get(back.info, "address")), "0x40156000", "info kept");
	json_decref(j);
	result_free(&back);

	/* Rows past every power of two keep their cells (tables grow by
	 * doubling, and a JSON round trip adds them one at a time). */
	struct result big = { 0 };
	result_init(&big, "mmap");
	const char *two[] = { "ref", "page" };
	struct table *bt = result_table(&big, "slow-accesses", 2, two);
	for (int i = 0; i < 5000; i++)
		table_add_row(bt, (double[]){ i, 3.0 * i });
	j = result_to_json(&big);
	CHECK(result_from_json(j, &back, &why) == 0, "a table of 5000 rows round-trips");
	bool same = back.ntables == 1 && back.tables[0].nrows == 5000;
	for (size_t i = 0; same && i < 5000; i++)
		same = back.tables[0].cells[2 * i] == (double)i && back.tables[0].cells[2 * i + 1] == 3.0 * (double)i &&
		       bt->cells[2 * i + 1] == 3.0 * (double)i;
	CHECK(same, "every row of a large table is kept in order");
	json_decref(j);
	result_free(&back);
	result_free(&big);

	json_t *bad = json_loads("{\"workload\":\"x\",\"outcome\":\"maybe\",\"options\":{},\"info\":{},\"metrics\":[],"
				 "\"tables\":[],\"hists\":[],\"maps\":[],\"series\":[]}", 0, NULL);
	CHECK(result_from_json(bad, &back, &why) < 0 && !strcmp(why, "unknown outcome"), "unknown outcome refused");
	json_decref(bad);
	bad = json_loads("{\"workload\":\"x\",\"outcome\":\"pass\",\"options\":{},\"info\":{},\"metrics\":[],"
			 "\"tables\":[{\"name\":\"t\",\"cols\":[\"a\",\"b\"],\"rows\":[[1]]}],\"hists\":[],\"maps\":[],\"series\":[]}", 0, NULL);
	CHECK(result_from_json(bad, &back, &why) < 0, "ragged table refused");
	json_decref(bad);
	result_free(&r);
	T_DONE();
}
