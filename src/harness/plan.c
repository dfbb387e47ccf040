#include "harness/plan.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "harness/suite.h"
#include "core/util.h"
#include "sandbox/knobs.h"

/* A knob replaces any value the suite or --set gave it: the variant is the
 * more specific setting, and a sandbox refuses a knob set twice. */
static int variant_set_knob(struct suite *s, const struct knob *k, const char *value, const char *where)
{
	char *arg = xasprintf("%s=%s", k->name, value);
	size_t klen = strlen(k->name);
	for (size_t i = 0; i < s->ncases; i++) {
		struct strlist *l = &s->cases[i].sandbox.set;
		size_t kept = 0;
		for (size_t j = 0; j < l->n; j++) {
			if (!strncmp(l->v[j], k->name, klen) && l->v[j][klen] == '=')
				free(l->v[j]);
			else
				l->v[kept++] = l->v[j];
		}
		l->n = kept;
	}
	int rc = suite_override(s, sandbox_opts, "set", arg, where);
	free(arg);
	return rc;
}

/* The first case of s that sets the knob of arg itself, or NULL. */
static const struct suite_case *plan_knob_case(const struct suite *s, const char *arg, const char **set)
{
	const char *value, *why;
	const struct knob *k = knob_parse_set(arg, &value, &why);
	size_t klen = k ? strlen(k->name) : 0;
	for (size_t i = 0; k && i < s->ncases; i++) {
		const struct strlist *l = &s->cases[i].sandbox.set;
		for (size_t j = 0; j < l->n; j++)
			if (!strncmp(l->v[j], k->name, klen) && l->v[j][klen] == '=') {
				*set = l->v[j];
				return &s->cases[i];
			}
	}
	return NULL;
}

int plan_set_knobs(struct suite *s, const struct strlist *args, const char *where)
{
	for (size_t a = 0; a < args->n; a++) {
		const char *set = NULL;
		const struct suite_case *c = plan_knob_case(s, args->v[a], &set);
		if (c) {
			vmr_err("%s: '%s': case %s of suite %s sets it itself (%s); as a variant's setting "
				"(--variant NAME:%s) it replaces the case's value", where, args->v[a], c->name, s->name, set,
				args->v[a]);
			return -1;
		}
	}
	/* an unknown knob or one given twice: the sandbox's own check says
	 * why, with a suggestion */
	for (size_t a = 0; a < args->n; a++)
		if (suite_override(s, sandbox_opts, "set", args->v[a], where) < 0)
			return -1;
	return 0;
}

/* CASE.OPTION, WORKLOAD.OPTION or a bare OPTION of the cases' workloads. */
static int variant_set_workload(struct suite *s, const struct variant *v, const char *key, const char *value,
				const char *where)
{
	const char *dot = strrchr(key, '.');
	size_t plen = dot ? (size_t)(dot - key) : 0;
	const char *opt = dot ? dot + 1 : key;
	size_t matched = 0, set = 0;
	for (size_t i = 0; i < s->ncases; i++) {
		struct suite_case *c = &s->cases[i];
		if (dot && !((strlen(c->name) == plen && !strncmp(c->name, key, plen)) ||
			     (strlen(c->w->name) == plen && !strncmp(c->w->name, key, plen))))
			continue;
		matched++;
		const struct opt *o = opt_find(c->w->opts, opt);
		if (!o)
			continue;
		if (opt_set(o, c->wopts, value, where) < 0)
			return -1;
		set++;
	}
	if (set)
		return 0;
	if (dot && !matched)
		vmr_err("%s: '%.*s' is neither a case nor a workload of suite %s (nor a knob)", where, (int)plen, key,
			s->name);
	else if (dot)
		vmr_err("%s: '%.*s' has no option '%s' (see vmregress test WORKLOAD --help)", where, (int)plen, key, opt);
	else
		vmr_err("%s: not a knob, nor a sandbox, suite or workload option of any case of suite %s", where,
			s->name);
	(void)v;
	return -1;
}

int variant_apply(struct suite *s, const struct variant *v, const char *where)
{
	for (size_t i = 0; i < v->nsettings; i++) {
		const char *key = v->set[i].key, *value = v->set[i].value;
		char w[512];
		snprintf(w, sizeof(w), "%s %s: %s", where, v->name, key);
		const struct knob *k = knob_find(key);
		const struct opt *table = NULL;
		int rc;
		if (!strcmp(key, "iterations")) {
			vmr_err("%s: every variant runs as many iterations (set them with -n or in [global])", w);
			return -1;
		}
		if (!strcmp(key, "order") || !strcmp(key, "seed")) {
			vmr_err("%s: the order is the whole run's (--order, --seed), not a variant's", w);
			return -1;
		}
		if (opt_find(suite_opts, key))
			table = suite_opts;
		else if (opt_find(sandbox_opts, key))
			table = sandbox_opts;
		else if (opt_find(trace_opts, key))
			table = trace_opts;
		if (k)
			rc = variant_set_knob(s, k, value, w);
		else if (table)
			rc = suite_override(s, table, key, value, w);
		else
			rc = variant_set_workload(s, v, key, value, w);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* splitmix64: small, fast, and every seed gives a good stream. */
static uint64_t plan_next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A uniform integer in [0, n), without modulo bias. */
static size_t plan_below(uint64_t *x, size_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, r;
	do
		r = plan_next(x);
	while (r >= limit);
	return (size_t)(r % n);
}

void plan_order(enum plan_order kind, uint64_t seed, size_t case_index, size_t nvariants, long iterations,
		size_t *out)
{
	uint64_t x = seed ^ ((uint64_t)case_index * 0xd1342543de82ef95ull);
	plan_next(&x);
	for (long b = 0; b < iterations; b++) {
		size_t *block = out + (size_t)b * nvariants;
		for (size_t i = 0; i < nvariants; i++)
			block[i] = kind == PLAN_ABBA && (b & 1) ? nvariants - 1 - i : i;
		for (size_t i = nvariants; kind == PLAN_RANDOM && i > 1; i--) {
			size_t j = plan_below(&x, i), t = block[i - 1];
			block[i - 1] = block[j];
			block[j] = t;
		}
	}
}

uint64_t plan_random_seed(void)
{
	uint64_t s = 0;
	if (getrandom(&s, sizeof(s), 0) != (ssize_t)sizeof(s))
		s = vmr_now_ns();
	return s & ((1ull << 53) - 1);
}
