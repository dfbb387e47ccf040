/* Variants: the configurations one run compares, and the kinds of order
 * their iterations interleave in (harness/plan.h applies them to a suite
 * and computes the order).
 *
 * A variant is "NAME:KEY=VALUE[,KEY=VALUE...]" on the command line, or
 * "NAME = KEY=VALUE[,KEY=VALUE...]" in a suite's [variants] section.  No
 * settings at all ("NAME:") is the suite as it is, the base.  What a KEY
 * may be is plan.h's (variant_apply); here a setting is only text.  A value
 * holds no comma.
 *
 * The suite reads its [variants] and its "order" setting through this
 * file alone, so the suite stands below the plan that applies to it. */
#ifndef VMR_VARIANT_H
#define VMR_VARIANT_H

#include <stddef.h>

enum plan_order {
	PLAN_ABBA,
	PLAN_RANDOM,
};

/* "abba|random", in enum order, for option tables. */
#define PLAN_ORDER_CHOICES "abba|random"

struct variant_setting {
	char *key, *value;
};

struct variant {
	char *name;
	char *settings;             /* the text after "NAME:" as given */
	unsigned line;              /* its line in a suite file; 0: the command line */
	size_t nsettings;
	struct variant_setting *set;
};

/* Parse "NAME:SETTINGS".  where names the source in errors ("--variant").
 * 0, or -1 after one error line naming the variant and what is wrong. */
int variant_parse(struct variant *v, const char *arg, const char *where);
/* Parse the settings of a variant named name ("KEY=VALUE,..." or "").
 * 0, or -1 after one error line. */
int variant_parse_settings(struct variant *v, const char *name, const char *settings, const char *where);
void variant_free(struct variant *v);
/* A deep copy of a variant. */
void variant_copy(struct variant *dst, const struct variant *src);

/* Check a list of variants: two or more, names distinct.  0 or -1. */
int variants_check(const struct variant *v, size_t n, const char *where);

#endif
