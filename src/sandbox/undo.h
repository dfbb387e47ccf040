/* Undoing one journal record.  Only async-signal-safe calls are used (no
 * allocation, no stdio), so the signal handler, sandbox_close and cleanup
 * all undo through the same code. */
#ifndef VMR_UNDO_H
#define VMR_UNDO_H

#include "sandbox/journal.h"

/* Cache what undo needs from calls that are not async-signal-safe (the
 * page size).  Called before the first sandbox is built. */
void undo_init(void);
/* Undo r; a change that was never made, or was undone already, is
 * success.  0 or -errno (after a message on stderr). */
int undo_rec(const struct jrec *r, const struct owner *owner);
/* Write strings to stderr with write(2), prefixed "vmregress: ", then a
 * newline; the list ends with NULL. */
void undo_say(const char *first, ...);

#endif
