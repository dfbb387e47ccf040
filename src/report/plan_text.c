/* The plan as text (plan_text.h). */
#include "report/plan_text.h"

#include <math.h>
#include <string.h>


/* "40 s", "12 min", "11.3 h": a plan's times are rough. */
static char *plan_time(char *buf, size_t len, double s)
{
	if (!isfinite(s))
		snprintf(buf, len, "?");
	else if (s >= 3600)
		snprintf(buf, len, "%.1f h", s / 3600);
	else if (s >= 60)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.0f s", s);
	return buf;
}

void plan_write_text(FILE *f, const struct plan *p, const char *suite, const char *from,
		     const struct plan_pilot *pilot)
{
	char t[48];
	if (pilot)
		fprintf(f, "Planned from a pilot run made first: %ld blocks of two alike variants, which took %s (group %s, "
			   "%s%s).\n",
			pilot->blocks, plan_time(t, sizeof(t), pilot->took_s), pilot->group,
			pilot->kept ? "kept in " : "in a scratch store, removed", pilot->kept ? pilot->db : "");
	fprintf(f, "To see a %g%% change in %s at FDR %g%% with 80%% power (%zu headline tests), from %s:\n",
		p->effect * 100, suite, p->alpha * 100, p->m, from);
	int wc = 4, wm = 6;
	for (size_t k = 0; k < p->nrows; k++) {
		wc = (int)strlen(p->rows[k].case_name) > wc ? (int)strlen(p->rows[k].case_name) : wc;
		wm = (int)strlen(p->rows[k].metric) > wm ? (int)strlen(p->rows[k].metric) : wm;
	}
	fprintf(f, "  %-*s  %-*s  %-12s  %7s  %5s  %s\n", wc, "case", wm, "metric", "test", "spread", "had",
		"iterations a variant (time a variant)");
	for (size_t k = 0; k < p->nrows; k++) {
		const struct plan_row *r = &p->rows[k];
		const char *test = r->paired ? (r->rank ? "signed-rank" : "paired t") : (r->rank ? "Mann-Whitney" : "Welch");
		fprintf(f, "  %-*s  %-*s  %-12s  %6.1f%%  %5zu  ", wc, r->case_name, wm, r->metric, test,
			r->spread * 100, r->have);
		if (!r->need) {
			fputs("more than 100000 (or no spread to plan from)\n", f);
			continue;
		}
		fprintf(f, "%zu", r->need);
		if (isfinite(r->iter_s))
			fprintf(f, " (%s)", plan_time(t, sizeof(t), (double)r->need * r->iter_s));
		if (r->need_lo && r->need_hi > r->need_lo)
			fprintf(f, ", %zu to %zu", r->need_lo, r->need_hi);
		else if (r->need_lo && !r->need_hi)
			fprintf(f, ", %zu to more than 100000", r->need_lo);
		fputc('\n', f);
	}
	fprintf(f, "In all about %s for %zu variants, each case at its most demanding metric (the workloads' own\n"
		   "time; the sandbox's set-up comes on top). Spread: the sd of what compare tests, in logs;\n"
		   "\"A to B\": the counts at the ends of the spread's 95%% interval, from the blocks it had:\n"
		   "how rough the plan is (a pilot of a few blocks gives a rough one).\n",
		plan_time(t, sizeof(t), p->total_s), p->nvariants);
	fprintf(f, "--iterations auto --effect %g%% stops each case at about these counts: it counts as this plan does, "
		   "from the run's own spread as it goes%s.\n",
		p->effect * 100, p->alpha == 0.05 ? "" : " (at compare's default FDR, 5%)");
}
