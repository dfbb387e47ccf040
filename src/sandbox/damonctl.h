/* Driving one kdamond of DAMON's sysfs interface (/sys/kernel/mm/damon/
 * admin) for the length of a recording, and putting DAMON back as it was.
 *
 * DAMON is host state like a knob, and its interface is unforgiving:
 *  - writing kdamonds/nr_kdamonds removes every kdamond directory and makes
 *    new, empty ones, so whatever the others were configured with is lost;
 *    and the kernel refuses the write (EBUSY) while any kdamond is on;
 *  - a kdamond's contexts/nr_contexts does the same to its own context.
 * So vmregress uses a kdamond only where nothing can be lost: a blank one
 * (off, no context) left by whoever raised nr_kdamonds, or a new one when
 * there are none at all (nr_kdamonds 0).  Anything else is refused with
 * the reason, and DAMON is not touched.
 *
 * The change is journalled before it is made, as "damon N added:PID" (we
 * raised nr_kdamonds from N) or "damon N blank:PID" (we filled blank
 * kdamond N), PID being the process it monitors.  Undo, from the signal
 * handler, sandbox_close or `cleanup` after kill -9: turn kdamond N off if
 * it is on, then lower nr_kdamonds back to N, or empty its contexts.  A
 * kdamond that monitors another process by then is someone else's and is
 * left alone. */
#ifndef VMR_DAMONCTL_H
#define VMR_DAMONCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sandbox;

struct damonctl {
	int kdamond;             /* the kdamond's index */
	bool added;              /* nr_kdamonds raised for it; else a blank one */
	pid_t pid;               /* the process it monitors */
	char root[192];          /* the admin directory */
};

/* One region of the last aggregation interval, as DAMON reports it. */
struct damonctl_region {
	uint64_t start, end;     /* virtual addresses, end exclusive */
	uint32_t nr_accesses;    /* samples that found it accessed */
	uint32_t age;            /* aggregation intervals it kept its size and count */
};

/* Choose the kdamond to use under root (NULL: the kernel's), changing
 * nothing.  0, or -2 with why ("this kernel has no DAMON sysfs interface",
 * "kdamond 0 is on ...", "DAMON here monitors physical addresses only ..."):
 * it cannot be used here without changing what someone else set. */
int damonctl_pick(const char *root, struct damonctl *c, char *why, size_t whylen);

/* Journal the change through sb (sandbox_journal), then set the kdamond
 * up: virtual addresses of pid, sampling every sample_us, aggregating
 * every aggr_us, one "stat" scheme over every region (it does nothing but
 * lets the regions be read), and turn it on.  0, or -2 with why; what was
 * done is undone when sb is closed. */
int damonctl_start(struct sandbox *sb, struct damonctl *c, pid_t pid, uint64_t sample_us, uint64_t aggr_us,
		   char *why, size_t whylen);

/* The regions of the next complete aggregation interval (the kernel waits
 * for it), in address order, into *v (malloc'd; *n of them).  0, or -1
 * with errno (ESRCH: the kdamond stopped, as it does when its process
 * exits). */
int damonctl_regions(const struct damonctl *c, struct damonctl_region **v, size_t *n);

/* A recording's whole use of DAMON: take the knob lock (DAMON is
 * host-wide, like the knobs), choose a kdamond, open a sandbox without a
 * cgroup for its journal, and start the kdamond on pid with aggregation
 * intervals of aggr_us.  0, or -2 after a one-line error naming "--method
 * damon" (root is needed; DAMON in use or missing is said precisely).
 * Needs sandbox_install_signal_handlers, so that a signal puts DAMON back. */
struct damonctl_session;
int damonctl_session_open(pid_t pid, uint64_t aggr_us, struct damonctl_session **out);
/* damonctl_regions of the session's kdamond. */
int damonctl_session_regions(struct damonctl_session *s, struct damonctl_region **v, size_t *n);
/* Put DAMON back, let the knobs go, free s (NULL is fine). */
void damonctl_session_close(struct damonctl_session *s);

/* Undo journal record "damon id value" (async-signal-safe; see above).
 * 0, or -errno. */
int damonctl_undo(int id, const char *value);

/* Whether a journal record's value is "added:PID" or "blank:PID". */
bool damonctl_value_ok(const char *value);

#endif
