/* The sandbox's signal handler and the list of open sandboxes it keeps:
 * every open sandbox is undone, async-signal-safely, when the process is
 * killed, and its children are killed first (docs/sandbox-safety.md).
 * What is still open at exit sandbox.c closes, walking the same list
 * (sb_open_last). */
#include "sandbox/sandbox_int.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/scratch.h"
#include "core/signals.h"
#include "core/util.h"
#include "sandbox/undo.h"

/* Open sandboxes, for the signal handler and atexit. */
static struct sandbox *volatile sb_list[SB_MAX_OPEN];
static int sb_busy;                    /* >0: inside a change; signals wait */
static volatile sig_atomic_t sb_pending;
static int sb_undoing;
static pid_t sb_handler_pid;

static void sb_undo_all(int sig);
static const char *volatile sb_note;

void sandbox_signal_note(const char *note) { __atomic_store_n(&sb_note, note, __ATOMIC_SEQ_CST); }

/* Critical sections: the journal and sb_list change only inside them, and a
 * signal arriving meanwhile is acted on when the last one ends. */
void sb_enter(void) { __atomic_add_fetch(&sb_busy, 1, __ATOMIC_SEQ_CST); }

void sb_leave(void)
{
	if (__atomic_sub_fetch(&sb_busy, 1, __ATOMIC_SEQ_CST) == 0 && sb_pending)
		sb_undo_all(sb_pending);
}

/* Add (or remove) a sandbox to the list the signal handler undoes.
 * Returns -1 when the list is full. */
int sb_register(struct sandbox *sb, bool add)
{
	for (int i = 0; i < SB_MAX_OPEN; i++) {
		if (add && !sb_list[i]) {
			sb_list[i] = sb;
			return 0;
		}
		if (!add && sb_list[i] == sb) {
			sb_list[i] = NULL;
			return 0;
		}
	}
	return add ? -1 : 0;
}

struct sandbox *sb_open_last(void)
{
	for (int i = SB_MAX_OPEN - 1; i >= 0; i--)
		if (sb_list[i])
			return sb_list[i];
	return NULL;
}

/* Undo every record backwards; async-signal-safe.  Returns failures. */
int sb_undo(struct sandbox *sb)
{
	int failed = 0;
	for (int i = sb->nrecs - 1; i >= 0; i--) {
		if (undo_rec(&sb->recs[i], &sb->owner) < 0)
			failed++;
		sb->nrecs = i;
	}
	if (sb->journal_fd >= 0) {
		close(sb->journal_fd);
		sb->journal_fd = -1;
	}
	if (sb->knob_lock_fd >= 0) {
		close(sb->knob_lock_fd);
		sb->knob_lock_fd = -1;
	}
	if (!failed && sb->journal_path[0])
		unlink(sb->journal_path);
	else if (failed)
		undo_say("some changes could not be undone; journal kept in ", sb->journal_path,
			 ": run 'vmregress cleanup' after this process has exited", NULL);
	sb->cg_path[0] = '\0';
	return failed;
}

/* Children that may still write to what the handler removes (a workload
 * outside any sandbox, a helper writing a trace): killed and reaped first. */
#define SB_MAX_CHILDREN 4
static volatile pid_t sb_children[SB_MAX_CHILDREN];

void sandbox_signal_child(pid_t pid, bool add)
{
	for (int i = 0; i < SB_MAX_CHILDREN; i++) {
		pid_t want = add ? 0 : pid;
		if (__atomic_compare_exchange_n(&sb_children[i], &want, add ? pid : 0, false, __ATOMIC_SEQ_CST,
						__ATOMIC_SEQ_CST))
			return;
	}
}

/* SIGKILL each child and its process group, and reap it: up to 2 s in
 * all, for one stuck in the kernel. */
static void sb_kill_children(void)
{
	for (int i = 0; i < SB_MAX_CHILDREN; i++) {
		pid_t pid = __atomic_exchange_n(&sb_children[i], 0, __ATOMIC_SEQ_CST);
		if (pid <= 0)
			continue;
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		for (int tries = 0; tries < 400 && waitpid(pid, NULL, WNOHANG) == 0; tries++) {
			struct timespec pause = { 0, 5000000 };
			nanosleep(&pause, NULL);
		}
	}
}

static void sb_undo_all(int sig)
{
	if (__atomic_exchange_n(&sb_undoing, 1, __ATOMIC_SEQ_CST))
		return;
	sb_kill_children();
	for (int i = SB_MAX_OPEN - 1; i >= 0; i--) {
		struct sandbox *sb = sb_list[i];
		if (sb && sb->pid == getpid())
			sb_undo(sb);
	}
	scratch_remove_all();
	const char *note = __atomic_load_n(&sb_note, __ATOMIC_SEQ_CST);
	if (note && write(2, note, strlen(note)) < 0) {
		/* nothing more to do about it on the way out */
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void sb_on_signal(int sig)
{
	if (getpid() != sb_handler_pid) {
		/* a forked child: the sandbox is its parent's to undo */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	if (__atomic_load_n(&sb_busy, __ATOMIC_SEQ_CST) > 0) {
		sb_pending = sig;
		return;
	}
	sb_undo_all(sig);
}

void sandbox_install_signal_handlers(void)
{
	if (sb_handler_pid == getpid())
		return;  /* once: a tracer may have chained its handler to ours */
	int sigs[SIGNALS_MAX] = { 0 };
	size_t n = signals_fatal(sigs);
	struct sigaction sa = { .sa_handler = sb_on_signal }, ign = { .sa_handler = SIG_IGN };
	signals_fatal_set(&sa.sa_mask);
	sigemptyset(&ign.sa_mask);
	sb_handler_pid = getpid();
	for (size_t i = 0; i < n; i++)
		sigaction(sigs[i], &sa, NULL);
	/* a reader that went away is an EPIPE from write, which the command
	 * handles, not a death with the sandbox still up */
	sigaction(SIGPIPE, &ign, NULL);
}
