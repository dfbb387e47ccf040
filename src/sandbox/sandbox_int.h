/* Inside sandbox/: the sandbox itself, and the critical sections and
 * list of open sandboxes that sandbox.c shares with the signal handler
 * (handler.c). */
#ifndef VMR_SANDBOX_INT_H
#define VMR_SANDBOX_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/owner.h"
#include "sandbox/cgroup.h"
#include "sandbox/journal.h"
#include "sandbox/oomlog.h"
#include "sandbox/sandbox.h"
#include "sandbox/statflush.h"
#include "sandbox/swap.h"

#define SB_MAX_OPEN 8

struct sandbox {
	pid_t pid;                         /* the process that built it */
	struct owner owner;
	int seq;
	bool no_sandbox;
	uint64_t mem_bytes, high_bytes, low_bytes;
	uint64_t stats_flush_ns;
	struct statflush *flush;           /* NULL when not refreshing */
	struct swap_spec swap;
	uint64_t swap_bytes;
	char swap_dev[JOURNAL_PATH_MAX];   /* file or /dev/zramN, "" if none */
	int zram_id;
	bool zram_added;
	struct cg_root cg;
	char cg_path[JOURNAL_PATH_MAX];    /* "" until created */
	struct oomlog oom_log;             /* between sandbox_oom_watch and _report */
	char journal_path[JOURNAL_PATH_MAX];
	int journal_fd;
	int knob_lock_fd;                  /* held while our knobs are set */
	char set_names[JOURNAL_MAX_RECS][48];
	int nset;
	struct jrec recs[JOURNAL_MAX_RECS];
	volatile int nrecs;
};

/* Critical sections: the journal and the list of open sandboxes change only
 * inside them, and a signal arriving meanwhile is acted on when the last
 * one ends. */
void sb_enter(void);
void sb_leave(void);
int sb_register(struct sandbox *sb, bool add);
int sb_undo(struct sandbox *sb);
/* The open sandbox in the list's last place, or NULL when none is open:
 * sandbox.c's atexit closes each in turn (closing takes it off). */
struct sandbox *sb_open_last(void);

#endif
