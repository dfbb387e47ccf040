/* The workloads' own text layouts, one function each, found by the
 * workload's name in workload_texts[].  They live here rather than beside
 * the workloads because a workload only measures: everything a layout
 * prints is in the stored result (info set by the workload, its metrics,
 * its "passes" table and histograms), so `test` and anything that loads a
 * result back from the store print the same text. */
#include "report/workload_text.h"

#include <string.h>

#include "core/hist.h"
#include "core/units.h"
#include "core/util.h"
#include "report/kselftest_text.h"

/* An integer from obj (or r->info when obj is NULL); 0 when absent. */
static long long workload_text_int(const struct result *r, const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj ? obj : r->info, key);
	return json_is_integer(v) ? (long long)json_integer_value(v) : 0;
}

/* A metric's value, 0 when the result lacks it. */
static double workload_text_metric(const struct result *r, const char *name)
{
	const struct metric *m = result_find_metric(r, name);
	return m ? m->value : 0;
}

static const char *workload_text_str(const struct result *r, const char *key)
{
	const char *s = json_string_value(json_object_get(r->info, key));
	return s ? s : "?";
}

/* The result's "passes" table (the last of that name), or NULL. */
/* The last line of every layout, after a blank line when blank. */
static void workload_text_outcome(FILE *f, const struct result *r, bool blank)
{
	if (blank)
		fputc('\n', f);
	if (r->outcome == OUTCOME_PASS)
		fputs("Test completed successfully\n", f);
	else
		fprintf(f, "Test %s: %s\n", r->outcome == OUTCOME_FAIL ? "failed" : outcome_name(r->outcome),
			r->reason ? r->reason : "no reason given");
}

/* " o level low: ..." and the blank line that ends the section. */
static void workload_text_level_meaning(FILE *f, const struct result *r)
{
	const char *m = json_string_value(json_object_get(r->info, "level_meaning"));
	if (m)
		fprintf(f, " o %s\n", m);
	fputc('\n', f);
}

/* "Zone Starting Information" or "Sandbox Starting Information" from info
 * "start" and "sandboxed" (workload/level.c's level_info). */
static void workload_text_level_start(FILE *f, const struct result *r)
{
	const json_t *s = json_object_get(r->info, "start");
	if (json_is_true(json_object_get(r->info, "sandboxed"))) {
		fprintf(f, "Sandbox Starting Information\n"
			" o memcg->limit      = %lld pages\n o memcg->usage      = %lld pages\n"
			" o memcg->free_pages = %lld\n o swap->size        = %lld pages\n",
			workload_text_int(r, s, "limit_pages"), workload_text_int(r, s, "usage_pages"),
			workload_text_int(r, s, "free_pages"), workload_text_int(r, s, "swap_pages"));
		if (json_object_get(s, "low_pages"))
			fprintf(f, " o memcg->low        = %lld pages\n o memcg->high       = %lld pages\n",
				workload_text_int(r, s, "low_pages"), workload_text_int(r, s, "high_pages"));
		workload_text_level_meaning(f, r);
		return;
	}
	fprintf(f, "Zone Starting Information\n"
		" o zone->size       = %lld\n o zone->free_pages = %lld\n o zone->pages_high = %lld\n"
		" o zone->pages_low  = %lld\n o zone->pages_min  = %lld\n\n",
		workload_text_int(r, s, "size"), workload_text_int(r, s, "free_pages"),
		workload_text_int(r, s, "pages_high"), workload_text_int(r, s, "pages_low"),
		workload_text_int(r, s, "pages_min"));
	workload_text_level_meaning(f, r);
}

/* The seed's alloc.o. */
static void workload_text_alloc(FILE *f, const struct result *r)
{
	const char *title = json_string_value(json_object_get(r->info, "title"));
	fprintf(f, "%s Test Results.\n\n", title ? title : "test_alloc");
	if (json_object_get(r->info, "start")) {
		workload_text_level_start(f, r);
		fprintf(f, "Test Parameters\n o Passes:               %lld\n o Starting Free pages:  %lld\n"
			" o Free page limit:      %lld\n o Allocations per pass: %lld\n\n",
			workload_text_int(r, NULL, "passes"), workload_text_int(r, NULL, "starting_free"),
			workload_text_int(r, NULL, "free_limit"), workload_text_int(r, NULL, "pages"));
		fputs("Test Results (Pass Alloc Free)\n", f);
		for (size_t i = 0; i < r->ntables; i++) {
			const struct table *t = &r->tables[i];
			for (size_t k = 0; !strcmp(t->name, "passes") && k < t->nrows; k++) {
				char a[32], b[32];
				fprintf(f, "%-4.0f %10s %10s\n", table_get(t, k, "pass"),
					units_format_time(a, sizeof(a), (uint64_t)table_get(t, k, "alloc_ns")),
					units_format_time(b, sizeof(b), (uint64_t)table_get(t, k, "free_ns")));
			}
		}
		fprintf(f, "\nPost Test Information\n o Finishing Free pages: %lld\n o Failed allocations:   %lld\n\n",
			workload_text_int(r, NULL, "finishing_free"), workload_text_int(r, NULL, "failed_allocations"));
	}
	workload_text_outcome(f, r, false);
}

static void workload_text_fault_passes(FILE *f, const struct result *r)
{
	const struct table *t = result_find_table(r, "passes");
	fputs("Test Results (Pass Refd Present Time)\n", f);
	for (size_t i = 0; t && i < t->nrows; i++) {
		char tm[32];
		fprintf(f, "%-4.0f %9.0f %9.0f  %s\n", table_get(t, i, "pass"), table_get(t, i, "refd"),
			table_get(t, i, "present"), units_format_time(tm, sizeof(tm), (uint64_t)table_get(t, i, "time_ns")));
	}
	fputs("\nFault Information (Pass Swapped MajFlt MinFlt)\n", f);
	for (size_t i = 0; t && i < t->nrows; i++)
		fprintf(f, "%-4.0f %9.0f %9.0f %9.0f\n", table_get(t, i, "pass"), table_get(t, i, "swapped"),
			table_get(t, i, "major_faults"), table_get(t, i, "minor_faults"));
	const struct named_hist *h = result_find_hist(r, "fault-latency");
	if (h && h->h->count)
		fprintf(f, " o fault latency: p50 %.0fns p90 %.0fns p99 %.0fns p99.9 %.0fns max %lluns\n",
			hist_percentile(h->h, 50), hist_percentile(h->h, 90), hist_percentile(h->h, 99),
			hist_percentile(h->h, 99.9), (unsigned long long)h->h->max);
}

/* The seed's fault.o. */
static void workload_text_fault(FILE *f, const struct result *r)
{
	const char *title = json_string_value(json_object_get(r->info, "title"));
	const char *addr = json_string_value(json_object_get(r->info, "address"));
	fprintf(f, "%s Test Results.\n\n", title ? title : "test_fault");
	if (json_object_get(r->info, "start")) {
		workload_text_level_start(f, r);
		fprintf(f, "Mapped Area Information\n o address: %s\n o length:  %lld (%lld pages)\n\n"
			"Test Parameters\n o Passes:              %lld\n o Starting Free pages: %lld\n"
			" o Free page limit:     %lld\n o References:          %lld\n\n",
			addr ? addr : "?", workload_text_int(r, NULL, "length"), workload_text_int(r, NULL, "pages"),
			workload_text_int(r, NULL, "passes"), workload_text_int(r, NULL, "starting_free"),
			workload_text_int(r, NULL, "free_limit"), workload_text_int(r, NULL, "references"));
		workload_text_fault_passes(f, r);
		fprintf(f, "\nPost Test Information\n o Finishing Free pages: %lld\n o Schedule() calls:     %lld\n"
			" o Failed mappings:      %lld\n\n", workload_text_int(r, NULL, "finishing_free"),
			workload_text_int(r, NULL, "schedule_calls"), workload_text_int(r, NULL, "failed_mappings"));
	}
	workload_text_outcome(f, r, false);
}

static void workload_text_mmap_passes(FILE *f, const struct result *r)
{
	const struct table *t = result_find_table(r, "passes");
	if (table_col(t, "refs_per_sec") < 0)   /* not mmap's table */
		return;
	fprintf(f, "Pass %12s %14s %10s %10s %10s\n", "Time", "Refs/s", "Minor", "Major", "Slow");
	for (size_t j = 0; j < t->nrows; j++)
		fprintf(f, "%4.0f %10.0fms %14.0f %10.0f %10.0f %10.0f\n", table_get(t, j, "pass"),
			table_get(t, j, "time_ns") / 1e6, table_get(t, j, "refs_per_sec"), table_get(t, j, "minflt"),
			table_get(t, j, "majflt"), table_get(t, j, "slow"));
}

/* How the replay's accesses were timed, and how many were slow. */
static void workload_text_mmap_timing(FILE *f, const struct result *r)
{
	long long batch = workload_text_int(r, NULL, "timing_batch");
	long long bmax = workload_text_int(r, NULL, "timing_batch_max");
	long long nb = workload_text_int(r, NULL, "timing_batches");
	long long refs = workload_text_int(r, NULL, "references"), passes = workload_text_int(r, NULL, "passes");
	long long slow_ns = workload_text_int(r, NULL, "slow_threshold_ns");
	if (batch > 1)
		fprintf(f, "Timing:         %lld batches of %lld to %lld references (%.1f on average)\n"
			"Slow accesses:  %.0f batches (at least %lldns over their resident time; each kept with its "
			"first reference, page and faults)\n", nb, batch, bmax > batch ? bmax : batch,
			nb ? (double)refs * (double)passes / (double)nb : 0, workload_text_metric(r, "slow-accesses"),
			slow_ns);
	else
		fprintf(f, "Slow accesses:  %.0f (at least %lldns; each kept with its reference, page and faults)\n",
			workload_text_metric(r, "slow-accesses"), slow_ns);
}

/* bench_mmap's. */
static void workload_text_mmap(FILE *f, const struct result *r)
{
	fprintf(f, "mmap benchmark: %s %s, %lld pages (%lld bytes)\n", workload_text_str(r, "memory"),
		workload_text_str(r, "mode"), workload_text_int(r, NULL, "pages"),
		workload_text_int(r, NULL, "region_bytes"));
	fprintf(f, "Trace: %s (%s), %lld references x %lld passes\n\n", workload_text_str(r, "refs"),
		workload_text_str(r, "refs_description"), workload_text_int(r, NULL, "references"),
		workload_text_int(r, NULL, "passes"));
	workload_text_mmap_passes(f, r);
	fprintf(f, "\nTotal time:     %.0f ms\nReferences/s:   %.0f\n", workload_text_metric(r, "time") / 1e6,
		workload_text_metric(r, "refs-per-sec"));
	fprintf(f, "Faults:         %.0f minor, %.0f major (the replay; with set-up %.0f minor, %.0f major)\n",
		workload_text_metric(r, "replay-minor-faults"), workload_text_metric(r, "replay-major-faults"),
		workload_text_metric(r, "minor-faults"), workload_text_metric(r, "major-faults"));
	if (result_find_metric(r, "vmstat-pswpin"))
		fprintf(f, "Swapped:        %.0f pages in, %.0f pages out (/proc/vmstat)\n",
			workload_text_metric(r, "vmstat-pswpin"), workload_text_metric(r, "vmstat-pswpout"));
	const struct named_hist *h = result_find_hist(r, "access-time");
	if (h && h->h->count)
		fprintf(f, "Access time:    mean %.0fns p50 %.0fns p90 %.0fns p99 %.0fns p99.9 %.0fns max %lluns\n",
			hist_mean(h->h), hist_percentile(h->h, 50), hist_percentile(h->h, 90), hist_percentile(h->h, 99),
			hist_percentile(h->h, 99.9), (unsigned long long)h->h->max);
	workload_text_mmap_timing(f, r);
	workload_text_outcome(f, r, true);
}

/* sp_tester's lines, then what it could not measure. */
static void workload_text_reread(FILE *f, const struct result *r)
{
	long long first = workload_text_int(r, NULL, "first_bytes"), second = workload_text_int(r, NULL, "second_bytes");
	fprintf(f, "Ram %lld  Swap %lld\nTotal ram to be malloced: %lld bytes\n"
		"Starting first malloc of %lld bytes\nStarting 1st read of first malloc\n"
		"Touching this much ram takes %.0f milliseconds\nStarting second malloc of %lld bytes\n"
		"Completed second malloc and free\nSleeping for %g seconds\n"
		"Important part - starting reread of first malloc\nCompleted read of first malloc\n"
		"Timed portion %.0f milliseconds\n\n",
		workload_text_int(r, NULL, "ram"), workload_text_int(r, NULL, "swap"), first + second, first,
		workload_text_metric(r, "read-time") / 1e6, second,
		(double)workload_text_int(r, NULL, "sleep_ns") / 1e9, workload_text_metric(r, "reread-time") / 1e6);
	const char *touch = json_string_value(json_object_get(r->info, "touch"));
	const char *fill = json_string_value(json_object_get(r->info, "fill"));
	if (touch && fill)
		fprintf(f, "Reads touch every %s; buffers filled with %s\n", touch,
			!strcmp(fill, "zero") ? "zeros" : "a per-page pattern");
	fprintf(f, "Re-read / first read:        %.2fx\nSwapped before the re-read:  %.0f pages\n"
		"Swapped in (pswpin):         %.0f pages\nMajor faults of the re-read: %.0f\n",
		workload_text_metric(r, "reread-ratio"), workload_text_metric(r, "swapped-before-reread"),
		workload_text_metric(r, "pswpin"), workload_text_metric(r, "major-faults-reread"));
	if (result_find_metric(r, "swpout-zero"))
		fprintf(f, "Zero-filled pages, no I/O:   %.0f swapped out, %.0f swapped in (swpout_zero, swpin_zero)\n",
			workload_text_metric(r, "swpout-zero"), workload_text_metric(r, "swpin-zero"));
	const struct named_hist *h = result_find_hist(r, "reread-latency");
	if (h && h->h->count)
		fprintf(f, "Re-read latency of absent pages: p50 %.0fns p90 %.0fns p99 %.0fns p99.9 %.0fns "
			"max %lluns\n", hist_percentile(h->h, 50), hist_percentile(h->h, 90),
			hist_percentile(h->h, 99), hist_percentile(h->h, 99.9), (unsigned long long)h->h->max);
	workload_text_outcome(f, r, true);
}

/* One line per workload with a layout of its own; any other prints the
 * generic result text (report/result_text.c). */
static const struct {
	const char *workload;
	void (*write)(FILE *f, const struct result *r);
} workload_texts[] = {
	{ "alloc", workload_text_alloc },
	{ "kselftest", kselftest_result_text },
	{ "fault", workload_text_fault },
	{ "mmap", workload_text_mmap },
	{ "reread", workload_text_reread },
};

bool workload_text(FILE *f, const struct result *r)
{
	for (size_t i = 0; r->workload && i < ARRAY_SIZE(workload_texts); i++)
		if (!strcmp(workload_texts[i].workload, r->workload)) {
			workload_texts[i].write(f, r);
			return true;
		}
	return false;
}
