/* The environment diff between compared runs: what differs in the
 * fingerprints (kernel, knobs, hardware, trace settings, per-case options),
 * volatile facts left out, a setting alike in every case one row; and
 * what of it the verdict flags.  See envdiff.h. */
#include "stats/envdiff.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

void cmp_json_flatten(const json_t *j, const char *prefix, struct strlist *keys, struct strlist *values)
{
	if (json_is_object(j)) {
		const char *k;
		json_t *v;
		json_object_foreach((json_t *)j, k, v) {
			char *p = *prefix ? xasprintf("%s.%s", prefix, k) : xstrdup(k);
			cmp_json_flatten(v, p, keys, values);
			free(p);
		}
		return;
	}
	if (json_is_array(j)) {
		size_t i;
		json_t *v;
		json_array_foreach((json_t *)j, i, v) {
			char *p = xasprintf("%s[%zu]", prefix, i);
			cmp_json_flatten(v, p, keys, values);
			free(p);
		}
		return;
	}
	strlist_add(keys, prefix);
	if (json_is_string(j)) {
		strlist_add(values, json_string_value(j));
	} else {
		char *s = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(12));
		strlist_add(values, s ? s : "?");
		free(s);
	}
}

static const char *compare_env_lookup(const struct strlist *keys, const struct strlist *values, const char *key)
{
	for (size_t i = 0; i < keys->n; i++)
		if (!strcmp(keys->v[i], key))
			return values->v[i];
	return NULL;
}

/* Keys naming the machine itself: runs from a fleet's shared store may come
 * from different hardware, and a reader must see that first. */
static bool compare_env_hardware(const char *key)
{
	static const char *const globs[] = { "hostname", "cpu.*", "mem_total_bytes", "numa*", "page_size" };
	for (size_t i = 0; i < ARRAY_SIZE(globs); i++)
		if (fnmatch(globs[i], key, 0) == 0)
			return true;
	return false;
}

/* Keys that change from one boot or one minute to the next say nothing
 * about the setting under test. */
static bool compare_env_volatile(const char *key, const char *value)
{
	/* Names made per process (cgroups, swap files) differ every run. */
	if (value && (!fnmatch("*vmregress-[0-9]*-[0-9]*", value, 0) ||
		      !fnmatch("*sandbox-in-force.swap.device", key, 0)))
		return true;
	static const char *const globs[] = { "*uptime*", "*boot_id*", "*MemFree*", "*MemAvailable*",
					     "*mem_free*", "*mem_available*", "*loadavg*", "*used_bytes*" };
	for (size_t i = 0; i < ARRAY_SIZE(globs); i++)
		if (fnmatch(globs[i], key, FNM_CASEFOLD) == 0)
			return true;
	return false;
}

/* A run from the matrix records how its guest ran under "matrix", one from
 * a LAVA lab how its job ran under "lava": each section is where the run
 * came from, not a setting, and the other run has nothing to set beside it
 * (a board has no "matrix.accel").  So a key of one section is no
 * difference where a run lacks that section but has the other; whether a
 * run ran emulated is said apart (compare_env_flags), from either section. */
static bool compare_env_other_origin(const struct comparison *cmp, const char *key)
{
	static const char *const origins[][2] = { { "matrix", "lava" }, { "lava", "matrix" } };
	for (size_t k = 0; k < ARRAY_SIZE(origins); k++) {
		size_t len = strlen(origins[k][0]);
		if (strncmp(key, origins[k][0], len) || key[len] != '.')
			continue;
		for (size_t i = 0; i < cmp->nruns; i++) {
			const json_t *env = cmp->runs[i]->env;
			if (!json_object_get(env, origins[k][0]) && json_object_get(env, origins[k][1]))
				return true;
		}
	}
	return false;
}

/* The reference trace a case replayed, by what is in it: its header's
 * description (pattern and parameters), size, seed and checksum as the
 * first iteration that opened it recorded them.  NULL if none did; *path is
 * where the file lay.  (Runs stored before the mmap workload named these
 * refs* called the path and description trace and trace_description.)
 * Only a case whose options name a trace replayed one: the others' info
 * is not read (a run read without it loads it per iteration). */
static char *compare_trace_identity(const struct run *r, const struct run_case *c, const char **path)
{
	json_t *wo = json_object_get(c->options, "options");
	*path = NULL;
	if (!json_object_get(wo, "refs") && !json_object_get(wo, "trace"))
		return NULL;
	for (size_t i = 0; i < c->niter; i++) {
		json_t *info = run_iter_info(r, c, i);
		*path = json_string_value(json_object_get(info, "refs"));
		const char *desc = json_string_value(json_object_get(info, "refs_description"));
		if (!*path) {
			*path = json_string_value(json_object_get(info, "trace"));
			desc = json_string_value(json_object_get(info, "trace_description"));
		}
		if (!*path)
			continue;
		json_t *seed = json_object_get(info, "refs_seed"), *crc = json_object_get(info, "refs_checksum");
		char *id = xasprintf("%s, %lld pages, %lld references", desc && *desc ? desc : "(no description)",
				     (long long)json_integer_value(json_object_get(info, "pages")),
				     (long long)json_integer_value(json_object_get(info, "references")));
		if (json_is_integer(seed) && json_is_integer(crc)) {
			char *more = xasprintf("%s, seed %llu, crc32 %08llx", id, (unsigned long long)json_integer_value(seed),
					       (unsigned long long)json_integer_value(crc));
			free(id);
			id = more;
		}
		return id;
	}
	*path = NULL;
	return NULL;
}

/* A trace file's path says where it lay, not what it held: a run's
 * refs-generate makes a new one in a directory of its own every time.  The
 * values from first on that name the case's trace become the trace's
 * identity, so that two runs of the same trace do not differ and two of
 * different traces do.  A generated path with no identity recorded (no
 * iteration got as far) is a difference of nothing: the case's
 * refs-generate, compared as a setting of its own, says what was asked. */
static void compare_case_trace(const struct run *r, const struct run_case *c, struct strlist *vals, size_t first)
{
	const char *path;
	char *id = compare_trace_identity(r, c, &path);
	for (size_t k = first; k < vals->n; k++) {
		char *v = vals->v[k];
		if (id && path && !strcmp(v, path)) {
			vals->v[k] = xstrdup(id);
			free(v);
		} else if (!id && !fnmatch("*/vmregress-traces-[0-9]*-*/*.refs", v, 0)) {
			vals->v[k] = xstrdup("(generated by the run)");
			free(v);
		}
	}
	free(id);
}

/* A case's options are settings too: "case.NAME.OPTION" for each case
 * of the base that the run also has. */
static void compare_case_options(const struct comparison *cmp, size_t ri, const struct compare_opts *o,
				 struct strlist *keys, struct strlist *vals)
{
	const struct run *base = cmp->runs[0];
	for (size_t k = 0; k < base->ncases; k++) {
		const struct run_case *c = compare_find_case(cmp->runs[ri], base->cases[k].name);
		if (!c || !c->options || !compare_glob(o->cases, c->name))
			continue;
		char *prefix = xasprintf("case.%s", c->name);
		size_t first = vals->n;
		cmp_json_flatten(c->options, prefix, keys, vals);
		compare_case_trace(cmp->runs[ri], c, vals, first);
		free(prefix);
		/* What the sandbox really was (knob values in force, swap kind
		 * and size), as the first iteration that ran recorded it. */
		for (size_t i = 0; i < c->niter; i++) {
			json_t *sb = json_object_get(run_iter_info(cmp->runs[ri], c, i), "sandbox");
			if (!json_is_object(sb))
				continue;
			prefix = xasprintf("case.%s.sandbox-in-force", c->name);
			cmp_json_flatten(sb, prefix, keys, vals);
			free(prefix);
			break;
		}
	}
}

/* The case a "case.NAME.REST" key belongs to: the longest case name of
 * the base that fits, so that names with dots work.  Returns REST. */
static const char *compare_key_case(const struct run *base, const char *key, size_t *len)
{
	const char *best = NULL;
	*len = 0;
	if (strncmp(key, "case.", 5))
		return NULL;
	for (size_t k = 0; k < base->ncases; k++) {
		size_t n = strlen(base->cases[k].name);
		if (n > *len && !strncmp(key + 5, base->cases[k].name, n) && key[5 + n] == '.') {
			*len = n;
			best = key + 5 + n + 1;
		}
	}
	return best;
}

static bool compare_same_values(const struct cmp_env_diff *a, const struct cmp_env_diff *b, size_t nruns)
{
	for (size_t i = 0; i < nruns; i++)
		if (strcmp(a->values[i], b->values[i]))
			return false;
	return true;
}

/* A setting that differs the same way in every case (a knob set for the
 * whole run) is one row, "case.*.REST", not one per case. */
static void compare_env_collapse(struct comparison *cmp, size_t ncases)
{
	bool *grouped = xcalloc(cmp->nenv + 1, sizeof(bool));
	const char **rest = xcalloc(cmp->nenv + 1, sizeof(char *));
	for (size_t k = 0; k < cmp->nenv; k++) {
		size_t len;
		rest[k] = ncases > 1 ? compare_key_case(cmp->runs[0], cmp->env[k].key, &len) : NULL;
	}
	for (size_t k = 0; k < cmp->nenv; k++) {
		size_t same = 0;
		for (size_t j = 0; rest[k] && j < cmp->nenv; j++)
			same += rest[j] && !strcmp(rest[j], rest[k]) &&
				compare_same_values(&cmp->env[k], &cmp->env[j], cmp->nruns);
		grouped[k] = rest[k] && same == ncases;
	}
	size_t out = 0;
	struct strlist done = { 0 };
	for (size_t k = 0; k < cmp->nenv; k++) {
		struct cmp_env_diff d = cmp->env[k];
		if (grouped[k]) {
			char *key = xasprintf("case.*.%s", rest[k]);
			if (strlist_has(&done, key)) {
				free(key);
				for (size_t i = 0; i < cmp->nruns; i++)
					free(d.values[i]);
				free(d.values);
				free(d.key);
				continue;
			}
			strlist_add(&done, key);
			free(d.key);
			d.key = key;
		}
		cmp->env[out++] = d;
	}
	cmp->nenv = out;
	strlist_free(&done);
	free(grouped);
	free(rest);
}

/* Cases of the base that every run has (and the filter lets through). */
static size_t compare_shared_cases(const struct comparison *cmp, const struct compare_opts *o)
{
	size_t n = 0;
	for (size_t k = 0; k < cmp->runs[0]->ncases; k++) {
		const char *name = cmp->runs[0]->cases[k].name;
		bool all = compare_glob(o->cases, name);
		for (size_t i = 1; i < cmp->nruns && all; i++)
			all = compare_find_case(cmp->runs[i], name) != NULL;
		n += all;
	}
	return n;
}

/* The first run's value of key, or the first run's that has it. */
static const char *compare_env_first(const struct strlist *keys, const struct strlist *vals, size_t n,
				     const char *key)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = compare_env_lookup(&keys[i], &vals[i], key);
		if (v)
			return v;
	}
	return NULL;
}

void compare_env_diff(struct comparison *cmp, const struct compare_opts *o)
{
	struct strlist *keys = xcalloc(cmp->nruns, sizeof(*keys)), *vals = xcalloc(cmp->nruns, sizeof(*vals));
	struct strlist all = { 0 };
	for (size_t i = 0; i < cmp->nruns; i++) {
		cmp_json_flatten(cmp->runs[i]->env, "", &keys[i], &vals[i]);
		compare_case_options(cmp, i, o, &keys[i], &vals[i]);
		for (size_t k = 0; k < keys[i].n; k++)
			if (!strlist_has(&all, keys[i].v[k]))
				strlist_add(&all, keys[i].v[k]);
	}
	for (size_t k = 0; k < all.n; k++) {
		const char *first = compare_env_lookup(&keys[0], &vals[0], all.v[k]);
		bool differs = false;
		for (size_t i = 1; i < cmp->nruns && !differs; i++) {
			const char *v = compare_env_lookup(&keys[i], &vals[i], all.v[k]);
			differs = !first || !v || strcmp(first, v);
		}
		if (!differs || compare_env_volatile(all.v[k], compare_env_first(keys, vals, cmp->nruns, all.v[k])) ||
		    compare_env_other_origin(cmp, all.v[k]))
			continue;
		cmp->env = xrealloc(cmp->env, (cmp->nenv + 1) * sizeof(*cmp->env));
		struct cmp_env_diff *d = &cmp->env[cmp->nenv++];
		d->key = xstrdup(all.v[k]);
		d->hardware = compare_env_hardware(d->key);
		d->values = xcalloc(cmp->nruns, sizeof(char *));
		for (size_t i = 0; i < cmp->nruns; i++) {
			const char *v = compare_env_lookup(&keys[i], &vals[i], all.v[k]);
			d->values[i] = xstrdup(v ? v : "-");
		}
	}
	for (size_t i = 0; i < cmp->nruns; i++) {
		strlist_free(&keys[i]);
		strlist_free(&vals[i]);
	}
	strlist_free(&all);
	free(keys);
	free(vals);
	compare_env_collapse(cmp, compare_shared_cases(cmp, o));
}

/* A matrix guest, or a LAVA job run here (lava run-local), under TCG. */
bool compare_run_emulated(const struct run *r)
{
	json_t *m = r->env ? json_object_get(r->env, "matrix") : NULL, *l = r->env ? json_object_get(r->env, "lava") : NULL;
	return json_is_true(json_object_get(m, "emulated")) || json_is_true(json_object_get(l, "emulated"));
}

/* What differs about the machine or the kernel rather than the settings
 * under test: the verdict must say so first (a flag, not a refusal). */
static const char *const compare_env_watch[] = {
	"kernel.release", "kernel.version", "thp.*", "*mthp*", "*hugepages-*", "swaps*", "swap_total_bytes",
	"*AnonHugePages*", "*anon_huge*", "*sandboxes*", "*other_sandbox*", "cgroup.version",
	"cgroup.memory_controller", "matrix.emulated", "matrix.accel", "matrix.selftests", "hostname", "cpu.*",
	"mem_total_bytes", "numa*",
};

static bool compare_env_setting(const char *key, const struct compare_opts *o)
{
	for (size_t i = 0; o->setting_keys && o->setting_keys[i]; i++)
		if (!fnmatch(o->setting_keys[i], key, 0))
			return true;
	return false;
}

static bool compare_env_differs(const struct comparison *cmp, const char *key)
{
	for (size_t k = 0; k < cmp->nenv; k++)
		if (!strcmp(cmp->env[k].key, key))
			return true;
	return false;
}

static void compare_note_to(struct strlist *l, char *note)
{
	strlist_add(l, note);
	free(note);
}

void compare_env_flags(struct comparison *cmp, const struct compare_opts *o)
{
	/* The total says that the host's swaps differ in one line; each
	 * area's fields are in the environment table. */
	bool swap_total = compare_env_differs(cmp, "swap_total_bytes");
	for (size_t k = 0; k < cmp->nenv; k++) {
		const struct cmp_env_diff *d = &cmp->env[k];
		if (swap_total && !fnmatch("swaps*", d->key, 0))
			continue;
		bool watch = false;
		for (size_t g = 0; g < ARRAY_SIZE(compare_env_watch) && !watch; g++)
			watch = !fnmatch(compare_env_watch[g], d->key, 0);
		if (!watch || compare_env_setting(d->key, o))
			continue;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		fprintf(f, "%s:", d->key);
		for (size_t i = 0; i < cmp->nruns; i++)
			fprintf(f, "%s %s", i ? " |" : "", d->values[i]);
		if (!strcmp(d->key, "swap_total_bytes"))
			fputs(" (the host's swaps differ: another sandbox's may be on)", f);
		fclose(f);
		compare_note_to(&cmp->env_flags, buf);
	}
	bool emu = false, native = false;
	for (size_t i = 0; i < cmp->nruns; i++) {
		bool e = compare_run_emulated(cmp->runs[i]);
		emu |= e;
		native |= !e;
	}
	if (emu && native)
		strlist_add(&cmp->env_flags, "some runs ran emulated (TCG), others natively");
}
