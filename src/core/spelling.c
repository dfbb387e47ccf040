#include "core/spelling.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"

/* A metric renamed: its old name (or the prefix of a family, "...-SIZE")
 * in its old unit. */
static const struct {
	const char *old, *unit, *now;
	bool prefix;
} spelling_metrics[] = {
	{ "alloc-rate", "bytes/s", "alloc-byte-rate", false },      /* mtest01 */
	{ "faults-per-sec-", "pages/s", "faultin-per-sec-", true }, /* mthp */
};

static const char *const spelling_units[][2] = {
	{ "ratio", "x" },
};

static const char *const spelling_info_keys[][2] = {
	{ "sandbox-before", "sandbox_before" },
	{ "sandbox-after", "sandbox_after" },
	{ "trace-skipped", "trace_skipped" },
	{ "profile-skipped", "profile_skipped" },
	{ "perf-unsupported", "perf_unsupported" },
	{ "profile-top-kernel-symbols", "profile_top_kernel_symbols" },
};

static const char *const spelling_env_keys[][2] = {
	{ "iterations-auto", "iterations_auto" },
	{ "iterations-auto-reached", "iterations_auto_reached" },
};

const char *spelling_metric(const char *name, const char *unit, char *buf, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(spelling_metrics); i++) {
		size_t n = strlen(spelling_metrics[i].old);
		if (strcmp(unit, spelling_metrics[i].unit) || strncmp(name, spelling_metrics[i].old, n) ||
		    (!spelling_metrics[i].prefix && name[n]))
			continue;
		snprintf(buf, size, "%s%s", spelling_metrics[i].now, name + n);
		return buf;
	}
	return name;
}

const char *spelling_unit(const char *unit)
{
	for (size_t i = 0; i < ARRAY_SIZE(spelling_units); i++)
		if (!strcmp(unit, spelling_units[i][0]))
			return spelling_units[i][1];
	return unit;
}

/* The new spelling wins when a (hand-made) object holds both. */
static void spelling_keys(json_t *o, const char *const (*keys)[2], size_t n)
{
	if (!json_is_object(o))
		return;
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_object_get(o, keys[i][0]);
		if (!v)
			continue;
		if (!json_object_get(o, keys[i][1]))
			json_object_set(o, keys[i][1], v);
		json_object_del(o, keys[i][0]);
	}
}

void spelling_info(json_t *info)
{
	spelling_keys(info, spelling_info_keys, ARRAY_SIZE(spelling_info_keys));
}

void spelling_env(json_t *env)
{
	spelling_keys(env, spelling_env_keys, ARRAY_SIZE(spelling_env_keys));
}
