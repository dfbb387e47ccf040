/* Owner naming: everything vmregress creates on the host (a sandbox's
 * journal, cgroup, swap file and zram device, a tracefs instance) is named
 * after the process that made it, "vmregress-PID-START-SEQ", START being
 * field 22 of /proc/PID/stat so that a reused PID is not mistaken for the
 * owner.  Cleanup reads the owner back from the name and removes what a
 * dead owner left. */
#ifndef VMR_OWNER_H
#define VMR_OWNER_H

#include <stdbool.h>
#include <stddef.h>

/* Who made a journal (or a cgroup, swap file, zram device, trace instance). */
struct owner {
	int pid;
	unsigned long long start;        /* field 22 of /proc/PID/stat */
};

/* This process. */
int owner_self(struct owner *o);
/* True when a process with this PID exists and started at o->start. */
bool owner_alive(const struct owner *o);
/* The start time of a process, 0 or -errno. */
int owner_proc_start(int pid, unsigned long long *start);

/* The base name vmregress gives what it creates for owner o, sequence seq:
 * "vmregress-PID-START-SEQ".  Returns buf. */
char *owner_name(char *buf, size_t len, const struct owner *o, int seq);
/* Parse such a name (a suffix like ".swap" may follow when suffix != NULL
 * and must then match).  0 or -1. */
int owner_name_parse(const char *name, const char *suffix, struct owner *o, int *seq);

/* The unsigned decimal number at *p (no sign, no spaces, no overflow),
 * advancing *p past it: the one number reader of names and journal lines.
 * 0, or -1 when *p holds no digit or the number overflows. */
int owner_number(const char **p, unsigned long long *v);

#endif
