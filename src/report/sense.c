/* The formatters of sense's views: see sense.h. */
#include "report/sense.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

/* --- zones --- */

static json_t *sense_u64_or_null(uint64_t v, bool have)
{
	return have ? json_integer((json_int_t)v) : json_null();
}

static json_t *sense_protection_json(const struct zoneinfo_zone *z)
{
	if (!(z->have & ZONE_HAVE_PROTECTION))
		return json_null();
	json_t *prot = json_array();
	for (size_t i = 0; i < z->nprotection; i++)
		json_array_append_new(prot, json_integer((json_int_t)z->protection[i]));
	return prot;
}

static json_t *sense_zone_json(const struct zoneinfo_zone *z)
{
	return json_pack("{s:s, s:I, s:I, s:o, s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
			 "name", z->name, "spanned", (json_int_t)z->spanned,
			 "present", (json_int_t)z->present,
			 "managed", sense_u64_or_null(z->managed, z->have & ZONE_HAVE_MANAGED),
			 "free", (json_int_t)z->free, "min", (json_int_t)z->min,
			 "low", (json_int_t)z->low, "high", (json_int_t)z->high,
			 "high_boost", sense_u64_or_null(z->high_boost, z->have & ZONE_HAVE_BOOST),
			 "promo", sense_u64_or_null(z->promo, z->have & ZONE_HAVE_PROMO),
			 "protection", sense_protection_json(z));
}

json_t *sense_zones_json(const struct zoneinfo *zi)
{
	json_t *nodes = json_array();
	for (size_t i = 0; i < zi->nnodes; i++) {
		json_t *zones = json_array();
		for (size_t j = 0; j < zi->nodes[i].nzones; j++)
			json_array_append_new(zones, sense_zone_json(&zi->nodes[i].zones[j]));
		json_array_append_new(nodes, json_pack("{s:i, s:o}", "node", zi->nodes[i].node, "zones", zones));
	}
	return json_pack("{s:I, s:o}", "page_size", (json_int_t)vmr_page_size(), "nodes", nodes);
}

/* One cell per row of a zone's column: "zone->min = 45". */
static void sense_zone_cells(const struct zoneinfo_zone *z, char cells[SENSE_ZONE_ROWS][96])
{
	struct { const char *name; uint64_t v; bool have; } rows[] = {
		{ "spanned", z->spanned, true }, { "present", z->present, true },
		{ "managed", z->managed, z->have & ZONE_HAVE_MANAGED }, { "free_pages", z->free, true },
		{ "pages_min", z->min, true }, { "pages_low", z->low, true }, { "pages_high", z->high, true },
		{ "high_boost", z->high_boost, z->have & ZONE_HAVE_BOOST },
		{ "promo", z->promo, z->have & ZONE_HAVE_PROMO },
	};
	for (size_t r = 0; r < ARRAY_SIZE(rows); r++) {
		if (rows[r].have)
			snprintf(cells[r], 96, "zone->%-10s = %" PRIu64, rows[r].name, rows[r].v);
		else
			snprintf(cells[r], 96, "zone->%-10s = -", rows[r].name);
	}
	char *prot = cells[SENSE_ZONE_ROWS - 1];
	snprintf(prot, 96, "protection       = %s", z->have & ZONE_HAVE_PROTECTION ? "" : "-");
	for (size_t i = 0; i < z->nprotection; i++) {
		size_t off = strlen(prot);
		snprintf(prot + off, 96 - off, "%s%" PRIu64, i ? "," : "", z->protection[i]);
	}
}

/* The seed's sense_zones table: one column per zone, side by side. */
static void sense_zones_node_text(const struct zoneinfo_node *n)
{
	char cells[ZONEINFO_MAX_ZONES][SENSE_ZONE_ROWS][96], head[ZONEINFO_MAX_ZONES][40];
	int width[ZONEINFO_MAX_ZONES];
	printf("Node %d\n------\n", n->node);
	for (size_t j = 0; j < n->nzones; j++) {
		sense_zone_cells(&n->zones[j], cells[j]);
		snprintf(head[j], sizeof(head[j]), "ZONE_%s", n->zones[j].name);
		for (char *c = head[j] + 5; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		width[j] = (int)strlen(head[j]);
		for (int r = 0; r < SENSE_ZONE_ROWS; r++)
			if ((int)strlen(cells[j][r]) > width[j])
				width[j] = (int)strlen(cells[j][r]);
	}
	for (size_t j = 0; j < n->nzones; j++)
		printf("%-*s%s", j + 1 < n->nzones ? width[j] + 3 : 0, head[j], j + 1 < n->nzones ? "" : "\n");
	for (int r = 0; r < SENSE_ZONE_ROWS; r++)
		for (size_t j = 0; j < n->nzones; j++)
			printf("%-*s%s", j + 1 < n->nzones ? width[j] + 3 : 0, cells[j][r],
			       j + 1 < n->nzones ? "" : "\n");
	putchar('\n');
}

void sense_zones_text(const struct zoneinfo *zi)
{
	printf("Values in pages of %" PRIu64 " bytes\n\n", vmr_page_size());
	for (size_t i = 0; i < zi->nnodes; i++)
		sense_zones_node_text(&zi->nodes[i]);
}

/* --- structsizes --- */

void sense_structsizes_text(json_t *structs)
{
	const char *k;
	json_t *v;
	printf("%-24s %8s\n", "struct", "bytes");
	json_object_foreach(structs, k, v) {
		if (json_is_null(v))
			printf("%-24s %8s\n", k, "-");
		else
			printf("%-24s %8" JSON_INTEGER_FORMAT "\n", k, json_integer_value(v));
	}
}

/* --- kvirtual --- */

static json_t *sense_vmallocinfo_json(const struct vmallocinfo *vi, long top)
{
	json_t *callers = json_array();
	for (size_t i = 0; i < vi->ncallers && (long)i < top; i++)
		json_array_append_new(callers, json_pack("{s:s, s:I, s:I}", "caller", vi->callers[i].name,
							 "bytes", (json_int_t)vi->callers[i].bytes,
							 "areas", (json_int_t)vi->callers[i].areas));
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:o}", "areas", (json_int_t)vi->areas,
			 "bytes", (json_int_t)vi->bytes, "pages", (json_int_t)vi->pages,
			 "unpurged_areas", (json_int_t)vi->unpurged_areas,
			 "unpurged_bytes", (json_int_t)vi->unpurged_bytes, "top_callers", callers);
}

json_t *sense_kvirtual_json(const struct meminfo *mi, const struct vmallocinfo *vi, long top)
{
	uint64_t total, used, chunk;
	json_t *j = json_object();
	bool have_total = meminfo_get(mi, "VmallocTotal", &total) == 0;
	bool have_used = meminfo_get(mi, "VmallocUsed", &used) == 0;
	/* VmallocChunk reads 0 since 4.4: the kernel stopped computing it. */
	bool have_chunk = meminfo_get(mi, "VmallocChunk", &chunk) == 0 && chunk;
	json_object_set_new(j, "total_bytes", sense_u64_or_null(total, have_total));
	json_object_set_new(j, "used_bytes", sense_u64_or_null(used, have_used));
	json_object_set_new(j, "largest_chunk_bytes", sense_u64_or_null(chunk, have_chunk));
	json_object_set_new(j, "vmallocinfo", vi ? sense_vmallocinfo_json(vi, top) : json_null());
	return j;
}

void sense_kvirtual_text(const struct meminfo *mi, const struct vmallocinfo *vi, long top)
{
	static const struct { const char *key, *label; } rows[] = {
		{ "VmallocTotal", "total" }, { "VmallocUsed", "used" }, { "VmallocChunk", "largest free chunk" },
	};
	char b[32];
	uint64_t v;
	printf("vmalloc address space\n");
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		if (meminfo_get(mi, rows[i].key, &v) < 0 || (v == 0 && i == 2))
			printf("  %-20s not reported\n", rows[i].label);
		else
			printf("  %-20s %10s  (%" PRIu64 " bytes)\n", rows[i].label,
			       units_format_size(b, sizeof(b), v), v);
	}
	if (!vi)
		return;
	printf("\nvmallocinfo\n  %-20s %10" PRIu64 "\n", "areas", vi->areas);
	printf("  %-20s %10s  (%" PRIu64 " bytes)\n", "bytes", units_format_size(b, sizeof(b), vi->bytes), vi->bytes);
	printf("  %-20s %10" PRIu64 "\n", "pages backing them", vi->pages);
	printf("  %-20s %10" PRIu64 "\n", "unpurged areas", vi->unpurged_areas);
	if (top > 0 && vi->ncallers)
		printf("\ntop callers by bytes\n  %10s %7s  %s\n", "bytes", "areas", "caller");
	for (size_t i = 0; i < vi->ncallers && (long)i < top; i++)
		printf("  %10s %7" PRIu64 "  %s\n", units_format_size(b, sizeof(b), vi->callers[i].bytes),
		       vi->callers[i].areas, vi->callers[i].name);
}

static json_t *sense_count_json(uint64_t v, bool known)
{
	return known ? json_integer((json_int_t)v) : json_null();
}

static json_t *sense_vma_json(const struct sense_vma *sv, uint64_t ps)
{
	const struct maps_vma *v = sv->v;
	const struct pagemap_counts *c = &sv->c;
	char start[24], end[24];
	snprintf(start, sizeof(start), "0x%" PRIx64, v->start);
	snprintf(end, sizeof(end), "0x%" PRIx64, v->end);
	json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:I}", "start", start, "end", end, "perms", v->perms,
			      "path", v->path, "pages", (json_int_t)((v->end - v->start) / ps));
	json_object_set_new(j, "present", sense_count_json(c->present, sv->ok));
	json_object_set_new(j, "swapped", sense_count_json(c->swapped, sv->ok));
	json_object_set_new(j, "file", sense_count_json(c->file, sv->ok && c->flags_known));
	json_object_set_new(j, "exclusive", sense_count_json(c->exclusive, sv->ok && c->flags_known));
	json_object_set_new(j, "soft_dirty", sense_count_json(c->soft_dirty, sv->ok && c->flags_known &&
										  pagemap_soft_dirty_supported()));
	json_object_set_new(j, "thp", sense_count_json(c->thp, sv->ok && c->thp_known));
	if (sv->state && sv->ok) {
		size_t n = strlen(sv->state);
		char *enc = xmalloc(n / 4 + 2);
		pagemap_encode_map(sv->state, n, enc);
		json_object_set_new(j, "map", json_string(enc));
		json_object_set_new(j, "page_map", json_string(sv->state));
		free(enc);
	}
	return j;
}

static void sense_count_text(uint64_t v, bool known)
{
	if (known)
		printf(" %9" PRIu64, v);
	else
		printf(" %9s", "-");
}

/* A map wrapped at 64 characters, each line led by the address it starts at. */
static void sense_map_text(const char *label, const char *map, uint64_t start, uint64_t bytes_per_char)
{
	size_t n = strlen(map);
	printf("  %s\n", label);
	for (size_t i = 0; i < n; i += 64)
		printf("    %016" PRIx64 " %.64s\n", start + i * bytes_per_char, map + i);
}

static void sense_vma_text(const struct sense_vma *sv, uint64_t ps)
{
	const struct maps_vma *v = sv->v;
	const struct pagemap_counts *c = &sv->c;
	printf("%016" PRIx64 " %016" PRIx64 " %s %9" PRIu64, v->start, v->end, v->perms, (v->end - v->start) / ps);
	sense_count_text(c->present, sv->ok);
	sense_count_text(c->swapped, sv->ok);
	sense_count_text(c->file, sv->ok && c->flags_known);
	sense_count_text(c->exclusive, sv->ok && c->flags_known);
	sense_count_text(c->soft_dirty, sv->ok && c->flags_known && pagemap_soft_dirty_supported());
	sense_count_text(c->thp, sv->ok && c->thp_known);
	printf(" %s\n", v->path);
	if (!sv->state || !sv->ok)
		return;
	size_t n = strlen(sv->state);
	char *enc = xmalloc(n / 4 + 2);
	pagemap_encode_map(sv->state, n, enc);
	sense_map_text("encoded map (one char per 4 pages, see --help):", enc, v->start, 4 * ps);
	sense_map_text("page map ('#' present, 's' swapped, '.' neither):", sv->state, v->start, ps);
	free(enc);
}

json_t *sense_pagemap_json(pid_t pid, const struct sense_vma *svs, size_t n,
			   const struct pagemap_counts *total, uint64_t ps)
{
	json_t *vmas = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(vmas, sense_vma_json(&svs[i], ps));
	return json_pack("{s:i, s:I, s:b, s:b, s:o}", "pid", (int)pid, "page_size", (json_int_t)ps,
			 "pfn_visible", total->pfn_known, "thp_visible", total->thp_known, "vmas", vmas);
}

void sense_pagemap_text(pid_t pid, const struct sense_vma *svs, size_t n,
			const struct pagemap_counts *total, uint64_t ps)
{
	printf("pid %d: %zu VMAs, pages of %" PRIu64 " bytes%s\n", (int)pid, n, ps,
	       total->thp_known || n == 0 ? "" : " (THP needs root: /proc/kpageflags)");
	printf("%-16s %-16s %-4s %9s %9s %9s %9s %9s %9s %9s %s\n", "start", "end", "perm", "pages",
	       "present", "swapped", "file", "exclusive", "softdirty", "thp", "path");
	for (size_t i = 0; i < n; i++)
		sense_vma_text(&svs[i], ps);
}

/* --- system --- */

/* "thp.enabled: madvise" lines from the nested fingerprint. */
void sense_flatten(const char *prefix, json_t *j)
{
	const char *k;
	json_t *v;
	size_t i;
	char *key;
	switch (json_typeof(j)) {
	case JSON_OBJECT:
		json_object_foreach(j, k, v) {
			key = *prefix ? xasprintf("%s.%s", prefix, k) : xstrdup(k);
			sense_flatten(key, v);
			free(key);
		}
		break;
	case JSON_ARRAY:
		if (!json_array_size(j))
			printf("%-40s (none)\n", prefix);
		json_array_foreach(j, i, v) {
			key = xasprintf("%s[%zu]", prefix, i);
			sense_flatten(key, v);
			free(key);
		}
		break;
	case JSON_STRING:
		printf("%-40s %s\n", prefix, json_string_value(j));
		break;
	case JSON_INTEGER:
		printf("%-40s %" JSON_INTEGER_FORMAT "\n", prefix, json_integer_value(j));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		printf("%-40s %s\n", prefix, json_is_true(j) ? "yes" : "no");
		break;
	case JSON_NULL:
		printf("%-40s -\n", prefix);
		break;
	case JSON_REAL:
		printf("%-40s %g\n", prefix, json_real_value(j));
		break;
	}
}

/* Levels (nr_*) as they are, event counters as the change since `before`. */
static int64_t sense_vmstat_value(const struct vmstat *before, const struct vmstat *after,
				  struct sense_fields *f, size_t i)
{
	uint64_t a = 0, b = 0;
	const char *name = f->names.v[i];
	long bi = f->idx[i];
	vmstat_at(after, &f->idx[i], name, &a);
	if (!strncmp(name, "nr_", 3))
		return (int64_t)a;
	vmstat_at(before, &bi, name, &b);
	return (int64_t)(a - b);
}

void sense_vmstat_header(const struct sense_fields *f)
{
	printf("%8s", "time_s");
	for (size_t i = 0; i < f->names.n; i++)
		printf(" %*s", (int)(strlen(f->names.v[i]) > 10 ? strlen(f->names.v[i]) : 10), f->names.v[i]);
	putchar('\n');
}

void sense_vmstat_row(double t, const struct vmstat *before, const struct vmstat *after,
			     struct sense_fields *f, json_t *samples)
{
	json_t *vals = samples ? json_object() : NULL;
	if (!samples)
		printf("%8.2f", t);
	for (size_t i = 0; i < f->names.n; i++) {
		int64_t v = sense_vmstat_value(before, after, f, i);
		int w = (int)(strlen(f->names.v[i]) > 10 ? strlen(f->names.v[i]) : 10);
		if (samples)
			json_object_set_new(vals, f->names.v[i], json_integer(v));
		else
			printf(" %*" PRId64, w, v);
	}
	if (samples)
		json_array_append_new(samples, json_pack("{s:f, s:o}", "t_s", t, "values", vals));
	else {
		putchar('\n');
		fflush(stdout);
	}
}

/* --- thp --- */

static void sense_dir_text(const char *title, const struct sysfs_dir *d)
{
	printf("%s\n", title);
	if (!d->n)
		printf("  (none)\n");
	for (size_t i = 0; i < d->n; i++)
		printf("  %-28s %s\n", d->v[i].name, d->v[i].value);
}

static bool sense_has_name(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

static int sense_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every stats/ name any size has (sizes that only shmem may use, 8K on
 * x86, lack the anon_* ones), sorted. */
static void sense_thp_stat_names(const struct thp *t, struct strlist *names)
{
	for (size_t i = 0; i < t->nsizes; i++)
		for (size_t k = 0; k < t->sizes[i].stats.n; k++)
			if (!sense_has_name(names, t->sizes[i].stats.v[k].name))
				strlist_add(names, t->sizes[i].stats.v[k].name);
	if (names->n)
		qsort(names->v, names->n, sizeof(*names->v), sense_name_cmp);
}

static void sense_thp_row(const struct thp *t, const char *name, bool stat)
{
	printf("  %-28s", name);
	for (size_t i = 0; i < t->nsizes; i++) {
		const struct sysfs_dir *d = stat ? &t->sizes[i].stats : &t->sizes[i].settings;
		const struct sysfs_value *v = sysfs_dir_get(d, name);
		printf(" %9s", v ? v->value : "-");
	}
	putchar('\n');
}

/* One column per size, as sense zones lays zones side by side. */
static void sense_thp_sizes_text(const struct thp *t, const char *root)
{
	struct strlist names = { 0 };
	char label[24];
	if (!t->nsizes) {
		printf("multi-size THP: not in this kernel (no %s/hugepages-*kB; Linux 6.8 on)\n", root);
		return;
	}
	printf("multi-size THP (%zu sizes; '-': not in this kernel)\n  %-28s", t->nsizes, "size");
	for (size_t i = 0; i < t->nsizes; i++) {
		thp_size_label(t->sizes[i].size_kb, label, sizeof(label));
		printf(" %9s", label);
	}
	putchar('\n');
	sense_thp_row(t, "enabled", false);
	sense_thp_row(t, "shmem_enabled", false);
	sense_thp_stat_names(t, &names);
	if (!names.n)
		printf("  stats: not in this kernel (no hugepages-*kB/stats; Linux 6.9 on)\n");
	for (size_t k = 0; k < names.n; k++)
		sense_thp_row(t, names.v[k], true);
	strlist_free(&names);
}

void sense_thp_text(const struct thp *t, const char *root)
{
	sense_dir_text("THP settings", &t->settings);
	putchar('\n');
	sense_dir_text("khugepaged", &t->khugepaged);
	putchar('\n');
	sense_thp_sizes_text(t, root);
}

/* --- swap --- */

static void sense_swap_devices_text(json_t *devices)
{
	char size[32], used[32];
	size_t i;
	json_t *d;
	printf("swap devices\n");
	if (!json_array_size(devices))
		printf("  (none)\n");
	else
		printf("  %-48s %-10s %10s %10s %8s\n", "path", "type", "size", "used", "priority");
	json_array_foreach(devices, i, d) {
		units_format_size(size, sizeof(size), (uint64_t)json_integer_value(json_object_get(d, "size_bytes")));
		units_format_size(used, sizeof(used), (uint64_t)json_integer_value(json_object_get(d, "used_bytes")));
		printf("  %-48s %-10s %10s %10s %8" JSON_INTEGER_FORMAT "\n",
		       json_string_value(json_object_get(d, "path")), json_string_value(json_object_get(d, "type")),
		       size, used, json_integer_value(json_object_get(d, "priority")));
	}
}

static void sense_swap_bytes_text(const struct sysfs_dir *d)
{
	char b[32];
	for (size_t i = 0; i < d->n; i++)
		printf("  %-28s %10s\n", d->v[i].name, units_format_size(b, sizeof(b), d->v[i].number));
}

static void sense_swap_zswap_text(const struct swapinfo *s)
{
	if (!s->have_zswap) {
		printf("zswap: not in this kernel (no %s)\n", SWAPINFO_ZSWAP_PARAMS);
		return;
	}
	sense_dir_text("zswap parameters", &s->zswap);
	if (!sysfs_dir_get(&s->zswap, "shrinker_enabled"))
		printf("  %-28s not in this kernel (6.8 on)\n", "shrinker_enabled");
	if (s->have_zswap_debugfs)
		sense_dir_text("zswap (debugfs)", &s->zswap_debugfs);
	else
		printf("zswap pool: debugfs is not mounted (%s); see Zswap above and zswp* below\n",
		       SWAPINFO_ZSWAP_DEBUGFS);
}

static void sense_swap_zram_text(const struct swapinfo *s)
{
	char b[32];
	printf("zram devices\n");
	if (!s->nzram)
		printf("  (none)\n");
	for (size_t i = 0; i < s->nzram; i++) {
		const struct swapinfo_zram *z = &s->zram[i];
		printf("  /dev/zram%d  disksize %s  algorithm %s\n", z->id,
		       units_format_size(b, sizeof(b), z->disksize_bytes), z->algorithm[0] ? z->algorithm : "-");
		for (size_t k = 0; z->have_mm && k < z->mm.n; k++)
			printf("    %-26s %" PRIu64 "\n", zram_mm_stat_names[k], z->mm.v[k]);
	}
}

void sense_swap_text(const struct swapinfo *s)
{
	sense_swap_devices_text(s->devices);
	printf("\nswap settings\n");
	printf("  %-28s %s\n", "vma_ra_enabled", s->vma_ra_enabled < 0 ? "not in this kernel" : s->vma_ra_enabled ? "true" : "false");
	if (s->page_cluster >= 0)
		printf("  %-28s %" PRId64 "\n", "vm.page-cluster", s->page_cluster);
	printf("\nmeminfo\n");
	sense_swap_bytes_text(&s->meminfo);
	putchar('\n');
	sense_dir_text("vmstat (since boot)", &s->vmstat);
	if (!sysfs_dir_get(&s->vmstat, "swpout_zero"))
		printf("  %-28s not in this kernel (6.12 on)\n", "swpin_zero, swpout_zero");
	putchar('\n');
	sense_swap_zswap_text(s);
	putchar('\n');
	sense_swap_zram_text(s);
}

/* --- lru_gen --- */

void sense_lru_gen_text(const struct lru_gen *g, const char *root)
{
	printf("multi-generational LRU (%s)\n", root);
	printf("  %-28s 0x%04" PRIx64 "\n", "enabled", g->enabled);
	printf("  %-28s %s\n", "core (0x0001)", g->enabled & LRU_GEN_CORE ? "on" : "off");
	printf("  %-28s %s\n", "mm_walk (0x0002)", g->enabled & LRU_GEN_MM_WALK ? "on" : "off");
	printf("  %-28s %s\n", "nonleaf_young (0x0004)", g->enabled & LRU_GEN_NONLEAF_YOUNG ? "on" : "off");
	if (g->have_min_ttl)
		printf("  %-28s %" PRIu64 "\n", "min_ttl_ms", g->min_ttl_ms);
	else
		printf("  %-28s -\n", "min_ttl_ms");
}
