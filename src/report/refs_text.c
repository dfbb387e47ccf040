/* The formatters of `refs show`: see refs_text.h. */
#include "report/refs_text.h"

#include <inttypes.h>
#include <stdio.h>

/* {"distinct_pages":..,"working_set":{..},"reuse_distance":{..},"hottest":[..]} */
static json_t *refs_stats_to_json(const struct refs_stats *st)
{
	json_t *ws = json_array(), *reuse = json_array(), *hot = json_array();
	for (size_t w = 0; w < st->nwindows; w++)
		json_array_append_new(ws, json_integer((json_int_t)st->ws[w]));
	for (unsigned b = 0; b < REFS_REUSE_BUCKETS; b++)
		if (st->reuse[b])
			json_array_append_new(reuse, json_pack("{s:I,s:I,s:I}", "min", (json_int_t)refs_reuse_lo(b),
							       "max", (json_int_t)refs_reuse_hi(b), "count",
							       (json_int_t)st->reuse[b]));
	for (size_t i = 0; i < st->nhot; i++)
		json_array_append_new(hot, json_pack("{s:I,s:I,s:f}", "page", (json_int_t)st->hot[i].page,
						     "references", (json_int_t)st->hot[i].refs, "share",
						     st->references ? (double)st->hot[i].refs / (double)st->references : 0.0));
	return json_pack("{s:I,s:{s:I,s:I,s:I,s:f,s:o},s:{s:I,s:o},s:o}", "distinct_pages", (json_int_t)st->distinct,
			 "working_set", "window", (json_int_t)st->window, "min", (json_int_t)st->ws_min, "max",
			 (json_int_t)st->ws_max, "mean", st->ws_mean, "pages", ws, "reuse_distance", "cold",
			 (json_int_t)st->cold, "buckets", reuse, "hottest", hot);
}

json_t *refs_show_json(const struct refs_trace *t, const struct refs_stats *st)
{
	char flags[64];
	json_t *j = refs_stats_to_json(st);
	json_object_set_new(j, "file", json_string(t->path));
	json_object_set_new(j, "version", json_integer(t->h.version));
	json_object_set_new(j, "description", json_string(t->h.desc));
	json_object_set_new(j, "seed", json_integer((json_int_t)t->h.seed));
	json_object_set_new(j, "sampled", json_boolean(t->h.flags & REFS_FLAG_SAMPLED));
	json_object_set_new(j, "flags", json_string(refs_flags_str(t->h.flags, flags, sizeof(flags))));
	json_object_set_new(j, "page_size", json_integer(t->h.page_size));
	json_object_set_new(j, "pages", json_integer((json_int_t)t->h.pages));
	json_object_set_new(j, "references", json_integer((json_int_t)t->h.references));
	return j;
}

static double refs_pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

void refs_show_text(FILE *f, const struct refs_trace *t, const struct refs_stats *st)
{
	char flags[64];
	refs_flags_str(t->h.flags, flags, sizeof(flags));
	fprintf(f, "file           %s\n", t->path);
	fprintf(f, "description    %s\n", t->h.desc);
	fprintf(f, "seed           %" PRIu64 "\n", t->h.seed);
	fprintf(f, "flags          %s\n", *flags ? flags : "-");
	fprintf(f, "page size      %" PRIu32 "\n", t->h.page_size);
	fprintf(f, "pages          %" PRIu64 "\n", t->h.pages);
	fprintf(f, "references     %" PRIu64 "\n", t->h.references);
	fprintf(f, "distinct pages %" PRIu64 " (%.1f%% of the region)\n", st->distinct,
		refs_pct(st->distinct, t->h.pages));
	fprintf(f, "working set    min %" PRIu64 ", mean %.1f, max %" PRIu64 " pages per window of %" PRIu64
		" references (%zu windows)\n", st->ws_min, st->ws_mean, st->ws_max, st->window, st->nwindows);
	fprintf(f, "\nreuse distance (distinct pages between two references to a page)\n");
	fprintf(f, "  %-21s %12" PRIu64 " %6.2f%%\n", "cold (first)", st->cold, refs_pct(st->cold, st->references));
	for (unsigned b = 0; b < REFS_REUSE_BUCKETS; b++) {
		if (!st->reuse[b])
			continue;
		char range[48];
		if (refs_reuse_lo(b) == refs_reuse_hi(b))
			snprintf(range, sizeof(range), "%" PRIu64, refs_reuse_lo(b));
		else
			snprintf(range, sizeof(range), "%" PRIu64 "-%" PRIu64, refs_reuse_lo(b), refs_reuse_hi(b));
		fprintf(f, "  %-21s %12" PRIu64 " %6.2f%%\n", range, st->reuse[b], refs_pct(st->reuse[b], st->references));
	}
	if (!st->nhot)
		return;
	fprintf(f, "\nhottest pages\n  %10s %12s %7s\n", "page", "references", "share");
	for (size_t i = 0; i < st->nhot; i++)
		fprintf(f, "  %10" PRIu32 " %12" PRIu64 " %6.2f%%\n", st->hot[i].page, st->hot[i].refs,
			refs_pct(st->hot[i].refs, st->references));
}
