/* Variants read and checked (variant.h); what their settings do to a suite
 * is plan.c's. */
#include "harness/variant.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static bool variant_name_ok(const char *s, size_t n)
{
	if (!n || n > 64)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_.+", s[i]))
			return false;
	return true;
}

static void variant_add(struct variant *v, const char *key, size_t klen, const char *value, size_t vlen)
{
	v->set = xrealloc(v->set, (v->nsettings + 1) * sizeof(*v->set));
	v->set[v->nsettings++] = (struct variant_setting){ .key = xasprintf("%.*s", (int)klen, key),
							   .value = xasprintf("%.*s", (int)vlen, value) };
}

/* One "KEY=VALUE" of a comma-separated list, blanks around it trimmed. */
static int variant_parse_one(struct variant *v, const char *item, size_t len, const char *where)
{
	while (len && isspace((unsigned char)*item))
		item++, len--;
	while (len && isspace((unsigned char)item[len - 1]))
		len--;
	const char *eq = memchr(item, '=', len);
	if (!len || !eq || eq == item) {
		vmr_err("%s %s: '%.*s' is not KEY=VALUE (e.g. vm.page-cluster=0, mem=128M, fault.passes=3)", where,
			v->name, (int)len, item);
		return -1;
	}
	size_t klen = (size_t)(eq - item);
	while (klen && isspace((unsigned char)item[klen - 1]))
		klen--;
	const char *val = eq + 1;
	size_t vlen = len - (size_t)(val - item);
	while (vlen && isspace((unsigned char)*val))
		val++, vlen--;
	for (size_t i = 0; i < v->nsettings; i++)
		if (strlen(v->set[i].key) == klen && !strncmp(v->set[i].key, item, klen)) {
			vmr_err("%s %s: '%.*s' is set twice", where, v->name, (int)klen, item);
			return -1;
		}
	variant_add(v, item, klen, val, vlen);
	return 0;
}

int variant_parse_settings(struct variant *v, const char *name, const char *settings, const char *where)
{
	*v = (struct variant){ .name = xstrdup(name), .settings = xstrdup(settings ? settings : "") };
	if (!variant_name_ok(name, strlen(name))) {
		vmr_err("%s: '%s' is not a variant name (1 to 64 letters, digits and -_.+)", where, name);
		goto fail;
	}
	const char *p = v->settings;
	while (isspace((unsigned char)*p))
		p++;
	while (*p) {
		size_t len = strcspn(p, ",");
		if (variant_parse_one(v, p, len, where) < 0)
			goto fail;
		p += len;
		if (*p == ',' && !*++p) {
			vmr_err("%s %s: a setting is missing after the last comma", where, v->name);
			goto fail;
		}
	}
	return 0;
fail:
	variant_free(v);
	return -1;
}

int variant_parse(struct variant *v, const char *arg, const char *where)
{
	const char *colon = strchr(arg, ':');
	if (!colon) {
		*v = (struct variant){ 0 };
		vmr_err("%s: '%s' is not NAME:SETTINGS (e.g. pc0:vm.page-cluster=0; 'base:' for the suite as it is)",
			where, arg);
		return -1;
	}
	char *name = xasprintf("%.*s", (int)(colon - arg), arg);
	int rc = variant_parse_settings(v, name, colon + 1, where);
	free(name);
	return rc;
}

void variant_free(struct variant *v)
{
	for (size_t i = 0; i < v->nsettings; i++) {
		free(v->set[i].key);
		free(v->set[i].value);
	}
	free(v->set);
	free(v->name);
	free(v->settings);
	*v = (struct variant){ 0 };
}

void variant_copy(struct variant *dst, const struct variant *src)
{
	*dst = (struct variant){ .name = xstrdup(src->name), .settings = xstrdup(src->settings), .line = src->line };
	for (size_t i = 0; i < src->nsettings; i++)
		variant_add(dst, src->set[i].key, strlen(src->set[i].key), src->set[i].value, strlen(src->set[i].value));
}

int variants_check(const struct variant *v, size_t n, const char *where)
{
	if (n == 1) {
		vmr_err("%s: one variant alone compares with nothing (give two or more; the first is the base, "
			"'base:' is the suite as it is)", where);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(v[i].name, v[j].name)) {
				vmr_err("%s: variant name '%s' is given twice", where, v[i].name);
				return -1;
			}
	return 0;
}
