/* The signals vmregress catches so that what it changed on the host is put
 * back before it dies.
 *
 * Every signal whose default action ends the process is caught, except:
 * SIGKILL and SIGSTOP (they cannot be); SIGPIPE, which is ignored instead,
 * so that a write to a closed pipe fails with EPIPE and the command ends
 * cleanly; and the faults SIGSEGV, SIGBUS, SIGFPE and SIGILL, after which
 * memory may be corrupt and the sanitizers report them: those are left, as
 * kill -9 is, to `vmregress cleanup`.  Real-time signals are caught too. */
#ifndef VMR_SIGNALS_H
#define VMR_SIGNALS_H

#include <signal.h>
#include <stddef.h>

#define SIGNALS_MAX 64

/* Fill sigs (room for SIGNALS_MAX) with the caught signals; their count. */
size_t signals_fatal(int *sigs);
/* The caught signals as a set, for sa_mask. */
void signals_fatal_set(sigset_t *set);
/* For a forked child before it runs a workload or execs: every caught
 * signal and SIGPIPE back to the default action, and nothing blocked.
 * Async-signal-safe. */
void signals_default(void);

#endif
