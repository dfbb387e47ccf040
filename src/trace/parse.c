/* trace_pipe text: parse event lines and fold them into reclaim, fault and
 * compaction statistics.  No I/O here. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "trace/trace.h"

/* Growth bound for open begin events: a workload has a handful of tasks;
 * garbage input must not grow memory without limit. */
#define TRACE_MAX_OPEN 4096

static bool parse_digits(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	if (s >= end || !isdigit((unsigned char)*s))
		return false;
	for (; s < end && isdigit((unsigned char)*s); s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*out = v;
	return true;
}

/* The "[cpu]" column: the first "[digits]" followed by a space. */
static const char *trace_find_cpu(const char *line, const char *end, int *cpu)
{
	for (const char *p = line; p < end; p++) {
		if (*p != '[')
			continue;
		const char *q = p + 1;
		uint64_t v;
		if (!parse_digits(&q, end, &v) || q + 1 >= end || q[0] != ']' || q[1] != ' ' || v > 1u << 20)
			continue;
		*cpu = (int)v;
		return p;
	}
	return NULL;
}

/* "comm-pid" and an optional "(tgid)" before the cpu column. */
static int trace_parse_task(const char *line, const char *bracket, struct trace_event *ev)
{
	const char *e = bracket;
	while (e > line && e[-1] == ' ')
		e--;
	if (e > line && e[-1] == ')') { /* record-tgid: "(  123)" or "(-------)" */
		const char *o = e - 1;
		while (o > line && *o != '(')
			o--;
		if (*o != '(')
			return -1;
		e = o;
		while (e > line && e[-1] == ' ')
			e--;
	}
	const char *dash = e;
	while (dash > line && dash[-1] != '-')
		dash--;
	if (dash == line)
		return -1;
	const char *p = dash;
	uint64_t pid;
	if (!parse_digits(&p, e, &pid) || p != e || pid > INT32_MAX)
		return -1;
	ev->pid = (int)pid;
	const char *c = line;
	while (c < dash - 1 && *c == ' ')
		c++;
	size_t n = (size_t)(dash - 1 - c);
	if (n >= sizeof(ev->comm))
		n = sizeof(ev->comm) - 1;
	memcpy(ev->comm, c, n);
	ev->comm[n] = '\0';
	return 0;
}

/* "secs.usecs:" (with the optional irq-info flags column before it). */
static const char *trace_parse_ts(const char *p, const char *end, uint64_t *ts_ns)
{
	for (int col = 0; col < 2; col++) {
		while (p < end && *p == ' ')
			p++;
		const char *q = p;
		uint64_t secs, frac;
		if (parse_digits(&q, end, &secs) && q < end && *q == '.') {
			const char *f = ++q;
			if (parse_digits(&q, end, &frac) && q < end && *q == ':' && q - f <= 9) {
				for (long d = q - f; d < 9; d++)
					frac *= 10;
				if (secs > UINT64_MAX / 1000000000ull - 1)
					return NULL;
				*ts_ns = secs * 1000000000ull + frac;
				return q + 1;
			}
		}
		/* not a timestamp: skip one column (the flags, like "d..1.") */
		while (p < end && *p != ' ')
			p++;
	}
	return NULL;
}

int trace_parse_line(const char *line, size_t len, struct trace_event *ev)
{
	const char *end = line + len;
	while (end > line && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	memset(ev, 0, sizeof(*ev));
	if (line == end || line[0] == '#')
		return -1;
	const char *bracket = trace_find_cpu(line, end, &ev->cpu);
	if (!bracket || trace_parse_task(line, bracket, ev) < 0)
		return -1;
	const char *p = trace_parse_ts((const char *)memchr(bracket, ']', (size_t)(end - bracket)) + 1, end, &ev->ts_ns);
	if (!p)
		return -1;
	while (p < end && *p == ' ')
		p++;
	const char *name = p;
	while (p < end && *p != ':' && *p != ' ')
		p++;
	if (p == name || p >= end || *p != ':')
		return -1;
	ev->name = name;
	ev->name_len = (size_t)(p - name);
	p++;
	while (p < end && *p == ' ')
		p++;
	ev->fields = p;
	ev->fields_len = (size_t)(end - p);
	return 0;
}

bool trace_event_is(const struct trace_event *ev, const char *name)
{
	size_t n = strlen(name);
	return ev->name_len == n && !memcmp(ev->name, name, n);
}

int trace_field_u64(const struct trace_event *ev, const char *key, uint64_t *out)
{
	size_t klen = strlen(key);
	const char *p = ev->fields, *end = ev->fields + ev->fields_len;
	while (p < end) {
		bool at_word = p == ev->fields || p[-1] == ' ' || p[-1] == ',';
		if (at_word && (size_t)(end - p) > klen && !memcmp(p, key, klen) && p[klen] == '=') {
			const char *v = p + klen + 1;
			uint64_t x = 0;
			if (end - v > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
				const char *h = v + 2;
				for (; h < end && isxdigit((unsigned char)*h); h++) {
					if (x >> 60)
						return -1;
					x = x * 16 + (uint64_t)(isdigit((unsigned char)*h) ? *h - '0' : (tolower((unsigned char)*h) - 'a' + 10));
				}
				if (h == v + 2)
					return -1;
			} else if (!parse_digits(&v, end, &x)) {
				return -1;
			}
			*out = x;
			return 0;
		}
		p++;
	}
	return -1;
}

void trace_stats_init(struct trace_stats *s)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < TRACE_NPAIRS; i++)
		s->pair[i].hist = hist_new();
}

void trace_stats_free(struct trace_stats *s)
{
	for (int i = 0; i < TRACE_NPAIRS; i++) {
		free(s->pair[i].hist);
		free(s->pair[i].timeline.v);
	}
	free(s->open);
	memset(s, 0, sizeof(*s));
}

static void stalls_add(struct trace_stalls *t, uint64_t start, uint64_t dur)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->n++] = (struct trace_stall){ .start_ns = start, .dur_ns = dur };
}

static struct trace_open *open_find(struct trace_stats *s, int pid, int pair)
{
	for (size_t i = 0; i < s->nopen; i++)
		if (s->open[i].pid == pid && (pair < 0 || s->open[i].pair == pair))
			return &s->open[i];
	return NULL;
}

static void open_remove(struct trace_stats *s, struct trace_open *o)
{
	*o = s->open[--s->nopen];
}

static void pair_begin(struct trace_stats *s, int pair, const struct trace_event *ev)
{
	struct trace_open *o = open_find(s, ev->pid, pair);
	if (o) { /* a begin lost its end: count it, restart */
		s->pair[pair].unmatched++;
		open_remove(s, o);
	}
	if (s->nopen >= TRACE_MAX_OPEN) {
		s->pair[pair].unmatched++;
		return;
	}
	if (s->nopen == s->capopen) {
		s->capopen = s->capopen ? s->capopen * 2 : 16;
		s->open = xrealloc(s->open, s->capopen * sizeof(*s->open));
	}
	s->open[s->nopen++] = (struct trace_open){ .pid = ev->pid, .pair = pair, .begin_ns = ev->ts_ns };
}

static void pair_end(struct trace_stats *s, int pair, const struct trace_event *ev)
{
	struct trace_pair_stats *p = &s->pair[pair];
	struct trace_open *o = open_find(s, ev->pid, pair);
	if (!o || ev->ts_ns < o->begin_ns) {
		p->unmatched++;
		if (o)
			open_remove(s, o);
		return;
	}
	uint64_t dur = ev->ts_ns - o->begin_ns, nr;
	p->count++;
	p->time_ns += dur;
	p->scanned_pages += o->scanned;
	if (trace_field_u64(ev, "nr_reclaimed", &nr) == 0)
		p->reclaimed_pages += nr;
	hist_add(p->hist, dur);
	stalls_add(&p->timeline, o->begin_ns, dur);
	open_remove(s, o);
}

static bool is_kswapd_pid(const struct trace_stats *s, int pid)
{
	for (size_t i = 0; i < s->nkswapd_pids; i++)
		if (s->kswapd_pids[i] == pid)
			return true;
	return false;
}

static void kswapd_event(struct trace_stats *s, const struct trace_event *ev, bool wake)
{
	uint64_t nid;
	if (trace_field_u64(ev, "nid", &nid) < 0 || nid >= TRACE_MAX_NODES)
		return;
	uint64_t *woke = &s->kswapd_woke_ns[nid];
	if (wake) {
		s->kswapd_wakes++;
		if (!*woke)
			*woke = ev->ts_ns ? ev->ts_ns : 1;
	} else if (*woke) {
		if (ev->ts_ns > *woke)
			s->kswapd_active_ns += ev->ts_ns - *woke;
		*woke = 0;
	}
}

static void shrink_event(struct trace_stats *s, const struct trace_event *ev)
{
	uint64_t scanned = 0, reclaimed = 0;
	trace_field_u64(ev, "nr_scanned", &scanned);
	trace_field_u64(ev, "nr_reclaimed", &reclaimed);
	s->shrink_calls++;
	s->scanned_pages += scanned;
	s->reclaimed_pages += reclaimed;
	if (is_kswapd_pid(s, ev->pid))
		s->kswapd_scanned_pages += scanned;
	/* attribute the scan to the reclaim the task is in */
	struct trace_open *o = open_find(s, ev->pid, TRACE_PAIR_DIRECT);
	if (!o)
		o = open_find(s, ev->pid, TRACE_PAIR_MEMCG);
	if (o)
		o->scanned += scanned;
}

static void compaction_end(struct trace_stats *s, const struct trace_event *ev)
{
	const char *st = NULL;
	for (size_t i = 0; i + 7 <= ev->fields_len; i++)
		if (!memcmp(ev->fields + i, "status=", 7)) {
			st = ev->fields + i + 7;
			break;
		}
	if (st && (size_t)(ev->fields + ev->fields_len - st) >= 7 && !memcmp(st, "success", 7))
		s->compaction_success++;
	pair_end(s, TRACE_PAIR_COMPACTION, ev);
}

/* Page-cache events are per folio: "order=" says how many pages. */
static uint64_t folio_pages(const struct trace_event *ev)
{
	uint64_t order = 0;
	trace_field_u64(ev, "order", &order);
	return order <= 20 ? 1ull << order : 1;
}

/* Event name to action.  Names are the kernel's, so the table also serves
 * as the list of what the statistics understand. */
void trace_stats_add(struct trace_stats *s, const struct trace_event *ev)
{
	s->events++;
	if (!s->first_ns || ev->ts_ns < s->first_ns)
		s->first_ns = ev->ts_ns;
	if (ev->ts_ns > s->last_ns)
		s->last_ns = ev->ts_ns;
	if (trace_event_is(ev, "mm_vmscan_direct_reclaim_begin"))
		pair_begin(s, TRACE_PAIR_DIRECT, ev);
	else if (trace_event_is(ev, "mm_vmscan_direct_reclaim_end"))
		pair_end(s, TRACE_PAIR_DIRECT, ev);
	else if (trace_event_is(ev, "mm_vmscan_memcg_reclaim_begin"))
		pair_begin(s, TRACE_PAIR_MEMCG, ev);
	else if (trace_event_is(ev, "mm_vmscan_memcg_reclaim_end"))
		pair_end(s, TRACE_PAIR_MEMCG, ev);
	else if (trace_event_is(ev, "mm_vmscan_kswapd_wake"))
		kswapd_event(s, ev, true);
	else if (trace_event_is(ev, "mm_vmscan_kswapd_sleep"))
		kswapd_event(s, ev, false);
	else if (trace_event_is(ev, "mm_vmscan_wakeup_kswapd"))
		s->kswapd_wakeups_requested++;
	else if (trace_event_is(ev, "mm_vmscan_lru_shrink_inactive"))
		shrink_event(s, ev);
	else if (trace_event_is(ev, "mm_vmscan_write_folio") || trace_event_is(ev, "mm_vmscan_writepage"))
		s->writeback_pages++;
	else if (trace_event_is(ev, "page_fault_user"))
		s->page_faults_user++;
	else if (trace_event_is(ev, "mm_filemap_add_to_page_cache"))
		s->filemap_adds += folio_pages(ev);
	else if (trace_event_is(ev, "mm_filemap_delete_from_page_cache"))
		s->filemap_deletes += folio_pages(ev);
	else if (trace_event_is(ev, "mm_filemap_fault"))
		s->filemap_faults++;
	else if (trace_event_is(ev, "mm_compaction_begin"))
		pair_begin(s, TRACE_PAIR_COMPACTION, ev);
	else if (trace_event_is(ev, "mm_compaction_end"))
		compaction_end(s, ev);
	else if (trace_event_is(ev, "mm_compaction_try_to_compact_pages"))
		s->compaction_tries++;
	else if (trace_event_is(ev, "mm_compaction_kcompactd_wake"))
		s->kcompactd_wakes++;
}

size_t trace_stats_feed(struct trace_stats *s, const char *buf, size_t len)
{
	size_t off = 0;
	for (;;) {
		const char *nl = memchr(buf + off, '\n', len - off);
		if (!nl)
			return off;
		size_t n = (size_t)(nl - (buf + off));
		struct trace_event ev = { 0 };
		if (trace_parse_line(buf + off, n, &ev) == 0)
			trace_stats_add(s, &ev);
		else if (n && buf[off] != '#' && memmem(buf + off, n, "LOST", 4) == NULL)
			s->bad_lines++;
		off += n + 1;
	}
}

void trace_stats_finish(struct trace_stats *s, uint64_t end_ns)
{
	for (size_t nid = 0; nid < TRACE_MAX_NODES; nid++) {
		if (s->kswapd_woke_ns[nid] && end_ns > s->kswapd_woke_ns[nid])
			s->kswapd_active_ns += end_ns - s->kswapd_woke_ns[nid];
		s->kswapd_woke_ns[nid] = 0;
	}
	for (size_t i = 0; i < s->nopen; i++)
		s->pair[s->open[i].pair].unmatched++;
	s->nopen = 0;
}
