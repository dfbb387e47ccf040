/* The comparison's data and the lookups its parts share (cmp_model.h). */
#include "stats/cmp_model.h"

#include <fnmatch.h>
#include <string.h>

#include "core/util.h"

static const char *const verdict_names[] = { "same",    "improved", "regressed", "changed",
					     "too-few", "missing",  "unstable" };

const char *cmp_verdict_name(enum cmp_verdict v)
{
	return (unsigned)v < ARRAY_SIZE(verdict_names) ? verdict_names[v] : "?";
}

const char *compare_left_reason(enum cmp_left_why why)
{
	static const char *const names[] = { "no-passing-iteration", "zero-in-every-run", "did-not-pass",
					     "only-in-run", "not-in-run", "warm-up" };
	return names[why % ARRAY_SIZE(names)];
}

const struct run_case *compare_find_case(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].name, name))
			return &r->cases[i];
	return NULL;
}

/* Variants of one group: their iterations ran interleaved (ABBA or a
 * seeded random order, harness/plan.h), so whatever the machine did while
 * they ran fell on both, and a difference of means within the noise of
 * single iterations is still the variants' own once the test calls it.
 * Runs made apart have no such protection: a drift of the machine between
 * them is a difference the test would call, so their floor is their CV.
 * A bisection's group is of the second kind: each of its runs is a boot
 * of its own. */
bool compare_interleaved(const struct run *base, const struct run *r)
{
	return base != r && base->info.group_uuid && r->info.group_uuid && *base->info.group_uuid &&
	       !strcmp(base->info.group_uuid, r->info.group_uuid) && !json_object_get(base->env, "bisect") &&
	       !json_object_get(r->env, "bisect");
}

bool compare_glob(const char *pattern, const char *s)
{
	return !pattern || fnmatch(pattern, s, 0) == 0;
}
