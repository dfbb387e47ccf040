/* Tidy rows of stored runs, one per value, for pandas or R: the run (name,
 * uuid, group, variant), where it ran (kernel, host), the knobs its case ran
 * under, the case and its workload, the iteration and its outcome, and the
 * metric with its unit and value.  CSV has a header line; JSON is an array
 * of objects with the same keys.  Values stay raw, in the unit named. */
#ifndef VMR_EXPORT_H
#define VMR_EXPORT_H

#include <jansson.h>
#include <stdio.h>

#include "store/store.h"

/* The column names, in order. */
extern const char *const export_columns[];

json_t *export_rows_json(struct run *const *runs, size_t n);
void export_rows_csv(FILE *f, struct run *const *runs, size_t n);

#endif
