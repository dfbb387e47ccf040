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

/* Either is written one run at a time, as each run is read, so that a
 * writer holds no row but the one it writes.
 *
 * JSON: begin, each run's rows, end: the text json_dumpf prints of the
 * array of every row with EXPORT_JSON_FLAGS, and a newline. */
#define EXPORT_JSON_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(10))
struct export_json {
	FILE *f;
	size_t rows;   /* written so far */
};
void export_json_begin(struct export_json *x, FILE *f);
void export_json_run(struct export_json *x, const struct run *r);
void export_json_end(struct export_json *x);
/* CSV: the header line, then each run's rows. */
void export_csv_header(FILE *f);
void export_csv_run(FILE *f, const struct run *r);

#endif
