/* A functional comparison (stats/functional.h) as text, for the top of
 * compare's output, and as JSON, for compare --format json. */
#ifndef VMR_REPORT_FUNCTIONAL_H
#define VMR_REPORT_FUNCTIONAL_H

#include <jansson.h>
#include <stdio.h>

#include "stats/functional.h"

/* The verdict line and a line per change; nothing when no run had
 * selftest results. */
void functional_write_text(FILE *f, const struct functional *fn);
json_t *functional_to_json(const struct functional *fn);

#endif
