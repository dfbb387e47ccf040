/* Transparent huge pages, global and per multi-size THP size. */
#include "probe/thp.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int thp_parse_size_name(const char *name, uint64_t *size_kb)
{
	const char *p = name, *end = name + strlen(name);
	uint64_t kb;
	if (!probe_lit(&p, end, "hugepages-") || p >= end || *p < '1' || *p > '9' ||
	    probe_u64(&p, end, &kb) < 0 || strcmp(p, "kB") || kb > UINT64_MAX / 1024)
		return -1;
	*size_kb = kb;
	return 0;
}

void thp_size_label(uint64_t size_kb, char *out, size_t outlen)
{
	if (size_kb >= 1024 * 1024 && size_kb % (1024 * 1024) == 0)
		snprintf(out, outlen, "%" PRIu64 "G", size_kb / (1024 * 1024));
	else if (size_kb >= 1024 && size_kb % 1024 == 0)
		snprintf(out, outlen, "%" PRIu64 "M", size_kb / 1024);
	else
		snprintf(out, outlen, "%" PRIu64 "K", size_kb);
}

static int thp_size_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct thp_size *)a)->size_kb, y = ((const struct thp_size *)b)->size_kb;
	return x < y ? -1 : x > y;
}

static int thp_read_size(struct thp_size *s, const char *dir, char *err)
{
	char *stats = xasprintf("%s/stats", dir);
	int r = sysfs_dir_read(&s->settings, dir, err);
	if (r == 0)
		s->have_stats = sysfs_dir_read(&s->stats, stats, NULL) == 0;
	free(stats);
	return r;
}

static int thp_read_sizes(struct thp *t, const char *root, char *err)
{
	DIR *d = opendir(root);
	struct dirent *de;
	uint64_t kb;
	if (!d) {
		int e = errno;
		probe_err(err, 0, "cannot read %s: %s", root, strerror(e));
		errno = e;
		return -1;
	}
	while ((de = readdir(d))) {
		if (thp_parse_size_name(de->d_name, &kb) < 0)
			continue;
		t->sizes = xrealloc(t->sizes, (t->nsizes + 1) * sizeof(*t->sizes));
		struct thp_size *s = &t->sizes[t->nsizes];
		memset(s, 0, sizeof(*s));
		s->size_kb = kb;
		char *dir = xasprintf("%s/%s", root, de->d_name);
		int r = thp_read_size(s, dir, err);
		free(dir);
		if (r < 0) {
			closedir(d);
			return -1;
		}
		t->nsizes++;
	}
	closedir(d);
	if (t->nsizes)
		qsort(t->sizes, t->nsizes, sizeof(*t->sizes), thp_size_cmp);
	return 0;
}

int thp_read(struct thp *t, const char *root, char *err)
{
	memset(t, 0, sizeof(*t));
	root = root ? root : THP_ROOT;
	if (sysfs_dir_read(&t->settings, root, err) < 0)
		return -1;
	char *kh = xasprintf("%s/khugepaged", root);
	sysfs_dir_read(&t->khugepaged, kh, NULL);     /* absent without CONFIG_TRANSPARENT_HUGEPAGE's daemon */
	free(kh);
	if (thp_read_sizes(t, root, err) < 0) {
		int e = errno;
		thp_free(t);
		errno = e;
		return -1;
	}
	return 0;
}

void thp_free(struct thp *t)
{
	for (size_t i = 0; i < t->nsizes; i++) {
		sysfs_dir_free(&t->sizes[i].settings);
		sysfs_dir_free(&t->sizes[i].stats);
	}
	free(t->sizes);
	sysfs_dir_free(&t->settings);
	sysfs_dir_free(&t->khugepaged);
	memset(t, 0, sizeof(*t));
}

const struct thp_size *thp_find_size(const struct thp *t, uint64_t size_kb)
{
	for (size_t i = 0; i < t->nsizes; i++)
		if (t->sizes[i].size_kb == size_kb)
			return &t->sizes[i];
	return NULL;
}

int thp_size_stat(const struct thp_size *s, const char *name, uint64_t *v)
{
	const struct sysfs_value *sv = sysfs_dir_get(&s->stats, name);
	if (!sv || !sv->is_number)
		return -1;
	*v = sv->number;
	return 0;
}

json_t *thp_json(const struct thp *t, bool with_counters)
{
	static const char *const kh_counters[] = { "full_scans", "pages_collapsed", NULL };
	json_t *sizes = json_object();
	for (size_t i = 0; i < t->nsizes; i++) {
		const struct thp_size *s = &t->sizes[i];
		char label[24];
		thp_size_label(s->size_kb, label, sizeof(label));
		json_t *o = sysfs_dir_json(&s->settings, NULL);
		json_object_set_new(o, "size_kb", json_integer((json_int_t)s->size_kb));
		if (with_counters)
			json_object_set_new(o, "stats", s->have_stats ? sysfs_dir_json(&s->stats, NULL) : json_null());
		json_object_set_new(sizes, label, o);
	}
	return json_pack("{s:o, s:o, s:o}", "settings", sysfs_dir_json(&t->settings, NULL),
			 "khugepaged", sysfs_dir_json(&t->khugepaged, with_counters ? NULL : kh_counters),
			 "sizes", sizes);
}

static int thp_size_file(const char *root, uint64_t size_kb, const char *name, struct sysfs_value *v, char *err)
{
	char *path = xasprintf("%s/hugepages-%" PRIu64 "kB/%s", root ? root : THP_ROOT, size_kb, name), *buf;
	size_t len;
	int r = probe_read_file(path, &buf, &len, err);
	int e = errno;
	free(path);
	if (r < 0) {
		errno = e;
		return -1;
	}
	r = sysfs_value_parse(v, buf, len, err);
	free(buf);
	errno = r < 0 ? EINVAL : 0;
	return r;
}

int thp_anon_policy(const char *root, uint64_t size_kb, char *out, size_t outlen, char *err)
{
	struct sysfs_value v = { .name = "" };
	if (thp_size_file(root, size_kb, "enabled", &v, err) < 0)
		return -1;
	if (!strcmp(v.value, "inherit")) {
		char *path = xasprintf("%s/enabled", root ? root : THP_ROOT), *buf;
		size_t len;
		int r = probe_read_file(path, &buf, &len, err);
		free(path);
		if (r < 0)
			return -1;
		r = sysfs_value_parse(&v, buf, len, err);
		free(buf);
		if (r < 0)
			return -1;
	}
	snprintf(out, outlen, "%s", v.value);
	return 0;
}

int thp_size_stats_read(const char *root, uint64_t size_kb, struct sysfs_dir *d, char *err)
{
	char *dir = xasprintf("%s/hugepages-%" PRIu64 "kB/stats", root ? root : THP_ROOT, size_kb);
	int r = sysfs_dir_read(d, dir, err);
	int e = errno;
	free(dir);
	errno = e;
	return r;
}

int thp_parse_label(const char *s, uint64_t *size_kb)
{
	const char *p = s, *end = s + strlen(s);
	uint64_t n;
	if (p >= end || *p < '1' || *p > '9' || probe_u64(&p, end, &n) < 0 || end - p != 1 || n > (1u << 20))
		return -1;
	uint64_t mul = *p == 'K' ? 1 : *p == 'M' ? 1024 : *p == 'G' ? 1024 * 1024 : 0;
	if (!mul)
		return -1;
	*size_kb = n * mul;
	return 0;
}

const char *const thp_sampler_names[] = {
	"anon_fault_alloc", "anon_fault_fallback", "swpout", "swpout_fallback", "swpin", "swpin_fallback",
	"split", "zswpout", NULL,
};

void thp_sampler_start(struct thp_sampler *s, const char *root)
{
	struct thp t = { 0 };
	char pol[32];
	thp_sampler_free(s);
	if (thp_read(&t, root, NULL) < 0)
		return;
	for (size_t i = 0; i < t.nsizes && s->n < THP_SAMPLER_MAX; i++) {
		if (!t.sizes[i].have_stats || thp_anon_policy(root, t.sizes[i].size_kb, pol, sizeof(pol), NULL) < 0 ||
		    !strcmp(pol, "never"))
			continue;
		s->kb[s->n] = t.sizes[i].size_kb;
		thp_size_stats_read(root, s->kb[s->n], &s->prev[s->n], NULL);
		s->n++;
	}
	thp_free(&t);
}

void thp_sampler_sample(struct thp_sampler *s, const char *root,
			void (*emit)(void *arg, const char *name, double change), void *arg)
{
	for (size_t i = 0; i < s->n; i++) {
		char label[24], name[64];
		if (thp_size_stats_read(root, s->kb[i], &s->cur[i], NULL) < 0)
			continue;
		thp_size_label(s->kb[i], label, sizeof(label));
		for (const char *const *n = thp_sampler_names; *n; n++) {
			const struct sysfs_value *a = sysfs_dir_get(&s->prev[i], *n), *b = sysfs_dir_get(&s->cur[i], *n);
			if (!a || !b || !a->is_number || !b->is_number)
				continue;
			snprintf(name, sizeof(name), "%s.%s", label, *n);
			emit(arg, name, (double)(int64_t)(b->number - a->number));
		}
		struct sysfs_dir t = s->prev[i];
		s->prev[i] = s->cur[i];
		s->cur[i] = t;
	}
}

void thp_sampler_free(struct thp_sampler *s)
{
	for (size_t i = 0; i < THP_SAMPLER_MAX; i++) {
		sysfs_dir_free(&s->prev[i]);
		sysfs_dir_free(&s->cur[i]);
	}
	s->n = 0;
}
