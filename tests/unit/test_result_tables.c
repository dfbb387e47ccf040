/* A result's metrics, tables, series and histograms read straight from their text
 * (result_from_text_parts, as the store reads them for the report) hold
 * the very doubles, names and columns that reading them through JSON
 * values gives: every kind of number JSON allows, names with escapes, and
 * shapes the text readers leave to JSON values (a null cell, keys in
 * another order); a malformed table is refused as JSON values refuse it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"
#include "t.h"

/* The tables of text read both ways: the same, cell for cell (bits). */
static bool same_both_ways(const char *tables)
{
	char *whole = xasprintf("{\"workload\":\"w\",\"outcome\":\"pass\",\"metrics\":[],\"tables\":%s}", tables);
	json_t *j = json_loads(whole, 0, NULL);
	struct result a = { 0 }, b = { 0 };
	const char *why = NULL;
	int ra = j ? result_from_json_parts(j, RESULT_METRICS | RESULT_TABLES, &a, &why) : -1;
	int rb = result_from_text_parts(whole, strlen(whole), RESULT_METRICS | RESULT_TABLES, &b, &why);
	bool same = (ra == 0) == (rb == 1) && a.ntables == b.ntables;
	for (size_t t = 0; same && t < a.ntables; t++) {
		const struct table *x = &a.tables[t], *y = &b.tables[t];
		same = !strcmp(x->name, y->name) && x->ncols == y->ncols && x->nrows == y->nrows;
		for (size_t c = 0; same && c < x->ncols; c++)
			same = !strcmp(x->cols[c], y->cols[c]);
		for (size_t k = 0; same && k < x->nrows * x->ncols; k++)
			same = !memcmp(&x->cells[k], &y->cells[k], sizeof(double));
	}
	json_decref(j);
	result_free(&a);
	result_free(&b);
	free(whole);
	return same;
}

/* The same for series. */
static bool same_series(const char *series)
{
	char *whole = xasprintf("{\"workload\":\"w\",\"outcome\":\"pass\",\"metrics\":[],\"tables\":[],"
				"\"series\":%s}", series);
	json_t *j = json_loads(whole, 0, NULL);
	struct result a = { 0 }, b = { 0 };
	const char *why = NULL;
	int ra = j ? result_from_json_parts(j, RESULT_TABLES | RESULT_SERIES, &a, &why) : -1;
	int rb = result_from_text_parts(whole, strlen(whole), RESULT_METRICS | RESULT_TABLES | RESULT_SERIES, &b, &why);
	bool same = (ra == 0) == (rb == 1) && a.nseries == b.nseries;
	for (size_t k = 0; same && k < a.nseries; k++) {
		const struct series *x = &a.series[k], *y = &b.series[k];
		same = !strcmp(x->name, y->name) && !strcmp(x->unit, y->unit) && x->n == y->n;
		for (size_t i = 0; same && i < x->n; i++)
			same = !memcmp(&x->t[i], &y->t[i], sizeof(double)) && !memcmp(&x->v[i], &y->v[i], sizeof(double));
	}
	json_decref(j);
	result_free(&a);
	result_free(&b);
	free(whole);
	return same;
}

/* The same for histograms. */
static bool same_hists(const char *hists)
{
	char *whole = xasprintf("{\"workload\":\"w\",\"outcome\":\"pass\",\"metrics\":[],\"hists\":%s}", hists);
	json_t *j = json_loads(whole, 0, NULL);
	struct result a = { 0 }, b = { 0 };
	const char *why = NULL;
	int ra = j ? result_from_json_parts(j, RESULT_HISTS, &a, &why) : -1;
	int rb = result_from_text_parts(whole, strlen(whole), RESULT_HISTS, &b, &why);
	bool same = (ra == 0) == (rb == 1) && a.nhists == b.nhists;
	for (size_t k = 0; same && k < a.nhists; k++)
		same = !strcmp(a.hists[k].name, b.hists[k].name) && !strcmp(a.hists[k].unit, b.hists[k].unit) &&
		       !memcmp(a.hists[k].h, b.hists[k].h, sizeof(struct hist));
	json_decref(j);
	result_free(&a);
	result_free(&b);
	free(whole);
	return same;
}

/* The same for metrics (their old spellings renamed as JSON values read
 * them). */
static bool same_metrics(const char *metrics)
{
	char *whole = xasprintf("{\"workload\":\"w\",\"outcome\":\"pass\",\"metrics\":%s}", metrics);
	json_t *j = json_loads(whole, 0, NULL);
	struct result a = { 0 }, b = { 0 };
	const char *why = NULL;
	int ra = j ? result_from_json_parts(j, RESULT_METRICS, &a, &why) : -1;
	int rb = result_from_text_parts(whole, strlen(whole), RESULT_METRICS, &b, &why);
	bool same = (ra == 0) == (rb == 1) && a.nmetrics == b.nmetrics;
	for (size_t k = 0; same && k < a.nmetrics; k++)
		same = !strcmp(a.metrics[k].name, b.metrics[k].name) && !strcmp(a.metrics[k].unit, b.metrics[k].unit) &&
		       a.metrics[k].better == b.metrics[k].better && a.metrics[k].combine == b.metrics[k].combine &&
		       !memcmp(&a.metrics[k].value, &b.metrics[k].value, sizeof(double));
	json_decref(j);
	result_free(&a);
	result_free(&b);
	free(whole);
	return same;
}

int main(void)
{
	static const char *const numbers[] = {
		"0", "-0", "0.0", "-0.0", "7", "-12", "20480.0", "24031117036953.0", "47210.22289297856",
		"0.1", "0.30000000000000004", "123456789012345", "1234567890123456", "123456789012345678",
		"9007199254740993", "9007199254740993.0", "1e3", "1E-7", "-2.5e+300", "4.9e-324", "1.7976931348623157e308",
		"0.000000000000000000000001", "3.14159265358979323846", "100000000000000000000000.0", "1.5",
		"0.3", "0.7", "123456.789", "3.3333", "-8.589973", "2.675",
	};
	for (size_t i = 0; i < ARRAY_SIZE(numbers); i++) {
		char *t = xasprintf("[{\"name\":\"n\",\"cols\":[\"x\",\"y\"],\"rows\":[[1,%s],[%s,2.0]]}]", numbers[i],
				    numbers[i]);
		CHECK(same_both_ways(t), "%s reads to the same double both ways", numbers[i]);
		free(t);
		t = xasprintf("[{\"name\":\"s\",\"unit\":\"u\",\"t\":[0.5,%s],\"v\":[%s,-1]}]", numbers[i], numbers[i]);
		CHECK(same_series(t), "%s reads to the same double both ways in a series", numbers[i]);
		free(t);
		t = xasprintf("[{\"name\":\"m\",\"unit\":\"ns\",\"better\":\"lower\",\"combine\":\"amean\",\"value\":%s}]",
			      numbers[i]);
		CHECK(same_metrics(t), "%s reads to the same double both ways as a metric", numbers[i]);
		free(t);
	}
	CHECK(same_both_ways("[]"), "no tables");
	CHECK(same_both_ways("[{\"name\":\"e\",\"cols\":[\"a\"],\"rows\":[]},{\"name\":\"f\",\"cols\":[\"b\",\"c\"],"
			     "\"rows\":[[1.25,2],[3,4]]}]"),
	      "two tables, one without rows");
	CHECK(same_both_ways("[ { \"name\" : \"s p\\\"q\\u00e9\" , \"cols\" : [ \"a\\\\\" , \"b]\" ] , \"rows\" : "
			     "[ [ 1 , 2 ] ] } ]"),
	      "white space, and escapes and brackets in the name and columns");
	CHECK(same_both_ways("[{\"name\":\"z\",\"cols\":[\"a\",7],\"rows\":[[null,1]]}]"),
	      "a column that is no string and a null cell: as JSON values read them");
	CHECK(same_both_ways("[{\"cols\":[\"a\"],\"name\":\"o\",\"rows\":[[1]]}]"), "keys in another order");
	CHECK(same_both_ways("[{\"name\":\"w\",\"cols\":[\"a\",\"b\"],\"rows\":[[1]]}]"), "a short row is refused both ways");
	CHECK(same_both_ways("[{\"name\":\"w\",\"cols\":[\"a\"],\"rows\":[[01]]}]"), "a number JSON refuses, refused both ways");
	CHECK(same_both_ways("[{\"name\":\"w\",\"cols\":[\"a\"],\"rows\":[[12345678901234567890123]]}]"),
	      "an integer past 64 bits, refused both ways");
	CHECK(same_series("[]") && same_series("[{\"name\":\"a\",\"unit\":\"\",\"t\":[],\"v\":[]},{\"name\":\"a\","
			  "\"unit\":\"x\",\"t\":[1],\"v\":[2]},{\"name\":\"b\\u00e9\",\"unit\":\"s\",\"t\":[1,2],\"v\":[3,4]}]"),
	      "series: none, an empty one, a name twice, escapes");
	CHECK(same_series("[{\"unit\":\"u\",\"name\":\"k\",\"v\":[1],\"t\":[2]}]") &&
	      same_series("[{\"name\":\"n\",\"unit\":\"u\",\"t\":[null],\"v\":[1]}]"),
	      "series with keys in another order, a null value: as JSON values read them");
	CHECK(same_series("[{\"name\":\"n\",\"unit\":\"u\",\"t\":[1,2],\"v\":[1]}]") &&
	      same_series("[{\"name\":\"n\",\"t\":[1],\"v\":[1]}]"),
	      "series of unequal lengths, or without a unit: refused both ways");
	CHECK(same_hists("[]") &&
	      same_hists("[{\"name\":\"fault-latency\",\"unit\":\"ns\",\"hist\":{\"count\":5,\"sum\":9000,\"min\":3,"
			 "\"max\":8000,\"buckets\":[[3,1],[130,2],[900,1],[7423,1]]}},{\"name\":\"e\",\"unit\":\"\","
			 "\"hist\":{\"count\":0,\"sum\":0,\"min\":0,\"max\":0,\"buckets\":[]}}]"),
	      "histograms, one of them empty, read the same both ways");
	CHECK(same_hists("[{\"name\":\"a\",\"unit\":\"ns\",\"hist\":{\"count\":2,\"sum\":4,\"min\":1,\"max\":3,"
			 "\"buckets\":[[1,1],[3,2]]}}]") &&
	      same_hists("[{\"name\":\"a\",\"unit\":\"ns\",\"hist\":{\"count\":1,\"sum\":4,\"min\":1,\"max\":3,"
			 "\"buckets\":[[7424,1]]}}]") &&
	      same_hists("[{\"name\":\"a\",\"unit\":\"ns\",\"hist\":{\"count\":1.5,\"sum\":4,\"min\":1,\"max\":3,"
			 "\"buckets\":[[1,1]]}}]"),
	      "counts that do not add up, a bucket past the last, a count not an integer: refused both ways");
	CHECK(same_hists("[{\"unit\":\"ns\",\"name\":\"a\",\"hist\":{\"sum\":4,\"count\":1,\"min\":4,\"max\":4,"
			 "\"buckets\":[[4,1]]}}]"),
	      "keys in another order: as JSON values read them");
	CHECK(same_metrics("[]") &&
	      same_metrics("[{\"name\":\"alloc-rate\",\"unit\":\"bytes/s\",\"better\":\"higher\",\"combine\":\"hmean\","
			   "\"value\":5e9},{\"name\":\"t\",\"unit\":\"ns\",\"better\":\"none\",\"combine\":\"amean\","
			   "\"value\":1},{\"name\":\"t\",\"unit\":\"ns\",\"better\":\"lower\",\"combine\":\"amean\","
			   "\"value\":2}]"),
	      "metrics: an old spelling renamed, a name twice, as JSON values read them");
	CHECK(same_metrics("[{\"name\":\"m\",\"unit\":\"\",\"better\":\"up\",\"combine\":\"amean\",\"value\":1}]") &&
	      same_metrics("[{\"name\":\"m\",\"unit\":\"\",\"better\":\"lower\",\"combine\":\"amean\",\"value\":null}]") &&
	      same_metrics("[{\"value\":3,\"name\":\"m\",\"unit\":\"\",\"better\":\"lower\",\"combine\":\"amean\"}]"),
	      "an unknown better, a null value refused both ways; keys in another order read as JSON values read them");
	struct result r = { 0 };
	const char *why = NULL;
	const char *one = "{\"workload\":\"w\",\"outcome\":\"fail\",\"metrics\":[{\"name\":\"m\",\"unit\":\"\","
			  "\"better\":\"lower\",\"combine\":\"amean\",\"value\":1}],\"tables\":[{\"name\":\"t\","
			  "\"cols\":[\"a\"],\"rows\":[[2.5]]}]}";
	CHECK(result_from_text_parts(one, strlen(one), RESULT_TABLES, &r, &why) == 1 && !strcmp(r.workload, "") &&
	      r.outcome == OUTCOME_PASS && !r.nmetrics && r.ntables == 1 && r.tables[0].cells[0] == 2.5,
	      "the tables alone: the head left empty, unread");
	result_free(&r);
	const char *bad = "{\"workload\":\"w\",\"outcome\":\"pass\",\"metrics\":[],\"tables\":[{\"name\":1}]}";
	CHECK(result_from_text_parts(bad, strlen(bad), RESULT_TABLES, &r, &why) == -1 && why &&
	      !strcmp(why, "malformed tables") && !r.ntables,
	      "a malformed table is refused, and says so (%s)", why ? why : "no reason");
	T_DONE();
}
