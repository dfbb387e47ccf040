/* One unit per metric name: a name two workloads (or a workload and the
 * harness) both use means one unit, so that compare never sets pages/s
 * against bytes/s under one name; and runs stored under the old names read
 * back under the new ones (core/spelling.h). */
#include <stdlib.h>

#include "core/result.h"
#include "core/rusage.h"
#include "core/spelling.h"
#include "t.h"
#include "workload/workload.h"

struct named_unit {
	const char *owner, *name, *unit;
};

/* Workloads whose metrics are families, a table name plus "-LABEL" per
 * folio size ("-64K", mthp) or task count ("-t2", pft, will-it-scale): a family's name
 * stands for every member. */
static bool family_member(const char *family, const char *name)
{
	size_t n = strlen(family);
	if (strncmp(name, family, n) || name[n] != '-')
		return false;
	const char *l = name + n + 1, *d = l + (*l == 't');
	size_t digits = strspn(d, "0123456789");
	return digits && (*l == 't' ? !d[digits] : d[digits] && strchr("KMG", d[digits]) && !d[digits + 1]);
}

static bool family_owner(const char *w)
{
	return !strcmp(w, "mthp") || !strcmp(w, "pft") || !strcmp(w, "will-it-scale") || !strcmp(w, "stutter");
}

static void units_agree(const struct named_unit *all, size_t n)
{
	size_t clashes = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++) {
			bool same = !strcmp(all[i].name, all[k].name);
			bool family = family_owner(all[i].owner) && family_member(all[i].name, all[k].name);
			family |= family_owner(all[k].owner) && family_member(all[k].name, all[i].name);
			if ((same || family) && strcmp(all[i].unit, all[k].unit)) {
				printf("    '%s' is %s in %s but '%s' is %s in %s\n", all[i].name, all[i].unit, all[i].owner,
				       all[k].name, all[k].unit, all[k].owner);
				clashes++;
			}
		}
	CHECK(clashes == 0, "every metric name has one unit over %zu metrics (%zu clashes)", n, clashes);
}

static void old_name_is(const char *old, const char *unit, const char *want)
{
	char buf[128];
	CHECK_STR(spelling_metric(old, unit, buf, sizeof(buf)), want, "stored '%s' in %s reads as '%s'", old, unit, want);
}

int main(void)
{
	struct named_unit all[512];
	size_t n = 0;
	for (const struct workload *const *w = workloads; *w; w++)
		for (const struct metric_def *d = (*w)->metrics; d && d->name && n < ARRAY_SIZE(all); d++)
			all[n++] = (struct named_unit){ (*w)->name, d->name, d->unit };
	struct result r = { 0 };
	result_init(&r, "harness");
	struct rusage ru = { 0 };
	rusage_metrics(&r, &ru, 1);
	for (size_t i = 0; i < r.nmetrics && n < ARRAY_SIZE(all); i++)
		all[n++] = (struct named_unit){ "the harness", r.metrics[i].name, r.metrics[i].unit };
	CHECK(n > 50 && r.nmetrics > 0, "the workloads' and the harness's metrics are all here (%zu)", n);
	units_agree(all, n);

	/* what older versions stored */
	old_name_is("alloc-rate", "bytes/s", "alloc-byte-rate");
	old_name_is("alloc-rate", "pages/s", "alloc-rate");
	old_name_is("faults-per-sec-64K", "pages/s", "faultin-per-sec-64K");
	old_name_is("faults-per-sec-t2", "faults/s", "faults-per-sec-t2");
	CHECK_STR(spelling_unit("ratio"), "x", "the unit 'ratio' reads as 'x'");
	json_t *old = json_loads("{\"workload\":\"mtest01\",\"outcome\":\"pass\",\"options\":{},"
				 "\"info\":{\"sandbox-after\":{\"peak_bytes\":5},\"trace-skipped\":{}},"
				 "\"metrics\":[{\"name\":\"alloc-rate\",\"unit\":\"bytes/s\",\"better\":\"higher\","
				 "\"combine\":\"hmean\",\"value\":7}],\"tables\":[],\"hists\":[],\"maps\":[],\"series\":[]}",
				 0, NULL);
	struct result back = { 0 };
	const char *why = NULL;
	CHECK(old && result_from_json(old, &back, &why) == 0, "an old result reads (%s)", why ? why : "ok");
	const struct metric *m = result_find_metric(&back, "alloc-byte-rate");
	CHECK(m && m->value == 7 && !strcmp(m->unit, "bytes/s") && !result_find_metric(&back, "alloc-rate"),
	      "under its new name only");
	CHECK(json_integer_value(json_object_get(json_object_get(back.info, "sandbox_after"), "peak_bytes")) == 5 &&
	      !json_object_get(back.info, "sandbox-after") && json_object_get(back.info, "trace_skipped"),
	      "its info keys in snake_case");
	for (const struct named_unit *u = all; u < all + n; u++)
		if (!strcmp(u->owner, "mtest01") && !strcmp(u->name, "alloc-byte-rate"))
			CHECK_STR(u->unit, "bytes/s", "the new name is mtest01's, in bytes/s");
	result_free(&back);
	json_decref(old);
	result_free(&r);
	T_DONE();
}
