/* A run's environment with the host's own knob values (hostenv.h). */
#include "harness/hostenv.h"

#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/sandbox.h"

/* The object of env holding knob name's value, and the key in it:
 * "vm.page-cluster" -> env.sysctl, "vm.page-cluster"; "thp.enabled" ->
 * env.thp, "enabled"; "thp.64K.enabled" -> env.thp.sizes.64K, "enabled".
 * NULL for a knob env records elsewhere or not as text. */
static json_t *hostenv_place(json_t *env, const char *name, const char **key)
{
	if (!strncmp(name, "vm.", 3)) {
		*key = name;
		return json_object_get(env, "sysctl");
	}
	if (strncmp(name, "thp.", 4))
		return NULL;
	const char *rest = name + 4, *dot = strchr(rest, '.');
	json_t *thp = json_object_get(env, "thp");
	if (!dot) {
		*key = rest;
		return thp;
	}
	char size[16];
	if ((size_t)(dot - rest) >= sizeof(size))
		return NULL;
	memcpy(size, rest, (size_t)(dot - rest));
	size[dot - rest] = '\0';
	*key = dot + 1;
	return json_object_get(json_object_get(thp, "sizes"), size);
}

static void hostenv_put_back(json_t *env, json_t *others, const char *name, const char *host)
{
	const char *key = NULL;
	json_t *obj = hostenv_place(env, name, &key);
	json_t *now = obj ? json_object_get(obj, key) : NULL;
	if (json_object_get(others, name))
		return;  /* the first journal that changed it knows the host's value */
	json_object_set_new(others, name, json_pack("{ss sO?}", "host", host, "in_force", now));
	if (json_is_string(now))
		json_object_set_new(obj, key, json_string(host));
}

void hostenv_own_values(json_t *env)
{
	json_t *st = NULL, *j, *c, *others = json_object();
	size_t i, k;
	if (!vmr_is_root() || sandbox_status(&st) < 0) {
		json_decref(others);
		return;
	}
	json_array_foreach(json_object_get(st, "journals"), i, j) {
		if (!json_is_true(json_object_get(j, "owner_alive")) ||
		    json_integer_value(json_object_get(j, "owner_pid")) == (json_int_t)getpid())
			continue;
		json_array_foreach(json_object_get(j, "changes"), k, c) {
			const char *what = json_string_value(json_object_get(c, "what"));
			const char *name = json_string_value(json_object_get(c, "path"));
			const char *host = json_string_value(json_object_get(c, "old_value"));
			if (what && !strcmp(what, "knob") && name && host)
				hostenv_put_back(env, others, name, host);
		}
	}
	json_decref(st);
	if (json_object_size(others))
		json_object_set_new(env, "others_knobs", others);
	else
		json_decref(others);
}
