/* vmregress sense: read-only views of the kernel's VM, the user-space
 * successors of VM Regress's sense modules.  Parsing and wiring only: the
 * probes in src/probe/ read, the formatters here print. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/units.h"
#include "core/util.h"
#include "probe/btf.h"
#include "probe/lru_gen.h"
#include "probe/meminfo.h"
#include "probe/pagemap.h"
#include "probe/swapinfo.h"
#include "probe/system.h"
#include "probe/thp.h"
#include "probe/vmalloc.h"
#include "probe/vmstat.h"
#include "probe/zoneinfo.h"

struct sense_opts {
	bool json;
	bool map;
	char *vma;
	struct strlist structs;
	uint64_t interval_ns;
	long count;
	char *fields;
	long top;
	char *root;
};

const struct opt sense_cmd_opts[] = {
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct sense_opts, json),
	  .help = "print one JSON document instead of text", .flags = OPTF_NO_ECHO },
	{ .name = "map", .type = OPT_FLAG, .off = offsetof(struct sense_opts, map),
	  .help = "pagemap: print each VMA's encoded and plain present/swapped maps (see Maps)" },
	{ .name = "vma", .type = OPT_STR, .off = offsetof(struct sense_opts, vma), .metavar = "ADDR",
	  .help = "pagemap: only the VMA containing ADDR (hex, 0x optional)" },
	{ .name = "struct", .type = OPT_LIST, .off = offsetof(struct sense_opts, structs), .metavar = "NAME",
	  .help = "structsizes: the size of struct NAME instead of the default list (repeatable)" },
	{ .name = "interval", .type = OPT_TIME, .off = offsetof(struct sense_opts, interval_ns),
	  .def = "1s", .min = 1e6, .max = 86400e9, .metavar = "TIME",
	  .help = "vmstat: time between samples" },
	{ .name = "count", .type = OPT_INT, .off = offsetof(struct sense_opts, count), .def = "0",
	  .min = 0, .max = 1e9, .metavar = "N", .help = "vmstat: number of samples (0: until interrupted)" },
	{ .name = "fields", .type = OPT_STR, .off = offsetof(struct sense_opts, fields), .metavar = "LIST",
	  .help = "vmstat: comma-separated /proc/vmstat counters to show (nr_* are levels, the rest "
		  "changes per interval)" },
	{ .name = "top", .type = OPT_INT, .off = offsetof(struct sense_opts, top), .def = "10",
	  .min = 0, .max = 1e6, .metavar = "N", .help = "kvirtual: number of vmalloc callers to list" },
	{ .name = "root", .type = OPT_STR, .off = offsetof(struct sense_opts, root), .metavar = "DIR",
	  .help = "test: thp and lru_gen read this directory instead of the kernel's",
	  .flags = OPTF_HIDDEN | OPTF_NO_ECHO },
	OPT_END,
};

const char sense_cmd_details[] =
	"Views:\n"
	"  zones        nodes and zones from /proc/zoneinfo: sizes and watermarks in pages\n"
	"  structsizes  sizes of the kernel's VM structures from BTF (/sys/kernel/btf/vmlinux)\n"
	"  kvirtual     the vmalloc address space; areas and top callers need root\n"
	"  pagemap PID  every VMA of a process with its present/swapped/file/exclusive/\n"
	"               soft-dirty/THP page counts (other users' processes and THP need root)\n"
	"  system       the environment fingerprint stored with every run\n"
	"  vmstat       /proc/vmstat per interval, like vmstat 1\n"
	"  thp          THP settings, khugepaged, and per multi-size THP size its\n"
	"               enabled/shmem_enabled and every counter under stats/\n"
	"  swap         swap devices, readahead, swap cache, zero-page swap, zswap, zram\n"
	"  lru_gen      the multi-generational LRU's settings (exits 3 without it)\n"
	"\n"
	"Maps (--map):\n"
	"  The encoded map is VM Regress's: one character per 4 pages.  Bit k (value\n"
	"  1<<k) is set when page k of the 4 is present, and bits 5 and 6 (0x60) are\n"
	"  always set so the character is printable: '`' none present, 'a' the first\n"
	"  only, 'c' the first two, 'o' all four.  The plain map has one character per\n"
	"  page: '#' present, 's' swapped, '.' neither.  Lines start with the address\n"
	"  of their first page.\n"
	"\n"
	"Exit codes: 2 bad arguments or no such process, 3 not possible here\n"
	"(privilege, no BTF, a kernel without the feature).";

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

static json_t *sense_zones_json(const struct zoneinfo *zi)
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

#define SENSE_ZONE_ROWS 10

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

static int sense_zones(struct sense_opts *o, char **pos, int npos)
{
	struct zoneinfo zi = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (zoneinfo_read(&zi, NULL, err) < 0) {
		vmr_err("/proc/zoneinfo: %s", err);
		return VMR_EXIT_CANNOT;
	}
	if (o->json) {
		json_t *j = sense_zones_json(&zi);
		zoneinfo_free(&zi);
		return cmd_print_json(j);
	}
	printf("Values in pages of %" PRIu64 " bytes\n\n", vmr_page_size());
	for (size_t i = 0; i < zi.nnodes; i++)
		sense_zones_node_text(&zi.nodes[i]);
	zoneinfo_free(&zi);
	return VMR_EXIT_OK;
}

/* --- structsizes --- */

static int sense_structsizes(struct sense_opts *o, char **pos, int npos)
{
	char err[PROBE_ERR_MAX] = "";
	struct btf *btf = btf_load(NULL, err);
	if (!btf) {
		vmr_err("sense structsizes: %s", err);
		return VMR_EXIT_CANNOT;
	}
	bool named = o->structs.n > 0;
	size_t n = named ? o->structs.n : 0;
	if (!named)
		while (btf_vm_structs[n])
			n++;
	json_t *structs = json_object();
	int rc = VMR_EXIT_OK;
	for (size_t i = 0; i < n; i++) {
		const char *name = named ? o->structs.v[i] : btf_vm_structs[i];
		uint64_t size;
		if (btf_struct_size(btf, name, &size, err) < 0) {
			if (named) {
				vmr_err("sense structsizes: --struct %s: %s", name, err);
				rc = VMR_EXIT_USAGE;
				goto unload;
			}
			json_object_set_new(structs, name, json_null());   /* older kernels: no folio */
			continue;
		}
		json_object_set_new(structs, name, json_integer((json_int_t)size));
	}
	if (o->json) {
		rc = cmd_print_json(json_pack("{s:O}", "structs", structs));
	} else {
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
unload:
	json_decref(structs);
	btf_unload(btf);
	return rc;
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

static void sense_kvirtual_text(const struct meminfo *mi, const struct vmallocinfo *vi, long top)
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

static int sense_kvirtual(struct sense_opts *o, char **pos, int npos)
{
	struct meminfo mi = { 0 };
	struct vmallocinfo vi = { 0 };
	char err[PROBE_ERR_MAX] = "", verr[PROBE_ERR_MAX];
	uint64_t total, used, chunk;
	if (meminfo_read(&mi, NULL, err) < 0) {
		vmr_err("/proc/meminfo: %s", err);
		return VMR_EXIT_CANNOT;
	}
	bool have_vi = vmallocinfo_read(&vi, NULL, verr) == 0;
	if (!have_vi)
		vmr_warn("/proc/vmallocinfo: %s%s; showing the totals only", verr,
			 errno == EACCES ? " (needs root)" : "");
	int rc = VMR_EXIT_OK;
	if (o->json) {
		json_t *j = json_object();
		bool have_total = meminfo_get(&mi, "VmallocTotal", &total) == 0;
		bool have_used = meminfo_get(&mi, "VmallocUsed", &used) == 0;
		/* VmallocChunk reads 0 since 4.4: the kernel stopped computing it. */
		bool have_chunk = meminfo_get(&mi, "VmallocChunk", &chunk) == 0 && chunk;
		json_object_set_new(j, "total_bytes", sense_u64_or_null(total, have_total));
		json_object_set_new(j, "used_bytes", sense_u64_or_null(used, have_used));
		json_object_set_new(j, "largest_chunk_bytes", sense_u64_or_null(chunk, have_chunk));
		json_object_set_new(j, "vmallocinfo", have_vi ? sense_vmallocinfo_json(&vi, o->top) : json_null());
		rc = cmd_print_json(j);
	} else {
		sense_kvirtual_text(&mi, have_vi ? &vi : NULL, o->top);
	}
	if (have_vi)
		vmallocinfo_free(&vi);
	meminfo_free(&mi);
	return rc;
}

/* --- pagemap --- */

/* One VMA's counts; ok false when its range is outside what pagemap
 * covers ([vsyscall]). */
struct sense_vma {
	const struct maps_vma *v;
	struct pagemap_counts c;
	char *state;            /* with --map */
	bool ok;
};

static int sense_parse_pid(const char *s, pid_t *pid)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v <= 0 || v > 0x7fffffff) {
		vmr_err("sense pagemap: '%s' is not a process id", s);
		return -1;
	}
	*pid = (pid_t)v;
	return 0;
}

static int sense_pagemap_errno_rc(int e)
{
	return e == ENOENT || e == ESRCH ? VMR_EXIT_USAGE : VMR_EXIT_CANNOT;
}

static int sense_pagemap_scan(struct pagemap *pm, struct sense_vma *sv, bool map, char *err)
{
	uint64_t npages = (sv->v->end - sv->v->start) / pm->page_size;
	memset(&sv->c, 0, sizeof(sv->c));
	if (map)
		sv->state = xmalloc(npages + 1);
	if (pagemap_scan(pm, sv->v->start, sv->v->end, &sv->c, sv->state, err) < 0) {
		if (errno != ERANGE)
			return -1;
		/* pagemap covers the user half only: [vsyscall] is beyond it */
		if (sv->v->start >= 1ULL << 63)
			return 0;
		/* a user address past the end: the process has exited */
		snprintf(err, PROBE_ERR_MAX, "exited while its pagemap was read");
		errno = ESRCH;
		return -1;
	}
	if (sv->state)
		sv->state[npages] = '\0';
	sv->ok = true;
	return 0;
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

static int sense_pagemap_output(struct sense_opts *o, pid_t pid, struct sense_vma *svs, size_t n,
				const struct pagemap_counts *total, uint64_t ps)
{
	if (o->json) {
		json_t *vmas = json_array();
		for (size_t i = 0; i < n; i++)
			json_array_append_new(vmas, sense_vma_json(&svs[i], ps));
		return cmd_print_json(json_pack("{s:i, s:I, s:b, s:b, s:o}", "pid", (int)pid,
						"page_size", (json_int_t)ps, "pfn_visible", total->pfn_known,
						"thp_visible", total->thp_known, "vmas", vmas));
	}
	printf("pid %d: %zu VMAs, pages of %" PRIu64 " bytes%s\n", (int)pid, n, ps,
	       total->thp_known || n == 0 ? "" : " (THP needs root: /proc/kpageflags)");
	printf("%-16s %-16s %-4s %9s %9s %9s %9s %9s %9s %9s %s\n", "start", "end", "perm", "pages",
	       "present", "swapped", "file", "exclusive", "softdirty", "thp", "path");
	for (size_t i = 0; i < n; i++)
		sense_vma_text(&svs[i], ps);
	return VMR_EXIT_OK;
}

static int sense_pagemap_select(struct sense_opts *o, const struct maps *m, pid_t pid,
				size_t *first, size_t *n)
{
	*first = 0;
	*n = m->n;
	if (!o->vma)
		return 0;
	char *end;
	errno = 0;
	uint64_t addr = strtoull(o->vma, &end, 16);
	if (errno || *end || end == o->vma) {
		vmr_err("sense pagemap: --vma: '%s' is not a hexadecimal address", o->vma);
		return -1;
	}
	const struct maps_vma *v = maps_find(m, addr);
	if (!v) {
		vmr_err("sense pagemap: --vma %s: no VMA of process %d contains it", o->vma, (int)pid);
		return -1;
	}
	*first = (size_t)(v - m->vmas);
	*n = 1;
	return 0;
}

static int sense_pagemap(struct sense_opts *o, char **pos, int npos)
{
	struct maps m = { 0 };
	struct pagemap pm = { 0 };
	struct pagemap_counts total = { 0 };
	char err[PROBE_ERR_MAX] = "";
	size_t first, n;
	pid_t pid;
	int rc = VMR_EXIT_CANNOT;
	if (npos != 2) {
		vmr_err("sense pagemap: needs one process id (sense pagemap PID)");
		return VMR_EXIT_USAGE;
	}
	if (sense_parse_pid(pos[1], &pid) < 0)
		return VMR_EXIT_USAGE;
	if (kill(pid, 0) < 0 && errno == ESRCH) {
		vmr_err("sense pagemap: no process %d", (int)pid);
		return VMR_EXIT_USAGE;
	}
	if (maps_read(&m, pid, err) < 0) {
		int e = errno;
		vmr_err("sense pagemap: /proc/%d/maps: %s%s", (int)pid, err,
			e == EACCES ? " (another user's process needs root)" : "");
		return sense_pagemap_errno_rc(e);
	}
	if (sense_pagemap_select(o, &m, pid, &first, &n) < 0) {
		rc = VMR_EXIT_USAGE;
		goto free_maps;
	}
	if (m.n == 0) {
		/* a kernel thread: no user memory, and no pagemap to open */
		rc = sense_pagemap_output(o, pid, NULL, 0, &total, vmr_page_size());
		goto free_maps;
	}
	if (pagemap_open(&pm, pid, true, err) < 0) {
		int e = errno;
		vmr_err("sense pagemap: %s%s", err, e == EACCES || e == EPERM ? " (needs root)" : "");
		rc = sense_pagemap_errno_rc(e);
		goto free_maps;
	}
	struct sense_vma *svs = xcalloc(n ? n : 1, sizeof(*svs));
	for (size_t i = 0; i < n; i++) {
		svs[i].v = &m.vmas[first + i];
		if (sense_pagemap_scan(&pm, &svs[i], o->map, err) < 0) {
			int e = errno;
			vmr_err("sense pagemap: process %d: %s", (int)pid, err);
			rc = sense_pagemap_errno_rc(e);
			goto free_vmas;
		}
		total.pfn_known |= svs[i].c.pfn_known;
		total.thp_known |= svs[i].c.thp_known;
	}
	total.thp_known = pm.kpf_fd >= 0;
	rc = sense_pagemap_output(o, pid, svs, n, &total, pm.page_size);
free_vmas:
	for (size_t i = 0; i < n; i++)
		free(svs[i].state);
	free(svs);
	pagemap_close(&pm);
free_maps:
	maps_free(&m);
	return rc;
}

/* --- system --- */

/* "thp.enabled: madvise" lines from the nested fingerprint. */
static void sense_flatten(const char *prefix, json_t *j)
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

static int sense_system(struct sense_opts *o, char **pos, int npos)
{
	json_t *j = system_fingerprint();
	if (o->json)
		return cmd_print_json(j);
	sense_flatten("", j);
	json_decref(j);
	return VMR_EXIT_OK;
}

/* --- vmstat --- */

static const char *const sense_vmstat_default[] = {
	"nr_free_pages", "pswpin", "pswpout", "pgfault", "pgmajfault", "pgscan_kswapd",
	"pgscan_direct", "pgsteal_kswapd", "pgsteal_direct", "compact_stall", "thp_fault_alloc",
	"workingset_refault_anon", "workingset_refault_file", "oom_kill",
};

static volatile sig_atomic_t sense_stop;

static void sense_on_signal(int sig)
{
	sense_stop = 1;
}

struct sense_fields {
	struct strlist names;
	long *idx;
};

/* The counters to show: --fields (each must exist) or the defaults the
 * kernel has. */
static int sense_vmstat_fields(struct sense_opts *o, const struct vmstat *s, struct sense_fields *f)
{
	if (o->fields) {
		char *copy = xstrdup(o->fields), *save = NULL;
		for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (vmstat_index(s, t) < 0) {
				vmr_err("sense vmstat: --fields: no counter '%s' in /proc/vmstat", t);
				free(copy);
				return -1;
			}
			strlist_add(&f->names, t);
		}
		free(copy);
		if (!f->names.n) {
			vmr_err("sense vmstat: --fields: '%s' names no counter", o->fields);
			return -1;
		}
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(sense_vmstat_default); i++)
			if (vmstat_index(s, sense_vmstat_default[i]) >= 0)
				strlist_add(&f->names, sense_vmstat_default[i]);
	}
	f->idx = xcalloc(f->names.n, sizeof(*f->idx));
	for (size_t i = 0; i < f->names.n; i++)
		f->idx[i] = -1;
	return 0;
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

static void sense_vmstat_header(const struct sense_fields *f)
{
	printf("%8s", "time_s");
	for (size_t i = 0; i < f->names.n; i++)
		printf(" %*s", (int)(strlen(f->names.v[i]) > 10 ? strlen(f->names.v[i]) : 10), f->names.v[i]);
	putchar('\n');
}

static void sense_vmstat_row(double t, const struct vmstat *before, const struct vmstat *after,
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

static void sense_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };
	nanosleep(&ts, NULL);   /* a signal cuts it short: sense_stop says why */
}

static int sense_vmstat_loop(struct sense_opts *o, struct vmstat *a, struct vmstat *b,
			     struct sense_fields *f, json_t *samples)
{
	char err[PROBE_ERR_MAX] = "";
	uint64_t t0 = vmr_now_ns();
	for (long n = 0; !sense_stop && (o->count == 0 || n < o->count); n++) {
		sense_sleep_ns(o->interval_ns);
		if (sense_stop)
			break;
		if (vmstat_read(b, NULL, err) < 0) {
			vmr_err("/proc/vmstat: %s", err);
			return VMR_EXIT_CANNOT;
		}
		sense_vmstat_row((double)(vmr_now_ns() - t0) / 1e9, a, b, f, samples);
		struct vmstat t = *a;
		*a = *b;
		*b = t;
	}
	return VMR_EXIT_OK;
}

static int sense_vmstat(struct sense_opts *o, char **pos, int npos)
{
	struct vmstat a = { 0 }, b = { 0 };
	struct sense_fields f = { 0 };
	struct sigaction sa = { .sa_handler = sense_on_signal }, old_int, old_term;
	char err[PROBE_ERR_MAX] = "";
	int rc = VMR_EXIT_CANNOT;
	json_t *samples = o->json ? json_array() : NULL;
	vmstat_init(&a);
	vmstat_init(&b);
	if (vmstat_read(&a, NULL, err) < 0) {
		vmr_err("/proc/vmstat: %s", err);
		goto free_snapshots;
	}
	if (sense_vmstat_fields(o, &a, &f) < 0) {
		rc = VMR_EXIT_USAGE;
		goto free_snapshots;
	}
	if (!o->json)
		sense_vmstat_header(&f);
	/* Ctrl-C ends sampling; with --json the samples so far are printed. */
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = sense_vmstat_loop(o, &a, &b, &f, samples);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (rc == VMR_EXIT_OK && samples) {
		rc = cmd_print_json(samples);
		samples = NULL;
	}
free_snapshots:
	json_decref(samples);
	strlist_free(&f.names);
	free(f.idx);
	vmstat_free(&a);
	vmstat_free(&b);
	return rc;
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

static int sense_thp(struct sense_opts *o, char **pos, int npos)
{
	struct thp t = { 0 };
	char err[PROBE_ERR_MAX] = "";
	const char *root = o->root ? o->root : THP_ROOT;
	if (thp_read(&t, root, err) < 0) {
		vmr_err("sense thp: %s%s", err,
			errno == ENOENT ? " (this kernel has no transparent huge pages)" : "");
		return VMR_EXIT_CANNOT;
	}
	if (o->json) {
		json_t *j = thp_json(&t, true);
		thp_free(&t);
		return cmd_print_json(j);
	}
	sense_dir_text("THP settings", &t.settings);
	putchar('\n');
	sense_dir_text("khugepaged", &t.khugepaged);
	putchar('\n');
	sense_thp_sizes_text(&t, root);
	thp_free(&t);
	return VMR_EXIT_OK;
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

static int sense_swap(struct sense_opts *o, char **pos, int npos)
{
	struct swapinfo s = { 0 };
	swapinfo_read(&s);
	if (o->json) {
		json_t *j = swapinfo_json(&s);
		swapinfo_free(&s);
		return cmd_print_json(j);
	}
	sense_swap_devices_text(s.devices);
	printf("\nswap settings\n");
	printf("  %-28s %s\n", "vma_ra_enabled", s.vma_ra_enabled < 0 ? "not in this kernel" : s.vma_ra_enabled ? "true" : "false");
	if (s.page_cluster >= 0)
		printf("  %-28s %" PRId64 "\n", "vm.page-cluster", s.page_cluster);
	printf("\nmeminfo\n");
	sense_swap_bytes_text(&s.meminfo);
	putchar('\n');
	sense_dir_text("vmstat (since boot)", &s.vmstat);
	if (!sysfs_dir_get(&s.vmstat, "swpout_zero"))
		printf("  %-28s not in this kernel (6.12 on)\n", "swpin_zero, swpout_zero");
	putchar('\n');
	sense_swap_zswap_text(&s);
	putchar('\n');
	sense_swap_zram_text(&s);
	swapinfo_free(&s);
	return VMR_EXIT_OK;
}

/* --- lru_gen --- */

static int sense_lru_gen(struct sense_opts *o, char **pos, int npos)
{
	struct lru_gen g = { 0 };
	char err[PROBE_ERR_MAX] = "";
	const char *root = o->root ? o->root : LRU_GEN_ROOT;
	if (lru_gen_read(&g, root, err) < 0) {
		if (errno == ENOENT)
			vmr_err("sense lru_gen: not in this kernel (no %s: built without CONFIG_LRU_GEN, or "
				"older than 6.1)", root);
		else
			vmr_err("sense lru_gen: %s/enabled: %s", root, err);
		return VMR_EXIT_CANNOT;
	}
	if (o->json)
		return cmd_print_json(lru_gen_json(&g));
	printf("multi-generational LRU (%s)\n", root);
	printf("  %-28s 0x%04" PRIx64 "\n", "enabled", g.enabled);
	printf("  %-28s %s\n", "core (0x0001)", g.enabled & LRU_GEN_CORE ? "on" : "off");
	printf("  %-28s %s\n", "mm_walk (0x0002)", g.enabled & LRU_GEN_MM_WALK ? "on" : "off");
	printf("  %-28s %s\n", "nonleaf_young (0x0004)", g.enabled & LRU_GEN_NONLEAF_YOUNG ? "on" : "off");
	if (g.have_min_ttl)
		printf("  %-28s %" PRIu64 "\n", "min_ttl_ms", g.min_ttl_ms);
	else
		printf("  %-28s -\n", "min_ttl_ms");
	return VMR_EXIT_OK;
}

/* --- the command --- */

static const struct {
	const char *name;
	int (*fn)(struct sense_opts *o, char **pos, int npos);
	int npos;               /* words including the view's name */
} sense_views[] = {
	{ "zones", sense_zones, 1 },
	{ "structsizes", sense_structsizes, 1 },
	{ "kvirtual", sense_kvirtual, 1 },
	{ "pagemap", sense_pagemap, 0 },  /* checks its own PID argument */
	{ "system", sense_system, 1 },
	{ "vmstat", sense_vmstat, 1 },
	{ "thp", sense_thp, 1 },
	{ "swap", sense_swap, 1 },
	{ "lru_gen", sense_lru_gen, 1 },
};

int cmd_sense(int argc, char **argv)
{
	struct sense_opts o = { 0 };
	struct optset set = { sense_cmd_opts, &o, "Options" };
	char **pos = xcalloc((size_t)argc + 1, sizeof(*pos));
	int npos, rc = VMR_EXIT_USAGE;
	bool help = false;
	OPT_DEFAULTS(sense_cmd_opts, &o);
	if (opt_parse(&set, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_opts;
	if (help) {
		cmd_help(stdout, cmd_find("sense"));
		rc = VMR_EXIT_OK;
		goto free_opts;
	}
	if (npos == 0) {
		vmr_err("sense: which view? zones|structsizes|kvirtual|pagemap PID|system|vmstat|thp|swap|lru_gen");
		goto free_opts;
	}
	for (size_t i = 0; i < ARRAY_SIZE(sense_views); i++) {
		if (strcmp(pos[0], sense_views[i].name))
			continue;
		if (sense_views[i].npos && npos != sense_views[i].npos)
			vmr_err("sense %s: unexpected argument '%s'", pos[0], pos[1]);
		else
			rc = sense_views[i].fn(&o, pos, npos);
		goto free_opts;
	}
	vmr_err("sense: unknown view '%s' (zones|structsizes|kvirtual|pagemap|system|vmstat|thp|swap|lru_gen)", pos[0]);
free_opts:
	opt_free(sense_cmd_opts, &o);
	free(pos);
	return rc;
}
