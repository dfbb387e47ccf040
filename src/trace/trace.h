/* Kernel tracepoints while a case runs: reclaim stalls, kswapd, writeback
 * from reclaim, page-cache faults and compaction, read from tracefs.
 *
 * Three layers, each usable alone:
 *
 *  - The parser (parse.c) turns one line of trace_pipe text into a
 *    struct trace_event and folds events into struct trace_stats: begin/end
 *    pairs matched per task become stalls (count, histogram, timeline),
 *    kswapd wake/sleep per node becomes active time, lru_shrink_inactive
 *    gives pages scanned/reclaimed.  It never touches the kernel, so it is
 *    unit-tested on captured text and fuzzed.
 *
 *  - The session (session.c) owns one tracing instance,
 *    instances/vmregress-<pid> under tracefs (mounting tracefs privately and
 *    detached when it is not mounted, so no mount is left behind).  An
 *    instance has its own ring buffer, event enables, filters, set_event_pid
 *    and options, so vmregress never changes the host's top-level tracing,
 *    and several vmregress processes trace side by side.  Every setting the
 *    session writes is saved first and put back in reverse order
 *    (trace_session_close), and the instance itself is removed; what a
 *    killed process left is removed by trace_cleanup().
 *
 *  - The reader: a thread reading the instance's trace_pipe while the case
 *    runs, so the per-CPU buffers never fill; the kernel's per-CPU
 *    "overrun" and "dropped events" counters say whether anything was lost
 *    anyway, and the count is reported with the results.
 *
 * Text rather than trace_pipe_raw: the text form is stable across kernels
 * (field names, not offsets) and its microsecond timestamps are finer than
 * any reclaim stall worth reporting. */
#ifndef VMR_TRACE_H
#define VMR_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "core/hist.h"

/* What to trace: a mask of these. */
enum trace_kind {
	TRACE_RECLAIM = 1 << 0,     /* vmscan: stalls, kswapd, scanned/reclaimed, writeback */
	TRACE_FAULTS = 1 << 1,      /* user page faults, page-cache adds/deletes/faults */
	TRACE_COMPACTION = 1 << 2,  /* compaction runs, direct compaction, kcompactd */
	TRACE_ALL = TRACE_RECLAIM | TRACE_FAULTS | TRACE_COMPACTION,
};

/* ---- parser (parse.c) ---- */

/* One line of trace_pipe text:
 *   "   comm-pid   [cpu] flags  secs.usecs: event: fields"
 * (the flags column and a "(tgid)" column are optional).  name and fields
 * point into the line and are not NUL-terminated. */
struct trace_event {
	char comm[32];
	int pid;
	int cpu;
	uint64_t ts_ns;
	const char *name;
	size_t name_len;
	const char *fields;
	size_t fields_len;
};

/* Parse one line (without or with its newline).  Returns 0, or -1 when the
 * line is not an event line (a header comment, a lost-events note, junk). */
int trace_parse_line(const char *line, size_t len, struct trace_event *ev);
/* True when the event's name is exactly name. */
bool trace_event_is(const struct trace_event *ev, const char *name);
/* The value of "key=" in the fields: a decimal or 0x-hex unsigned number.
 * Returns 0, or -1 when absent or not a number. */
int trace_field_u64(const struct trace_event *ev, const char *key, uint64_t *out);

/* A stall: one begin/end pair of one task. */
struct trace_stall {
	uint64_t start_ns;   /* trace clock */
	uint64_t dur_ns;
};

/* A growable list of stalls (the timeline). */
struct trace_stalls {
	struct trace_stall *v;
	size_t n, cap;
};

/* Begin/end pairs of one kind: direct reclaim, memcg reclaim, compaction. */
struct trace_pair_stats {
	uint64_t count;            /* completed pairs */
	uint64_t time_ns;          /* their total duration */
	uint64_t unmatched;        /* an end without a begin, or a begin never ended */
	uint64_t reclaimed_pages;  /* sum of nr_reclaimed of the end events */
	uint64_t scanned_pages;    /* lru_shrink_inactive nr_scanned inside the pairs */
	struct hist *hist;         /* durations, ns */
	struct trace_stalls timeline;
};

enum trace_pair {
	TRACE_PAIR_DIRECT,
	TRACE_PAIR_MEMCG,
	TRACE_PAIR_COMPACTION,
	TRACE_NPAIRS,
};

/* An open begin event of one task (internal to the parser). */
struct trace_open {
	int pid;
	int pair;
	uint64_t begin_ns;
	uint64_t scanned;
};

#define TRACE_MAX_NODES 64

struct trace_stats {
	uint64_t events;                   /* every event line folded in */
	uint64_t bad_lines;                /* lines that did not parse */
	struct trace_pair_stats pair[TRACE_NPAIRS];
	/* kswapd: wake/sleep per node */
	uint64_t kswapd_wakes;
	uint64_t kswapd_active_ns;
	uint64_t kswapd_woke_ns[TRACE_MAX_NODES]; /* 0: asleep */
	uint64_t kswapd_wakeups_requested; /* mm_vmscan_wakeup_kswapd */
	/* mm_vmscan_lru_shrink_inactive, all tasks */
	uint64_t shrink_calls, scanned_pages, reclaimed_pages, kswapd_scanned_pages;
	uint64_t writeback_pages;          /* write_folio/writepage events */
	/* faults */
	uint64_t page_faults_user, filemap_adds, filemap_deletes, filemap_faults;
	/* compaction */
	uint64_t compaction_tries, compaction_success, kcompactd_wakes;
	/* kswapd's pids: its shrink events are not the workload's */
	int kswapd_pids[TRACE_MAX_NODES];
	size_t nkswapd_pids;
	uint64_t first_ns, last_ns;        /* timestamps seen */
	/* begin events not yet ended */
	struct trace_open *open;
	size_t nopen, capopen;
};

void trace_stats_init(struct trace_stats *s);
void trace_stats_free(struct trace_stats *s);
/* Fold one event in. */
void trace_stats_add(struct trace_stats *s, const struct trace_event *ev);
/* Parse and fold a buffer of whole lines; a trailing partial line is left:
 * returns how many bytes were consumed. */
size_t trace_stats_feed(struct trace_stats *s, const char *buf, size_t len);
/* Close what is still open at end_ns (kswapd still awake counts until then;
 * stalls never ended count as unmatched). */
void trace_stats_finish(struct trace_stats *s, uint64_t end_ns);

/* ---- tracefs session (session.c) ---- */

/* Event names by role.  A role may have several candidates across kernel
 * versions (mm_vmscan_writepage became mm_vmscan_write_folio in 6.x); the
 * first one the kernel has is used. */
struct trace_event_want {
	const char *role;           /* "writeback", names the metric it feeds */
	unsigned kind;              /* TRACE_* mask it belongs to */
	const char *const *cands;   /* "system/event", NULL-terminated */
};

/* Resolution of the wanted events against a tracefs events/ directory. */
struct trace_resolved {
	const char *role;
	const char *event;          /* "vmscan/mm_vmscan_write_folio", or NULL */
	char *reason;               /* why missing, when event is NULL */
};

struct trace_session;

/* The session never prints.  A call that fails sets *why to a malloc'd
 * reason that names the tracefs file and the kernel's error ("cannot set
 * tracefs set_event_pid to '': Read-only file system"); the caller stores
 * it with the result and says it to the user.  What could not be put back
 * afterwards is trace_session_close's to say. */

/* Find tracefs (or mount it privately), check it has the events the mask
 * needs, and create this process's instance.  Returns 0; -2 when tracing
 * cannot run here (no tracefs, not root, no instances) with *why set and
 * *ts NULL; -1 with *why set when the instance could not be set up (a
 * tracefs write failed): *ts is then set, and trace_session_close puts
 * back what was written and removes the instance, as after a success.
 * Events the kernel lacks are not errors: see trace_session_resolved(). */
int trace_session_open(struct trace_session **ts, unsigned kinds, char **why);
/* What was found for every wanted role (n entries). */
const struct trace_resolved *trace_session_resolved(const struct trace_session *ts, size_t *n);
/* Start tracing the given pids (and their children) plus kswapd and
 * kcompactd: set the pid filter, enable events, start the reader thread,
 * which folds events into stats (initialised by the caller, not touched by
 * it until trace_session_stop returns).  0, or -1 with *why set. */
int trace_session_start(struct trace_session *ts, const pid_t *pids, size_t npids,
			struct trace_stats *stats, char **why);
/* Stop tracing, drain the buffer into the stats, disable events.  *dropped
 * gets the events the kernel lost since start (per-CPU overrun + dropped
 * events).  0, or -1 with *why set (why may be NULL: the reason is
 * dropped). */
int trace_session_stop(struct trace_session *ts, uint64_t *dropped, char **why);
/* Restore every setting written, remove the instance, unmount.  0, or -1
 * with *why naming each setting that could not be restored and an
 * instance that could not be removed (`vmregress cleanup` removes it);
 * the trace itself is not the worse for it.  ts may be NULL; why may be
 * NULL. */
int trace_session_close(struct trace_session *ts, char **why);
/* The trace clock ("mono") now, in ns, as the events' timestamps read. */
uint64_t trace_clock_now_ns(void);

/* The host's tracing settings as "path: value" lines: the top level's
 * tracing_on, buffer_size_kb, current_tracer, trace_clock, trace_options,
 * set_event, set_event_pid, the enable and filter of every event vmregress
 * uses, and the list of instances.  What tests compare before and after.
 * Returns a malloc'd string, or NULL when tracefs cannot be reached. */
char *trace_settings_snapshot(void);

/* Resolve wanted events against an events directory (a tracefs mount, or a
 * directory shaped like one).  Returns a malloc'd array of n entries; free
 * with trace_resolved_free. */
struct trace_resolved *trace_resolve_events(int events_dirfd, unsigned kinds, size_t *n);
void trace_resolved_free(struct trace_resolved *r, size_t n);

/* Remove tracing instances whose owner is gone (instances are named
 * "vmregress-PID-START-SEQ" like the sandbox's cgroups, so a reused PID is
 * never mistaken for the owner), a private tracefs mount a killed process
 * left, and profile directories (perf_cleanup_report).  Appends one object
 * per thing done to actions, in the shape `vmregress cleanup` prints:
 * {"action", "what", "path", "owner_pid", "from", "error"}.  Returns 0, or
 * -1 when something could not be undone (its object has "error"). */
int trace_cleanup_report(json_t *actions);

#endif
