/* The formatters of `vmregress refs show`: a trace's header with the
 * statistics refs/stats.c computed from it, as JSON or as text for
 * people.  cmd/refs.c reads the trace and computes; these only format. */
#ifndef VMR_REPORT_REFS_TEXT_H
#define VMR_REPORT_REFS_TEXT_H

#include <jansson.h>
#include <stdio.h>

#include "refs/stats.h"
#include "refs/trace.h"

json_t *refs_show_json(const struct refs_trace *t, const struct refs_stats *st);
void refs_show_text(FILE *f, const struct refs_trace *t, const struct refs_stats *st);

#endif
