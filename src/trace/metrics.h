/* Trace statistics as result data: the trace hook (harness/trace_hook.h)
 * folds a session's events into a struct trace_stats and this turns them
 * into the metrics, histograms, series, table and info listed there. */
#ifndef VMR_TRACE_METRICS_H
#define VMR_TRACE_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "trace/trace.h"

/* Turn folded trace statistics into metrics, histograms, series and info
 * on r.  res lists the tracepoints found (a metric whose tracepoint is
 * missing is skipped with the reason); case_start_ns is the trace-clock
 * time the case started; dropped is what the kernel lost. */
void trace_stats_to_result(const struct trace_stats *s, const struct trace_resolved *res, size_t nres,
			   uint64_t case_start_ns, uint64_t dropped, struct result *r);

#endif
