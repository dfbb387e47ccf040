/* The sandbox journal: one append-only text file per sandbox, naming its
 * owner (PID and the start time from /proc/PID/stat, so that a reused PID is
 * not mistaken for the owner) and, before each change to the host, a record
 * of how to undo it.  Every line carries a CRC-32 of its text; every append
 * is written before the change is made.
 *
 * Written, not fsync'd: the journal is read by this process's signal
 * handler, by a later `vmregress cleanup` after it died (however it died:
 * the page cache outlives it) and by the next sandbox, never by anything
 * the page cache would not reach.  A crash of the whole machine undoes
 * every change but one by itself (knobs, cgroups, swapon and zram do not
 * outlive a boot), and the one left, a swap file, is found by its name in
 * the swap directory; a journal that such a crash left cut short or empty
 * is older than the boot, and recovery removes it as such (recover.c).
 * Syncing each record cost a busy disk tens of milliseconds per change.
 *
 *   vmregress-journal 2 PID START #crc
 *   knob vm.swappiness 60 #crc          old value, restored on undo
 *   swapfile /var/lib/vmregress/swap/vmregress-PID-START-SEQ.swap #crc
 *   swapon /var/lib/vmregress/swap/vmregress-PID-START-SEQ.swap #crc
 *   zram 1 added #crc                   "added" (hot_add), or "reused:ALGO"
 *                                       (a free device; ALGO put back after)
 *   swapon /dev/zram1 #crc
 *   cgroup /sys/fs/cgroup/memory/vmregress-PID-START-SEQ #crc
 *   damon 0 added:PID #crc              kdamond 0 made for process PID
 *                                       ("added": nr_kdamonds raised from 0;
 *                                       "blank": a blank one filled; a kind
 *                                       damonctl.c registers, struct jrec_kind)
 *
 * A path or value is one word: from version 2 on, a space, a control or
 * non-ASCII byte, '#' and '\' are written as the kernel writes them in
 * /proc/swaps, "\ooo" in octal ("/srv/vm state/swap" is
 * "/srv/vm\040state/swap"), so a state directory may hold a space.  A
 * journal of version 1, which a vmregress before the escapes wrote, is read
 * as it was written: a path record's path is the rest of its line, spaces
 * and all.
 *
 * Undo walks the records backwards.  Every undo is idempotent, because a
 * record is written before its change and the change may never have been
 * made.  A journal is only acted on when every line parses, every checksum
 * matches and every path is one vmregress itself would have made for that
 * owner; otherwise it is refused as corrupt or foreign.  A last line without
 * its newline is a record whose write was cut short: its change was never
 * made, so it is ignored. */
#ifndef VMR_JOURNAL_H
#define VMR_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/owner.h"

#define JOURNAL_MAGIC "vmregress-journal"
#define JOURNAL_VERSION 2
#define JOURNAL_MAX_RECS 48
#define JOURNAL_PATH_MAX 256
#define JOURNAL_VALUE_MAX 96
/* A path or value as written: every byte may be an escape of four. */
#define JOURNAL_WORD_MAX (4 * JOURNAL_PATH_MAX)

/* The core's own record types; a type from JREC_KINDS on is a kind that a
 * module above the core registered (journal_kind_register). */
enum jrec_type { JREC_KNOB, JREC_SWAPFILE, JREC_SWAPON, JREC_ZRAM, JREC_CGROUP, JREC_KINDS };

/* Fixed-size so that the signal handler can undo without allocating. */
struct jrec {
	enum jrec_type type;
	int id;                          /* JREC_ZRAM: device number; a kind's: its id */
	char path[JOURNAL_PATH_MAX];     /* knob name, file, device, cgroup dir */
	char value[JOURNAL_VALUE_MAX];   /* knob: old value; zram: added|reused[:ALGO];
	                                    damon: added|blank:PID */
};

/* A kind of record that a module above the sandbox's core journals (DAMON's
 * kdamonds, damonctl.c): "NAME ID VALUE".  The journal parses and checks
 * its records, undo puts them back and cleanup reports them through this
 * table alone, so the core knows nothing of the module.  A module
 * registers its kind once, from a constructor, before any journal is read
 * or written; the signal handler's undo reads the table as it stands. */
struct jrec_kind {
	const char *name;                        /* the record's first word: "damon" */
	int id_max;                              /* ids run from 0 to id_max */
	bool (*value_ok)(const char *value);     /* the value is one the module writes */
	int (*undo)(int id, const char *value);  /* 0 or -errno; async-signal-safe */
	const char *what, *done;                 /* for cleanup: "kdamond", "stopped" */
	const char *cannot;                      /* undo's message when undo fails */
	const char *path_prefix;                 /* where record ID lives: prefix + ID */
	const char *value_key;                   /* status's name for the value */
};
#define JOURNAL_MAX_KINDS 4
/* Register k (kept, not copied); its record type, or -1 when the table is
 * full or a kind of that name is registered already. */
int journal_kind_register(const struct jrec_kind *k);
/* The registered kind of type t, or NULL (one of the core's own types, or
 * none). */
const struct jrec_kind *journal_kind(enum jrec_type t);

/* CRC-32 (IEEE, zlib's crc32) of a buffer. */
uint32_t journal_crc32(const void *buf, size_t len);

/* Format one record as a journal line with its checksum and newline.
 * Returns the length, or -1 when it does not fit. */
int journal_format(char *buf, size_t len, const struct jrec *r);
/* Parse one record line of a journal of this version (without the
 * newline).  Returns 0, or -1 with *why set to a static reason. */
int journal_parse_line(const char *line, size_t len, struct jrec *r, const char **why);

/* Parse a whole journal.  swapdir, when not NULL, is the only directory its
 * swap files may be in.  Returns the number of records, or -1 with why
 * filled ("line 3: bad checksum"). */
int journal_parse(const char *buf, size_t len, const char *swapdir, struct owner *owner,
		  struct jrec *recs, size_t max, char *why, size_t whylen);

/* Create a journal file (O_EXCL, O_NOFOLLOW, 0600) with its header line.
 * Returns an fd or -errno. */
int journal_create(const char *path, const struct owner *o);
/* Append one record.  0 or -errno. */
int journal_append(int fd, const struct jrec *r);

#endif
