/* sysctls under /proc/sys. */
#include "probe/sysctl.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util.h"

char *sysctl_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/sys/%s", name);
	for (char *p = buf + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
	return buf;
}

/* Trailing newlines go, tabs between fields become spaces. */
static void sysctl_tidy(char *v)
{
	size_t n = strlen(v);
	while (n && (v[n - 1] == '\n' || v[n - 1] == ' '))
		v[--n] = '\0';
	for (char *p = v; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
}

int sysctl_get(const char *name, char **value, char *err)
{
	char path[512];
	size_t len;
	if (probe_read_file(sysctl_path(name, path, sizeof(path)), value, &len, err) < 0)
		return -1;
	sysctl_tidy(*value);
	return 0;
}

static void sysctl_add(struct sysctl_list *l, const char *name, char *value)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->items = xrealloc(l->items, l->cap * sizeof(*l->items));
	}
	l->items[l->n].name = xstrdup(name);
	l->items[l->n].value = value;
	l->n++;
}

static int sysctl_walk(struct sysctl_list *l, const char *dir, const char *prefix, char *err)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	if (!d) {
		probe_err(err, 0, "cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		struct stat st = { 0 };
		if (de->d_name[0] == '.')
			continue;
		char *path = xasprintf("%s/%s", dir, de->d_name);
		char *name = xasprintf("%s.%s", prefix, de->d_name);
		char *value;
		size_t len;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			sysctl_walk(l, path, name, NULL);
		else if (stat(path, &st) == 0 && (st.st_mode & 0444) &&
			 vmr_read_file(path, &value, &len) == 0) {
			sysctl_tidy(value);
			sysctl_add(l, name, value);
		}
		free(path);
		free(name);
	}
	closedir(d);
	return 0;
}

static int sysctl_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sysctl_item *)a)->name, ((const struct sysctl_item *)b)->name);
}

int sysctl_read_all(struct sysctl_list *l, const char *prefix, char *err)
{
	char dir[512];
	memset(l, 0, sizeof(*l));
	if (sysctl_walk(l, sysctl_path(prefix, dir, sizeof(dir)), prefix, err) < 0)
		return -1;
	qsort(l->items, l->n, sizeof(*l->items), sysctl_cmp);
	return 0;
}

void sysctl_list_free(struct sysctl_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->items[i].name);
		free(l->items[i].value);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

const char *sysctl_list_get(const struct sysctl_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].name, name))
			return l->items[i].value;
	return NULL;
}

json_t *sysctl_list_json(const struct sysctl_list *l)
{
	json_t *o = json_object();
	for (size_t i = 0; i < l->n; i++)
		json_object_set_new(o, l->items[i].name, json_string(l->items[i].value));
	return o;
}
