/* What one case's graphs in the report draw, computed by the command a
 * case at a time and read by the formatter: its tables' row means
 * (rowmeans.h), its histograms (the passing iterations of each run
 * merged), the first of each series a run has and a run's first maps.
 * The iterations are folded in one at a time (case_graphs_add), each
 * free to go once folded: what is held grows with the rows, buckets and
 * points drawn, not with the number of iterations. */
#ifndef VMR_CASEGRAPHS_H
#define VMR_CASEGRAPHS_H

#include <stddef.h>

#include "core/hist.h"
#include "core/run.h"
#include "stats/rowmeans.h"

/* One histogram of a case: runs[r] the merge of run r's passing
 * iterations' histograms of that name (NULL when none has it); unit that
 * of the last one merged, over the runs in order ("" when none). */
struct case_hist {
	char *name;
	char *unit;
	struct hist **runs;
};

/* One series of a case: runs[r] a copy of the first of that name with
 * points over run r's iterations in order (NULL when none has one). */
struct case_series {
	char *name;
	struct series **runs;
};

/* Run r's maps: those of its first iteration that has any. */
struct case_maps {
	size_t n;
	struct map *v;
};

struct case_graphs {
	char *case_name;
	size_t nruns;
	struct row_means_set means;
	size_t nhists;
	struct case_hist *hists;     /* in order of first appearance over runs and iterations */
	size_t nseries;
	struct case_series *series;  /* the same */
	struct case_maps *maps;      /* one per run */
};

/* Start g for case case_name over nruns runs. */
void case_graphs_begin(struct case_graphs *g, const char *case_name, size_t nruns);
/* Fold iteration res of run r into g: the runs' iterations in order, run
 * by run, each of any outcome (only passing ones are measured; every one
 * names its tables, histograms and series).  res need not outlive the
 * call. */
void case_graphs_add(struct case_graphs *g, size_t r, const struct result *res);
/* Once every iteration is folded: the row means' lines. */
void case_graphs_finish(struct case_graphs *g);
/* The histogram called name, or NULL. */
const struct case_hist *case_graphs_hist(const struct case_graphs *g, const char *name);
/* Run r's first series called name with points, or NULL. */
const struct series *case_graphs_series(const struct case_graphs *g, size_t r, const char *name);
void case_graphs_free(struct case_graphs *g);

#endif
