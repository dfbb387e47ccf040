/* Inside cmd/: the note `run` leaves for the signal handler, so that a run
 * stopped by Ctrl-C or a kill says what it stored and how to compare it. */
#ifndef VMR_CMD_RUN_INT_H
#define VMR_CMD_RUN_INT_H

#include "harness/run.h"

/* The runs of rs are begun: publish the note (0 iterations kept) and keep
 * it up to date as iterations are stored.  db: the --db given, or NULL. */
void runcmd_note_begin(struct run_state *rs, const char *db);
/* The run ended by itself: no note. */
void runcmd_note_end(void);

#endif
