/* Fuzz the trace_pipe parser and the statistics it feeds (begin/end
 * matching, per-node kswapd state, histograms), the results built from
 * them, and perf report line parsing.  The input is not NUL-terminated on
 * purpose: the parser must only look inside [data, data+size). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness/trace_hook.h"
#include "core/util.h"
#include "trace/metrics.h"
#include "trace/perf.h"
#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = xmalloc(size ? size : 1);
	memcpy(buf, data, size);
	struct trace_stats s = { 0 };
	trace_stats_init(&s);
	s.kswapd_pids[s.nkswapd_pids++] = 45;
	size_t used = trace_stats_feed(&s, buf, size);
	struct trace_event ev = { 0 };
	if (used < size)
		trace_parse_line(buf + used, size - used, &ev); /* the trailing partial line */
	trace_stats_finish(&s, s.last_ns + 1);
	struct result r = { 0 };
	result_init(&r, "fuzz");
	trace_stats_to_result(&s, NULL, 0, s.first_ns, 0, &r);
	result_free(&r);
	trace_stats_free(&s);
	struct perf_sym sym = { 0 };
	for (size_t off = 0; off < size;) {
		const char *nl = memchr(buf + off, '\n', size - off);
		size_t n = nl ? (size_t)(nl - (buf + off)) : size - off;
		perf_parse_report_line(buf + off, n, &sym);
		off += n + 1;
	}
	free(buf);
	return 0;
}
