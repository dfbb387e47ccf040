/* The iterations a change needs (plan.h). */
#include "stats/plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/gsllib.h"
#include "stats/stats.h"
#include "stats/verdict.h"

/* The MDE of a spread of 1, remembered: the power integral behind it costs
 * about a millisecond, and a run with --effect asks it after every block
 * for the same few counts and levels, as plan_iterations' search does. */
struct plan_mde_memo {
	size_t n;
	bool paired, rank;
	double level, mde;
};

double plan_mde(size_t n, double spread, bool paired, bool rank, double level)
{
	static struct plan_mde_memo memo[64];
	struct plan_mde_memo *m = &memo[(n * 2 + paired) % 64];
	if (!(m->n == n && m->paired == paired && m->rank == rank && m->level == level)) {
		double eff = rank ? 3 / M_PI : 1;
		*m = (struct plan_mde_memo){ .n = n, .paired = paired, .rank = rank, .level = level,
					     .mde = paired ? stats_t1_mde((double)n * eff, level, 0.8)
							   : stats_t_mde((double)n * eff, (double)n * eff, level, 0.8) };
	}
	return m->mde * spread;
}

size_t plan_iterations(double effect_log, double spread, bool paired, bool rank, double level)
{
	size_t lo = PLAN_MIN, hi = 100000;
	if (!(spread >= 0) || !(effect_log > 0) || !(plan_mde(hi, spread, paired, rank, level) <= effect_log))
		return 0;
	if (plan_mde(lo, spread, paired, rank, level) <= effect_log)
		return lo;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (plan_mde(mid, spread, paired, rank, level) <= effect_log)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* The mean "elapsed" of the passing iterations of a case over every run. */
static double plan_iter_s(const struct comparison *cmp, const char *case_name)
{
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < cmp->nruns; i++) {
		const struct run_case *c = compare_find_case(cmp->runs[i], case_name);
		for (size_t k = 0; c && k < c->niter; k++) {
			const struct metric *m = result_find_metric(&c->iters[k], "elapsed");
			if (m && c->iters[k].outcome == OUTCOME_PASS && isfinite(m->value))
				sum += m->value / 1e9, n++;
		}
	}
	return n ? sum / (double)n : NAN;
}

void plan_from_comparison(const struct comparison *cmp, double effect, struct plan *p)
{
	*p = (struct plan){ .effect = effect, .alpha = cmp->alpha, .nvariants = cmp->nruns };
	for (size_t r = 0; r < cmp->nrows; r++)
		for (size_t i = 1; cmp->rows[r].headline && i < cmp->nruns; i++)
			p->m++;
	double level = cmp->alpha / (double)(p->m ? p->m : 1);
	for (size_t r = 0; r < cmp->nrows; r++) {
		const struct cmp_row *row = &cmp->rows[r];
		const struct cmp_cell *c = cmp->nruns > 1 ? &row->cells[1] : NULL;
		if (!row->headline || !c || !c->present || !row->cells[0].present)
			continue;
		p->rows = xrealloc(p->rows, (p->nrows + 1) * sizeof(*p->rows));
		struct plan_row *pr = &p->rows[p->nrows++];
		*pr = (struct plan_row){ .case_name = row->case_name, .metric = row->metric, .paired = c->paired,
					 .rank = row->test == CMP_TEST_MWU };
		pr->have = c->paired ? c->npairs : (c->s.n < row->cells[0].s.n ? c->s.n : row->cells[0].s.n);
		pr->spread = compare_log_spread(c, &row->cells[0], c->paired);
		pr->need = plan_iterations(log1p(effect), pr->spread, pr->paired, pr->rank, level);
		if (pr->have >= 2 && pr->need) {
			double df = (double)pr->have - 1;
			pr->need_lo = plan_iterations(log1p(effect), pr->spread * sqrt(df / gsl_cdf_chisq_Pinv(0.975, df)),
						      pr->paired, pr->rank, level);
			pr->need_hi = plan_iterations(log1p(effect), pr->spread * sqrt(df / gsl_cdf_chisq_Pinv(0.025, df)),
						      pr->paired, pr->rank, level);
		}
		pr->iter_s = plan_iter_s(cmp, row->case_name);
	}
	/* A case runs as many iterations as its most demanding metric. */
	for (size_t k = 0; k < p->nrows; k++) {
		bool first = true;
		size_t most = 0;
		for (size_t j = 0; j < p->nrows; j++) {
			if (strcmp(p->rows[j].case_name, p->rows[k].case_name))
				continue;
			first &= j >= k;
			most = p->rows[j].need > most ? p->rows[j].need : most;
		}
		if (first && isfinite(p->rows[k].iter_s))
			p->total_s += (double)most * (double)p->nvariants * p->rows[k].iter_s;
	}
}

void plan_free(struct plan *p)
{
	free(p->rows);
	memset(p, 0, sizeof(*p));
}
