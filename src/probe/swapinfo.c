/* Swap devices, readahead, zero-page swap, zswap and zram. */
#include "probe/swapinfo.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "probe/meminfo.h"
#include "probe/system.h"
#include "probe/vmstat.h"

const char *const zram_mm_stat_names[ZRAM_MM_STAT_MAX] = {
	"orig_data_size", "compr_data_size", "mem_used_total", "mem_limit", "mem_used_max",
	"same_pages", "pages_compacted", "huge_pages", "huge_pages_since",
};

int zram_mm_stat_parse(struct zram_mm_stat *m, const char *buf, size_t len, char *err)
{
	const char *p = buf, *end = buf + len;
	uint64_t v;
	memset(m, 0, sizeof(*m));
	if (end > p && end[-1] == '\n')
		end--;
	if (memchr(p, '\n', (size_t)(end - p))) {
		probe_err(err, 0, "more than one line");
		return -1;
	}
	for (;;) {
		probe_skip_space(&p, end);
		if (p == end)
			break;
		if (probe_u64(&p, end, &v) < 0 || (p < end && *p != ' ' && *p != '\t')) {
			probe_err(err, 1, "column %zu is not a number", m->n + 1);
			return -1;
		}
		if (m->n < ZRAM_MM_STAT_MAX)
			m->v[m->n] = v;
		m->n++;
	}
	if (m->n < ZRAM_MM_STAT_MIN) {
		probe_err(err, 1, "%zu columns, expected at least %d", m->n, ZRAM_MM_STAT_MIN);
		return -1;
	}
	if (m->n > ZRAM_MM_STAT_MAX)
		m->n = ZRAM_MM_STAT_MAX;        /* a newer kernel's extra columns: not known here */
	return 0;
}

bool swapinfo_vmstat_name(const char *name)
{
	static const char *const pats[] = { "pswpin", "pswpout", "swpin_zero", "swpout_zero", "zswp*",
					    "swap_ra*", "thp_swpout*" };
	for (size_t i = 0; i < ARRAY_SIZE(pats); i++)
		if (fnmatch(pats[i], name, 0) == 0)
			return true;
	return false;
}

static void swapinfo_add(struct sysfs_dir *d, const char *name, uint64_t v)
{
	struct sysfs_value sv = { .is_number = true, .number = v };
	snprintf(sv.name, sizeof(sv.name), "%s", name);
	snprintf(sv.value, sizeof(sv.value), "%" PRIu64, v);
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	d->v[d->n++] = sv;
}

static void swapinfo_counters(struct swapinfo *s)
{
	static const char *const mem[] = { "SwapTotal", "SwapFree", "SwapCached", "Zswap", "Zswapped" };
	struct meminfo mi = { 0 };
	struct vmstat vs = { 0 };
	char err[PROBE_ERR_MAX] = "";
	uint64_t v;
	if (meminfo_read(&mi, NULL, err) == 0)
		for (size_t i = 0; i < ARRAY_SIZE(mem); i++)
			if (meminfo_get(&mi, mem[i], &v) == 0)
				swapinfo_add(&s->meminfo, mem[i], v);
	meminfo_free(&mi);
	vmstat_init(&vs);
	if (vmstat_read(&vs, NULL, err) == 0)
		for (size_t i = 0; i < vs.n; i++)
			if (swapinfo_vmstat_name(vs.items[i].name))
				swapinfo_add(&s->vmstat, vs.items[i].name, vs.items[i].value);
	vmstat_free(&vs);
}

static void swapinfo_zram_one(struct swapinfo *s, int id)
{
	char path[96] = "", *buf, err[PROBE_ERR_MAX] = "";
	size_t len;
	struct swapinfo_zram z = { .id = id };
	struct sysfs_value alg = { .name = "" };
	snprintf(path, sizeof(path), "/sys/block/zram%d/disksize", id);
	vmr_read_u64(path, &z.disksize_bytes);
	snprintf(path, sizeof(path), "/sys/block/zram%d/comp_algorithm", id);
	if (vmr_read_file(path, &buf, &len) == 0) {
		if (sysfs_value_parse(&alg, buf, len, err) == 0)
			snprintf(z.algorithm, sizeof(z.algorithm), "%s", alg.value);
		free(buf);
	}
	snprintf(path, sizeof(path), "/sys/block/zram%d/mm_stat", id);
	if (vmr_read_file(path, &buf, &len) == 0) {
		z.have_mm = zram_mm_stat_parse(&z.mm, buf, len, err) == 0;
		free(buf);
	}
	s->zram = xrealloc(s->zram, (s->nzram + 1) * sizeof(*s->zram));
	s->zram[s->nzram++] = z;
}

static int swapinfo_zram_cmp(const void *a, const void *b)
{
	return ((const struct swapinfo_zram *)a)->id - ((const struct swapinfo_zram *)b)->id;
}

static void swapinfo_zrams(struct swapinfo *s)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	if (!d)
		return;
	while ((de = readdir(d))) {
		char *end;
		if (strncmp(de->d_name, "zram", 4) || !de->d_name[4])
			continue;
		long id = strtol(de->d_name + 4, &end, 10);
		if (!*end && id >= 0 && id < 100000)
			swapinfo_zram_one(s, (int)id);
	}
	closedir(d);
	if (s->nzram)
		qsort(s->zram, s->nzram, sizeof(*s->zram), swapinfo_zram_cmp);
}

static int64_t swapinfo_number(const char *path)
{
	char *line;
	int64_t v = -1;
	if (vmr_read_line(path, &line) < 0)
		return -1;
	if (!strcmp(line, "true") || !strcmp(line, "1"))
		v = 1;
	else if (!strcmp(line, "false") || !strcmp(line, "0"))
		v = 0;
	else
		v = strtoll(line, NULL, 10);
	free(line);
	return v;
}

void swapinfo_read(struct swapinfo *s)
{
	char *buf, err[PROBE_ERR_MAX] = "";
	size_t len;
	memset(s, 0, sizeof(*s));
	if (vmr_read_file("/proc/swaps", &buf, &len) == 0) {
		s->devices = system_parse_swaps(buf, len, err);
		free(buf);
	}
	swapinfo_counters(s);
	s->have_zswap = sysfs_dir_read(&s->zswap, SWAPINFO_ZSWAP_PARAMS, NULL) == 0;
	s->have_zswap_debugfs = sysfs_dir_read(&s->zswap_debugfs, SWAPINFO_ZSWAP_DEBUGFS, NULL) == 0;
	s->vma_ra_enabled = swapinfo_number("/sys/kernel/mm/swap/vma_ra_enabled");
	s->page_cluster = swapinfo_number("/proc/sys/vm/page-cluster");
	swapinfo_zrams(s);
}

void swapinfo_free(struct swapinfo *s)
{
	json_decref(s->devices);
	sysfs_dir_free(&s->meminfo);
	sysfs_dir_free(&s->vmstat);
	sysfs_dir_free(&s->zswap);
	sysfs_dir_free(&s->zswap_debugfs);
	free(s->zram);
	memset(s, 0, sizeof(*s));
}

static json_t *swapinfo_int_or_null(int64_t v)
{
	return v >= 0 ? json_integer((json_int_t)v) : json_null();
}

static json_t *swapinfo_zram_json(const struct swapinfo_zram *z)
{
	json_t *mm = json_null();
	if (z->have_mm) {
		mm = json_object();
		for (size_t i = 0; i < z->mm.n; i++)
			json_object_set_new(mm, zram_mm_stat_names[i], json_integer((json_int_t)z->mm.v[i]));
	}
	char dev[32];
	snprintf(dev, sizeof(dev), "/dev/zram%d", z->id);
	return json_pack("{s:s, s:I, s:o, s:o}", "device", dev, "disksize_bytes", (json_int_t)z->disksize_bytes,
			 "algorithm", z->algorithm[0] ? json_string(z->algorithm) : json_null(), "mm_stat", mm);
}

json_t *swapinfo_json(const struct swapinfo *s)
{
	json_t *zram = json_array();
	for (size_t i = 0; i < s->nzram; i++)
		json_array_append_new(zram, swapinfo_zram_json(&s->zram[i]));
	json_t *zswap = json_pack("{s:b, s:o, s:o}", "available", s->have_zswap,
				  "parameters", s->have_zswap ? sysfs_dir_json(&s->zswap, NULL) : json_null(),
				  "debugfs", s->have_zswap_debugfs ? sysfs_dir_json(&s->zswap_debugfs, NULL) : json_null());
	return json_pack("{s:O, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "devices", s->devices ? s->devices : json_null(),
			 "vma_ra_enabled", s->vma_ra_enabled < 0 ? json_null() : json_boolean(s->vma_ra_enabled),
			 "page_cluster", swapinfo_int_or_null(s->page_cluster),
			 "meminfo_bytes", sysfs_dir_json(&s->meminfo, NULL),
			 "vmstat", sysfs_dir_json(&s->vmstat, NULL), "zswap", zswap, "zram", zram);
}
