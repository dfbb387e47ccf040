/* Directories of one-value sysfs files. */
#include "probe/sysfsdir.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util.h"

/* "a [b] c" -> "b"; the text itself when there are no brackets. */
static int sysfs_select(struct sysfs_value *v, const char *p, size_t n, char *err)
{
	const char *open = memchr(p, '[', n);
	if (!open) {
		memcpy(v->value, p, n);
		v->value[n] = '\0';
		return 0;
	}
	const char *close = memchr(open, ']', (size_t)(p + n - open));
	if (!close || close == open + 1) {
		probe_err(err, 1, "a '[' without a word and ']'");
		return -1;
	}
	if (memchr(close, '[', (size_t)(p + n - close))) {
		probe_err(err, 1, "more than one bracketed choice");
		return -1;
	}
	size_t w = (size_t)(close - open - 1);
	memcpy(v->value, open + 1, w);
	v->value[w] = '\0';
	return 0;
}

static void sysfs_number(struct sysfs_value *v)
{
	const char *p = v->value, *end = v->value + strlen(v->value);
	v->is_number = probe_u64(&p, end, &v->number) == 0 && p == end && v->value[0] != ' ';
	if (!v->is_number)
		v->number = 0;
}

int sysfs_value_parse(struct sysfs_value *v, const char *buf, size_t len, char *err)
{
	size_t n = len;
	if (n && buf[n - 1] == '\n')
		n--;
	while (n && buf[n - 1] == ' ')
		n--;
	if (n == 0) {
		probe_err(err, 0, "empty");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (c == '\n') {
			probe_err(err, 0, "more than one line");
			return -1;
		}
		if (c < 0x20 || c == 0x7f) {
			probe_err(err, 1, "a control byte (0x%02x)", c);
			return -1;
		}
	}
	if (n >= SYSFS_VALUE_MAX) {
		probe_err(err, 1, "longer than %d bytes", SYSFS_VALUE_MAX - 1);
		return -1;
	}
	if (sysfs_select(v, buf, n, err) < 0)
		return -1;
	sysfs_number(v);
	return 0;
}

static void sysfs_dir_add(struct sysfs_dir *d, const struct sysfs_value *v)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	d->v[d->n++] = *v;
}

static int sysfs_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sysfs_value *)a)->name, ((const struct sysfs_value *)b)->name);
}

/* One file into d; files that do not read or parse are left out. */
static void sysfs_dir_file(struct sysfs_dir *d, const char *dir, const char *name)
{
	struct sysfs_value v = { .name = "" };
	struct stat st = { 0 };
	char *path = xasprintf("%s/%s", dir, name), *buf = NULL, err[PROBE_ERR_MAX] = "";
	size_t len;
	if (strlen(name) < sizeof(v.name) && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    (st.st_mode & 0444) && vmr_read_file(path, &buf, &len) == 0 &&
	    sysfs_value_parse(&v, buf, len, err) == 0) {
		snprintf(v.name, sizeof(v.name), "%s", name);
		sysfs_dir_add(d, &v);
	}
	free(buf);
	free(path);
}

int sysfs_dir_read(struct sysfs_dir *d, const char *dir, char *err)
{
	DIR *dh = opendir(dir);
	struct dirent *de;
	d->n = 0;
	if (!dh) {
		int e = errno;
		probe_err(err, 0, "cannot read %s: %s", dir, strerror(e));
		errno = e;
		return -1;
	}
	while ((de = readdir(dh)))
		if (de->d_name[0] != '.')
			sysfs_dir_file(d, dir, de->d_name);
	closedir(dh);
	if (d->n)
		qsort(d->v, d->n, sizeof(*d->v), sysfs_cmp);
	return 0;
}

void sysfs_dir_free(struct sysfs_dir *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

const struct sysfs_value *sysfs_dir_get(const struct sysfs_dir *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->v[i].name, name))
			return &d->v[i];
	return NULL;
}

json_t *sysfs_value_json(const struct sysfs_value *v)
{
	return v->is_number ? json_integer((json_int_t)v->number) : json_string(v->value);
}

static bool sysfs_skipped(const char *name, const char *const *skip)
{
	for (; skip && *skip; skip++)
		if (fnmatch(*skip, name, 0) == 0)
			return true;
	return false;
}

json_t *sysfs_dir_json(const struct sysfs_dir *d, const char *const *skip)
{
	json_t *o = json_object();
	for (size_t i = 0; i < d->n; i++)
		if (!sysfs_skipped(d->v[i].name, skip))
			json_object_set_new(o, d->v[i].name, sysfs_value_json(&d->v[i]));
	return o;
}
