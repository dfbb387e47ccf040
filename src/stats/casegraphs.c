/* What one case's graphs draw: see casegraphs.h. */
#include "stats/casegraphs.h"

#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"

struct hist *case_graphs_merge_hist(const struct run_case *c, const char *name, const char **unit)
{
	struct hist *h = NULL;
	for (size_t i = 0; c && i < c->niter; i++) {
		const struct named_hist *nh = result_find_hist(&c->iters[i], name);
		if (!nh || c->iters[i].outcome != OUTCOME_PASS)
			continue;
		if (!h)
			h = hist_new();
		hist_merge(h, nh->h);
		*unit = nh->unit;
	}
	return h;
}

static const struct run_case *case_graphs_case(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (!strcmp(r->cases[i].name, name))
			return &r->cases[i];
	return NULL;
}

/* Add name to g's histograms unless it is there. */
static void case_graphs_add_name(struct case_graphs *g, const char *name)
{
	if (case_graphs_hist(g, name))
		return;
	g->hists = xrealloc(g->hists, (g->nhists + 1) * sizeof(*g->hists));
	g->hists[g->nhists++] = (struct case_hist){ .name = xstrdup(name),
						    .runs = xcalloc(g->nruns ? g->nruns : 1, sizeof(struct hist *)) };
}

void case_graphs_compute(const struct run *const *runs, size_t nruns, const char *case_name, struct case_graphs *g)
{
	*g = (struct case_graphs){ .nruns = nruns };
	row_means_case(runs, nruns, case_name, &g->means);
	for (size_t r = 0; r < nruns; r++) {
		const struct run_case *c = case_graphs_case(runs[r], case_name);
		for (size_t i = 0; c && i < c->niter; i++)
			for (size_t k = 0; k < c->iters[i].nhists; k++)
				case_graphs_add_name(g, c->iters[i].hists[k].name);
	}
	for (size_t k = 0; k < g->nhists; k++) {
		const char *unit = "";
		for (size_t r = 0; r < nruns; r++)
			g->hists[k].runs[r] = case_graphs_merge_hist(case_graphs_case(runs[r], case_name), g->hists[k].name,
								     &unit);
		g->hists[k].unit = xstrdup(unit);
	}
}

const struct case_hist *case_graphs_hist(const struct case_graphs *g, const char *name)
{
	for (size_t k = 0; g && k < g->nhists; k++)
		if (!strcmp(g->hists[k].name, name))
			return &g->hists[k];
	return NULL;
}

void case_graphs_free(struct case_graphs *g)
{
	row_means_free(&g->means);
	for (size_t k = 0; k < g->nhists; k++) {
		for (size_t r = 0; r < g->nruns; r++)
			free(g->hists[k].runs[r]);
		free(g->hists[k].runs);
		free(g->hists[k].name);
		free(g->hists[k].unit);
	}
	free(g->hists);
	*g = (struct case_graphs){ 0 };
}
