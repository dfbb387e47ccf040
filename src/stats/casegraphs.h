/* What one case's graphs in the report draw, computed by the command
 * while that case's detail is loaded (one case at a time) and read by the
 * formatter: its tables' row means (rowmeans.h) and its histograms, the
 * passing iterations of each run merged. */
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

struct case_graphs {
	struct row_means_set means;
	size_t nhists;
	struct case_hist *hists;   /* in order of first appearance over runs and iterations */
	size_t nruns;
};

/* The merge of the histograms called name of c's passing iterations: a new
 * histogram (free() it), or NULL when none has one; *unit is set to the
 * unit of the last one merged. */
struct hist *case_graphs_merge_hist(const struct run_case *c, const char *name, const char **unit);
/* Case case_name's graphs over runs[0..nruns) (the row means point into
 * the runs' tables: g lives no longer than they do). */
void case_graphs_compute(const struct run *const *runs, size_t nruns, const char *case_name, struct case_graphs *g);
/* The histogram called name, or NULL. */
const struct case_hist *case_graphs_hist(const struct case_graphs *g, const char *name);
void case_graphs_free(struct case_graphs *g);

#endif
