/* What one case's graphs draw: see casegraphs.h. */
#include "stats/casegraphs.h"

#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "core/util.h"

void case_graphs_begin(struct case_graphs *g, const char *case_name, size_t nruns)
{
	*g = (struct case_graphs){ .case_name = xstrdup(case_name), .nruns = nruns,
				   .maps = xcalloc(nruns ? nruns : 1, sizeof(struct case_maps)) };
}

/* The histogram called name, added (no run's yet) unless g has it. */
static struct case_hist *case_graphs_hist_add(struct case_graphs *g, const char *name)
{
	for (size_t k = 0; k < g->nhists; k++)
		if (!strcmp(g->hists[k].name, name))
			return &g->hists[k];
	g->hists = xrealloc(g->hists, (g->nhists + 1) * sizeof(*g->hists));
	g->hists[g->nhists] = (struct case_hist){ .name = xstrdup(name), .unit = xstrdup(""),
						  .runs = xcalloc(g->nruns ? g->nruns : 1, sizeof(struct hist *)) };
	return &g->hists[g->nhists++];
}

/* An iteration's histograms: each name noted, a passing one's first of
 * each name merged into its run's. */
static void case_graphs_add_hists(struct case_graphs *g, size_t r, const struct result *res)
{
	for (size_t k = 0; k < res->nhists; k++) {
		const struct named_hist *nh = &res->hists[k];
		struct case_hist *ch = case_graphs_hist_add(g, nh->name);
		if (res->outcome != OUTCOME_PASS || result_find_hist(res, nh->name) != nh)
			continue;
		if (!ch->runs[r])
			ch->runs[r] = hist_new();
		hist_merge(ch->runs[r], nh->h);
		free(ch->unit);
		ch->unit = xstrdup(nh->unit ? nh->unit : "");
	}
}

static struct case_series *case_graphs_series_add(struct case_graphs *g, const char *name)
{
	for (size_t k = 0; k < g->nseries; k++)
		if (!strcmp(g->series[k].name, name))
			return &g->series[k];
	g->series = xrealloc(g->series, (g->nseries + 1) * sizeof(*g->series));
	g->series[g->nseries] = (struct case_series){ .name = xstrdup(name),
						      .runs = xcalloc(g->nruns ? g->nruns : 1, sizeof(struct series *)) };
	return &g->series[g->nseries++];
}

static struct series *case_graphs_series_copy(const struct series *s)
{
	struct series *c = xcalloc(1, sizeof(*c));
	*c = (struct series){ .name = xstrdup(s->name), .unit = s->unit ? xstrdup(s->unit) : NULL, .n = s->n,
			      .cap = s->n, .t = xcalloc(s->n, sizeof(double)), .v = xcalloc(s->n, sizeof(double)) };
	memcpy(c->t, s->t, s->n * sizeof(double));
	memcpy(c->v, s->v, s->n * sizeof(double));
	return c;
}

static void case_graphs_series_free(struct series *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->unit);
	free(s->t);
	free(s->v);
	free(s);
}

/* An iteration's series (any outcome): each name noted, a copy of the
 * first with points of each name a run has. */
static void case_graphs_add_series(struct case_graphs *g, size_t r, const struct result *res)
{
	for (size_t k = 0; k < res->nseries; k++) {
		struct case_series *cs = case_graphs_series_add(g, res->series[k].name);
		if (!cs->runs[r] && res->series[k].n)
			cs->runs[r] = case_graphs_series_copy(&res->series[k]);
	}
}

void case_graphs_add(struct case_graphs *g, size_t r, const struct result *res)
{
	if (r >= g->nruns)
		return;
	row_means_add(&g->means, g->case_name, g->nruns, r, res);
	case_graphs_add_hists(g, r, res);
	case_graphs_add_series(g, r, res);
	struct case_maps *m = &g->maps[r];
	if (m->n || !res->nmaps)
		return;
	m->v = xcalloc(res->nmaps, sizeof(struct map));
	for (m->n = 0; m->n < res->nmaps; m->n++)
		m->v[m->n] = (struct map){ .name = xstrdup(res->maps[m->n].name),
					   .pages = xstrdup(res->maps[m->n].pages) };
}

void case_graphs_finish(struct case_graphs *g)
{
	row_means_finish(&g->means);
}

const struct case_hist *case_graphs_hist(const struct case_graphs *g, const char *name)
{
	for (size_t k = 0; g && k < g->nhists; k++)
		if (!strcmp(g->hists[k].name, name))
			return &g->hists[k];
	return NULL;
}

const struct series *case_graphs_series(const struct case_graphs *g, size_t r, const char *name)
{
	for (size_t k = 0; g && r < g->nruns && k < g->nseries; k++)
		if (!strcmp(g->series[k].name, name))
			return g->series[k].runs[r];
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
	for (size_t k = 0; k < g->nseries; k++) {
		for (size_t r = 0; r < g->nruns; r++)
			case_graphs_series_free(g->series[k].runs[r]);
		free(g->series[k].runs);
		free(g->series[k].name);
	}
	free(g->series);
	for (size_t r = 0; g->maps && r < g->nruns; r++) {
		for (size_t m = 0; m < g->maps[r].n; m++) {
			free(g->maps[r].v[m].name);
			free(g->maps[r].v[m].pages);
		}
		free(g->maps[r].v);
	}
	free(g->maps);
	free(g->case_name);
	*g = (struct case_graphs){ 0 };
}
