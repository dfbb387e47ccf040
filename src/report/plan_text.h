/* `vmregress plan` for people: per headline metric the iterations a
 * variant needs, and the time (stats/plan.h computes them). */
#ifndef VMR_REPORT_PLAN_TEXT_H
#define VMR_REPORT_PLAN_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "stats/plan.h"

/* The pilot run plan made first when no group was given. */
struct plan_pilot {
	long blocks;
	char *group;          /* its name */
	const char *db;       /* the store it went into */
	bool kept;            /* that store is the user's (else a scratch one, removed) */
	double took_s;        /* its wall-clock time */
};

/* from: the group planned from; pilot: how it was made, or NULL (a
 * stored group). */
void plan_write_text(FILE *f, const struct plan *p, const char *suite, const char *from,
		     const struct plan_pilot *pilot);

#endif
