/* trace_pipe text parsing and the statistics folded from it, on text
 * captured from a 6.18 kernel (memcg reclaim of page cache, with irq-info
 * on, and with record-tgid on) and on hand-written lines for events a quiet
 * machine does not produce.  Expected numbers were counted from the
 * fixtures with awk, independently of this parser. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/trace_hook.h"
#include "core/util.h"
#include "trace/metrics.h"
#include "trace/perf.h"
#include "trace/trace.h"
#include "t.h"

#define FIX "tests/fixtures/trace/"

static char *fixture(const char *name, size_t *len)
{
	char *buf = NULL;
	if (vmr_read_file(name, &buf, len) < 0) {
		printf("# cannot read %s\n", name);
		return xstrdup("");
	}
	return buf;
}

static void test_parse_line(void)
{
	struct trace_event ev = { 0 };
	const char *l = "   my prog-x-500   [000] d..1   100.000500: mm_vmscan_lru_shrink_inactive: nid=0 "
			"nr_scanned=32 nr_reclaimed=30 flags=RECLAIM_WB_ANON\n";
	uint64_t v;
	CHECK(trace_parse_line(l, strlen(l), &ev) == 0, "parse: a line with flags column");
	CHECK_STR(ev.comm, "my prog-x", "parse: comm with a space and a dash");
	CHECK_EQ_U(ev.pid, 500, "parse: pid after the last dash");
	CHECK_EQ_U(ev.cpu, 0, "parse: cpu");
	CHECK_EQ_U(ev.ts_ns, 100000500000ull, "parse: timestamp in ns");
	CHECK(trace_event_is(&ev, "mm_vmscan_lru_shrink_inactive"), "parse: event name");
	CHECK(trace_field_u64(&ev, "nr_scanned", &v) == 0 && v == 32, "parse: field nr_scanned");
	CHECK(trace_field_u64(&ev, "nr_reclaimed", &v) == 0 && v == 30, "parse: field nr_reclaimed (not the end of nr_scanned)");
	CHECK(trace_field_u64(&ev, "scanned", &v) < 0, "parse: a key only as a word, not inside another");
	CHECK(trace_field_u64(&ev, "flags", &v) < 0, "parse: a non-numeric field is not a number");

	l = "         kswapd0-45    (-------) [001] ....   100.002100: mm_vmscan_kswapd_wake: nid=0 order=0";
	CHECK(trace_parse_line(l, strlen(l), &ev) == 0 && ev.pid == 45 && ev.cpu == 1, "parse: record-tgid column");
	l = "          <idle>-0     [000] d.h..   100.060000: mm_filemap_add_to_page_cache: pfn=0x170ce0 order=2";
	CHECK(trace_parse_line(l, strlen(l), &ev) == 0 && ev.pid == 0 && !strcmp(ev.comm, "<idle>"), "parse: <idle>-0");
	CHECK(trace_field_u64(&ev, "pfn", &v) == 0 && v == 0x170ce0, "parse: hex field");
	l = "          worker-502   [001]   100.010000: mm_vmscan_direct_reclaim_begin: order=0";
	CHECK(trace_parse_line(l, strlen(l), &ev) == 0 && ev.ts_ns == 100010000000ull, "parse: no flags column (4.x)");
	l = "  w-1 [000] ..... 5.123456789: e: x=1";
	CHECK(trace_parse_line(l, strlen(l), &ev) == 0 && ev.ts_ns == 5123456789ull, "parse: nanosecond timestamps");

	static const char *const bad[] = {
		"", "# tracer: nop", "CPU:1 [LOST 12 EVENTS]", "not a trace line at all",
		"          worker-505   [000] .....   notatime: mm_filemap_fault: dev=254:0",
		"w-1 [0] 1.5: ", "nopid [000] 1.000001: e: x", "w-1 [000] 99999999999999999999.1: e: x",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(trace_parse_line(bad[i], strlen(bad[i]), &ev) < 0, "parse: rejects '%s'", bad[i]);
}

struct captured {
	const char *file;
	uint64_t events, begins_unmatched, count, reclaimed, shrinks, scanned, shrink_reclaimed, time_ns, max_ns,
		filemap_pages;
};

static void test_captured(const struct captured *c)
{
	size_t len;
	char *buf = fixture(c->file, &len);
	struct trace_stats s = { 0 };
	trace_stats_init(&s);
	size_t used = trace_stats_feed(&s, buf, len);
	trace_stats_finish(&s, s.last_ns);
	const struct trace_pair_stats *m = &s.pair[TRACE_PAIR_MEMCG];
	CHECK_EQ_U(used, len, "%s: every line consumed", c->file);
	CHECK_EQ_U(s.events, c->events, "%s: events", c->file);
	CHECK_EQ_U(s.bad_lines, 0, "%s: no unparsed lines", c->file);
	CHECK_EQ_U(m->count, c->count, "%s: memcg stalls", c->file);
	CHECK_EQ_U(m->unmatched, c->begins_unmatched, "%s: the stall cut off at the end is unmatched", c->file);
	CHECK_EQ_U(m->reclaimed_pages, c->reclaimed, "%s: reclaimed pages of the stalls", c->file);
	CHECK_EQ_U(m->time_ns, c->time_ns, "%s: stall time", c->file);
	CHECK_EQ_U(m->hist->max, c->max_ns, "%s: longest stall", c->file);
	CHECK_EQ_U(m->hist->count, c->count, "%s: histogram count", c->file);
	CHECK_EQ_U(m->timeline.n, c->count, "%s: timeline points", c->file);
	CHECK_EQ_U(s.shrink_calls, c->shrinks, "%s: shrink_inactive calls", c->file);
	CHECK_EQ_U(s.scanned_pages, c->scanned, "%s: scanned pages", c->file);
	CHECK_EQ_U(s.reclaimed_pages, c->shrink_reclaimed, "%s: shrink reclaimed pages", c->file);
	CHECK_EQ_U(s.filemap_adds, c->filemap_pages, "%s: page-cache pages added (folio orders summed)", c->file);
	CHECK(m->scanned_pages <= s.scanned_pages, "%s: scans inside stalls are a subset", c->file);

	/* the same text fed in small uneven pieces gives the same numbers */
	struct trace_stats p = { 0 };
	trace_stats_init(&p);
	size_t off = 0, carry = 0, step = 1;
	char *win = xmalloc(len + 1);
	while (off < len) {
		size_t n = off + step > len ? len - off : step;
		memcpy(win + carry, buf + off, n);
		carry += n;
		off += n;
		size_t u = trace_stats_feed(&p, win, carry);
		memmove(win, win + u, carry - u);
		carry -= u;
		step = step * 7 % 509 + 1;
	}
	trace_stats_finish(&p, p.last_ns);
	CHECK(p.events == s.events && p.pair[TRACE_PAIR_MEMCG].time_ns == m->time_ns &&
	      p.scanned_pages == s.scanned_pages, "%s: piecewise feeding matches", c->file);
	free(win);
	trace_stats_free(&p);
	trace_stats_free(&s);
	free(buf);
}

static struct trace_stats synthetic_stats(void)
{
	size_t len;
	char *buf = fixture(FIX "synthetic.txt", &len);
	struct trace_stats s = { 0 };
	trace_stats_init(&s);
	s.kswapd_pids[s.nkswapd_pids++] = 45;
	trace_stats_feed(&s, buf, len);
	trace_stats_finish(&s, s.last_ns);
	free(buf);
	return s;
}

static void test_synthetic(void)
{
	struct trace_stats s = synthetic_stats();
	const struct trace_pair_stats *d = &s.pair[TRACE_PAIR_DIRECT];
	CHECK_EQ_U(s.events, 22, "synthetic: events");
	CHECK_EQ_U(s.bad_lines, 2, "synthetic: junk lines counted, LOST note and comments not");
	CHECK_EQ_U(d->count, 2, "synthetic: direct stalls");
	CHECK_EQ_U(d->time_ns, 1750000, "synthetic: direct stall time");
	CHECK_EQ_U(d->unmatched, 1, "synthetic: an end without a begin");
	CHECK_EQ_U(d->reclaimed_pages, 32, "synthetic: direct reclaimed");
	CHECK_EQ_U(d->scanned_pages, 64, "synthetic: scans inside the direct stall");
	CHECK(d->timeline.n == 2 && d->timeline.v[0].start_ns == 100000000000ull &&
	      d->timeline.v[0].dur_ns == 1500000 && d->timeline.v[1].dur_ns == 250000, "synthetic: timeline");
	CHECK_EQ_U(s.pair[TRACE_PAIR_MEMCG].unmatched, 1, "synthetic: a begin that never ends");
	CHECK_EQ_U(s.kswapd_wakes, 1, "synthetic: kswapd wakes");
	CHECK_EQ_U(s.kswapd_active_ns, 2000000, "synthetic: kswapd active time");
	CHECK_EQ_U(s.kswapd_wakeups_requested, 1, "synthetic: wakeups requested");
	CHECK_EQ_U(s.kswapd_scanned_pages, 64, "synthetic: kswapd's own scans");
	CHECK(s.shrink_calls == 3 && s.scanned_pages == 128 && s.reclaimed_pages == 96, "synthetic: shrink totals");
	CHECK_EQ_U(s.writeback_pages, 2, "synthetic: write_folio and the older writepage");
	CHECK(s.pair[TRACE_PAIR_COMPACTION].count == 1 && s.pair[TRACE_PAIR_COMPACTION].time_ns == 3000000,
	      "synthetic: compaction run and time");
	CHECK(s.compaction_success == 1 && s.compaction_tries == 1 && s.kcompactd_wakes == 1, "synthetic: compaction counts");
	CHECK(s.filemap_adds == 4 && s.filemap_deletes == 1 && s.filemap_faults == 1 && s.page_faults_user == 1,
	      "synthetic: page cache and faults");
	trace_stats_free(&s);
}

/* A kernel directory shaped like tracefs's events/, holding only some. */
static int fake_events(char *dir, const char *const *events)
{
	if (!mkdtemp(dir))
		return -1;
	for (const char *const *e = events; *e; e++) {
		char *sys = xasprintf("%s/%s", dir, *e);
		*strchr(sys + strlen(dir) + 1, '/') = '\0';
		mkdir(sys, 0755);
		char *ev = xasprintf("%s/%s", dir, *e), *en = xasprintf("%s/%s/enable", dir, *e);
		mkdir(ev, 0755);
		close(open(en, O_CREAT | O_WRONLY, 0644));
		free(sys);
		free(ev);
		free(en);
	}
	return open(dir, O_PATH | O_DIRECTORY);
}

static void test_resolve_and_result(void)
{
	static const char *const have[] = {
		"vmscan/mm_vmscan_direct_reclaim_begin", "vmscan/mm_vmscan_direct_reclaim_end",
		"vmscan/mm_vmscan_memcg_reclaim_begin", "vmscan/mm_vmscan_memcg_reclaim_end",
		"vmscan/mm_vmscan_kswapd_wake", "vmscan/mm_vmscan_kswapd_sleep",
		"vmscan/mm_vmscan_lru_shrink_inactive", "vmscan/mm_vmscan_writepage", NULL,
	};
	char dir[] = "/tmp/vmregress-test-events-XXXXXX";
	int fd = fake_events(dir, have);
	CHECK(fd >= 0, "resolve: fake events directory");
	if (fd < 0)
		return;
	size_t n;
	struct trace_resolved *res = trace_resolve_events(fd, TRACE_RECLAIM, &n);
	const char *wb = NULL, *wk = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(res[i].role, "writeback"))
			wb = res[i].event;
		if (!strcmp(res[i].role, "wakeup-kswapd"))
			wk = res[i].reason;
	}
	CHECK_STR(wb, "vmscan/mm_vmscan_writepage", "resolve: an older kernel's writepage when write_folio is absent");
	CHECK(wk && strstr(wk, "mm_vmscan_wakeup_kswapd"), "resolve: a missing event has a reason naming it");

	struct trace_stats s = synthetic_stats();
	struct result r = { 0 };
	result_init(&r, "x");
	trace_stats_to_result(&s, res, n, 100000000000ull, 3, &r);
	const struct metric *m = result_find_metric(&r, "direct-reclaim-stalls");
	CHECK(m && m->value == 2 && m->better == BETTER_LOWER && !strcmp(m->unit, "stalls"), "result: stalls metric");
	m = result_find_metric(&r, "direct-reclaim-stall-time");
	CHECK(m && m->value == 1750000 && !strcmp(m->unit, "ns"), "result: stall time metric in ns");
	m = result_find_metric(&r, "reclaim-efficiency");
	CHECK(m && fabs(m->value - 75) < 1e-9 && m->better == BETTER_HIGHER, "result: efficiency 96/128");
	m = result_find_metric(&r, "trace-dropped-events");
	CHECK(m && m->value == 3, "result: dropped events reported");
	CHECK(result_find_metric(&r, "reclaim-writeback-pages") != NULL, "result: writeback via writepage");
	CHECK(result_find_metric(&r, "compaction-runs") == NULL, "result: compaction not asked for, not reported");
	json_t *sk = json_object_get(r.info, "trace_skipped");
	CHECK(json_object_get(sk, "compaction-runs") == NULL, "result: what was not asked for is not 'skipped'");
	const struct named_hist *h = result_find_hist(&r, "direct-reclaim-stall");
	CHECK(h && h->h->count == 2 && !strcmp(h->unit, "ns"), "result: stall histogram");
	bool tl = false;
	for (size_t i = 0; i < r.nseries; i++)
		if (!strcmp(r.series[i].name, "direct-reclaim-stalls"))
			tl = r.series[i].n == 2 && r.series[i].t[0] == 0 && fabs(r.series[i].t[1] - 0.01) < 1e-9 &&
			     r.series[i].v[1] == 250000;
	CHECK(tl, "result: timeline in seconds since the case started");
	result_free(&r);

	/* a kernel without the stall events skips those metrics, with reasons */
	for (size_t i = 0; i < n; i++)
		if (!strcmp(res[i].role, "direct-reclaim-end")) {
			res[i].event = NULL;
			res[i].reason = xstrdup("no tracepoint vmscan/mm_vmscan_direct_reclaim_end on this kernel");
		}
	result_init(&r, "x");
	trace_stats_to_result(&s, res, n, 0, 0, &r);
	sk = json_object_get(r.info, "trace_skipped");
	CHECK(result_find_metric(&r, "direct-reclaim-stalls") == NULL, "skip: no stall metric without the end event");
	CHECK(json_is_string(json_object_get(sk, "direct-reclaim-stalls")), "skip: the metric is listed with why");
	CHECK(result_find_metric(&r, "memcg-reclaim-stalls") != NULL, "skip: other metrics stay");
	result_free(&r);
	trace_stats_free(&s);
	trace_resolved_free(res, n);
	close(fd);
	for (const char *const *e = have; *e; e++) {
		char *p = xasprintf("%s/%s/enable", dir, *e);
		unlink(p);
		*strrchr(p, '/') = '\0';
		rmdir(p);
		*strrchr(p, '/') = '\0';
		rmdir(p);
		free(p);
	}
	rmdir(dir);
}

static void test_perf_report(void)
{
	struct perf_sym s = { 0 };
	const char *l = "    24.73%  [k] finish_task_switch.isra.0\n";
	CHECK(perf_parse_report_line(l, strlen(l), &s) == 0 && s.kernel && fabs(s.percent - 24.73) < 1e-9 &&
	      !strcmp(s.sym, "finish_task_switch.isra.0"), "perf: a kernel symbol line");
	l = "     8.99%  [.] __strcmp_evex";
	CHECK(perf_parse_report_line(l, strlen(l), &s) == 0 && !s.kernel, "perf: a user symbol line");
	static const char *const bad[] = { "# Overhead  Symbol", "", "            |", "   --27.51%--ksys_write",
					   "  101.00%  [k] x", "  1.2.3%  [k] x", "  5%  [k]" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(perf_parse_report_line(bad[i], strlen(bad[i]), &s) < 0, "perf: rejects '%s'", bad[i]);
}

int main(void)
{
	static const struct captured caps[] = {
		{ FIX "reclaim-irqinfo-6.18.txt", 400, 1, 21, 1648, 331, 16384, 1648, 235000, 49000, 1664 },
		{ FIX "reclaim-tgid-6.18.txt", 300, 1, 21, 1648, 211, 8704, 1648, 183000, 37000, 2128 },
	};
	test_parse_line();
	for (size_t i = 0; i < ARRAY_SIZE(caps); i++)
		test_captured(&caps[i]);
	test_synthetic();
	test_resolve_and_result();
	test_perf_report();
	T_DONE();
}
