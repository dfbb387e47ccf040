/* Inside report/: the helpers the compare formatters share. */
#ifndef VMR_REPORT_COMPARE_INT_H
#define VMR_REPORT_COMPARE_INT_H

#include "report/compare_fmt.h"
#include "core/units.h"
#include "core/util.h"
#include "workload/workload.h"

/* The tests' names in the machine formats, by enum cmp_test. */
extern const char *const cmp_test_names[];
/* A cell's test in the machine formats: "paired-t" or "signed-rank" for a
 * paired cell, else its row's. */
const char *cmp_cell_test(const struct cmp_row *row, const struct cmp_cell *c);
/* A headline metric's line of the verdict for run i (malloc'd), as the
 * verdict lines hold it (compare_verdict.c). */
char *cmp_headline_line(const struct comparison *cmp, const struct cmp_row *row, size_t i);

#endif
