/* Replaying a reference trace over a mapped region, timing the accesses.
 *
 * Each reference reads (or writes) the first word of its page, as the
 * seed's bench_mmap did.  A read checks the word against the page's
 * pattern, page index + salt, written before the replay by replay_fill
 * with its complement in the page's last word; a write stores it.  Either
 * way replay_verify reads every referenced page back afterwards, first and
 * last word (the complement after a fill, zero after a write replay over
 * fresh memory), so that a torn page or one moved from another index is
 * caught outside the timed loop, at no cost to it.  Each pass of a
 * write replay stores its own word (replay_pass_salt), so the verify
 * phase, given the last pass's salt, also catches a page that came back
 * holding an earlier pass's word.
 *
 * Timing costs no system call: a cycle counter is read once per batch of
 * references.  The time of a batch is the counter at its end minus the
 * counter at the end of the previous batch, accumulated in a log-linear
 * histogram of ticks (converted to nanoseconds once, at the end, with the
 * tick rate measured over the replay itself).  Reading the counter waits
 * for outstanding loads, costing about one memory latency per read; reading
 * it once per batch leaves the accesses inside a batch free to overlap as
 * in a bare loop.
 *
 * Batches adapt: each pass starts with batches of cfg.batch references
 * (the mmap workload's default: 32); every quick batch doubles the next
 * one, up to cfg.batch_max (default 1024); a slow batch sets it back to
 * cfg.batch.  A resident stretch is thus timed in long batches, at a cost
 * of a fraction of a nanosecond per access, and a faulting stretch in
 * short ones, each fault placed within cfg.batch references.
 *
 * With cfg.batch 1 every access is timed exactly (batches do not grow),
 * one histogram sample per reference, and an access is slow when it takes
 * at least slow_ns.  With batches of N references (the last batch of a
 * pass may be shorter; N is then its length), a is the running average
 * time of a resident access: 0 until the first quick batch, then after
 * each quick batch the mean of a and that batch's average, so that it
 * follows the phases of a pattern (res_avg carries it from pass to pass):
 *  - a batch is quick when it takes less than slow_ns + N * a, or less
 *    than 2 * N * a (a long batch in a stretch slower than the last ones
 *    is not a fault): it adds N samples of its average time to the
 *    histogram;
 *  - otherwise it is slow and holds a slow access (a fault, a preemption).
 *    It adds one sample of d - (N-1) * a, clamped at 0, and N-1 samples
 *    of a.
 * The histogram's count and sum are exact (every reference once, sum = the
 * measured ticks); its shape, and above all its tail, is per batch.
 *
 * A slow access (batch 1) or slow batch is kept as (ref, page, refs,
 * ticks): ref is the index of its first reference, page that reference's
 * page, refs the number of references in it (1 with batch 1) and ticks
 * the whole batch's time, up to max_slow of them.  Which reference of a
 * slow batch faulted is not known, so its faults are counted against the
 * batch's first page.  At each slow access the thread's fault counters
 * (getrusage RUSAGE_THREAD) are read: faults since the previous slow
 * access are counted against its page.  Faults in quick batches are
 * therefore counted against the next slow access's page; what
 * is left at the end is "unattributed", and the totals are always exact. */
#ifndef VMR_REPLAY_H
#define VMR_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t replay_ticks(void)
{
	return __rdtsc();
}
#define REPLAY_TIMER "tsc"
#else
#include "core/timer.h"
static inline uint64_t replay_ticks(void)
{
	return vmr_now_ns();
}
#define REPLAY_TIMER "clock_gettime"
#endif

static inline uint64_t replay_word(uint32_t page, uint64_t salt)
{
	return (uint64_t)page + salt;
}

struct replay_cfg {
	bool write;           /* store the pattern instead of reading it */
	bool verify;          /* reads: check the pattern */
	uint64_t salt;
	uint64_t slow_ns;     /* keep accesses (batches: beyond their resident time) this slow */
	size_t max_slow;
	uint32_t batch;       /* references per counter read, at first and after
			       * a slow batch; 0 counts as 1 */
	uint32_t batch_max;   /* quick batches double up to this (below batch:
			       * batch; fixed batches) */
};

/* The salt a pass stores or expects: a write replay stores a new word on
 * every pass (salt + pass), so that a page that lost a later pass's write
 * and came back holding an earlier pass's word fails replay_verify; a read
 * replay reads what replay_fill wrote once (salt). */
static inline uint64_t replay_pass_salt(const struct replay_cfg *cfg, unsigned pass)
{
	return cfg->write ? cfg->salt + pass : cfg->salt;
}

struct replay_slow {
	uint64_t ref;         /* first reference, over all passes: pass * references + i */
	uint32_t page;        /* the page of reference ref */
	uint32_t refs;        /* references in the batch: 1 with batch 1 */
	uint64_t ticks;       /* converted by replay_finish into ns */
	uint32_t minflt, majflt;
};

struct replay {
	struct replay_cfg cfg;
	uint64_t pages, slow_ticks;
	struct hist *ticks_hist;   /* per-reference ticks (per batch: see above) */
	double res_avg;            /* ticks of a resident access (see above) */
	uint32_t *page_minflt, *page_majflt;
	struct replay_slow *slow;
	size_t nslow, slow_cap;
	uint64_t slow_dropped;     /* slow accesses beyond max_slow */
	uint64_t minflt, majflt;   /* totals over every pass (thread rusage) */
	uint64_t unattr_minflt, unattr_majflt;
	uint64_t refs, ns;         /* references replayed, wall time of the passes */
	uint64_t batches;          /* counter reads: timed batches (or accesses) */
	uint64_t t0_ticks, t0_ns, ticks_total;
	uint64_t last_minflt, last_majflt;
	uint64_t bad;              /* pattern mismatches */
	uint64_t bad_ref, bad_found;
	uint32_t bad_page;
	double ns_per_tick;        /* final after the last pass */
	double timer_cost_ns;      /* one timer read, measured by replay_init */
};

/* Per-pass figures. */
struct replay_pass {
	uint64_t ns, minflt, majflt, slow;
};

/* Prepare for a region of pages pages.  Calibrates the tick rate roughly
 * (a few milliseconds) for the slow threshold. */
void replay_init(struct replay *rp, uint64_t pages, const struct replay_cfg *cfg);
void replay_free(struct replay *rp);

/* Write every page's pattern word, and its complement in the page's last
 * word (the prefill of read replays). */
void replay_fill(char *region, uint64_t pages, size_t page_size, uint64_t salt);

/* Replay refs[0..n) once over region.  pass numbers the slow accesses. */
void replay_run_pass(struct replay *rp, const uint32_t *refs, uint64_t n, char *region, size_t page_size,
		     unsigned pass, struct replay_pass *out);

/* After the last pass: the tick rate over the whole replay, unattributed
 * faults, slow times in ns.  Returns the histogram in ns (caller owns). */
struct hist *replay_finish(struct replay *rp);

/* What a page's last word must hold in replay_verify. */
enum replay_tail {
	REPLAY_TAIL_COMPLEMENT,   /* ~pattern: the page was written by replay_fill */
	REPLAY_TAIL_ZERO,         /* 0: a write replay over fresh (zeroed) memory */
};

/* Check that every page referenced by refs holds its pattern in its first
 * word and the tail in its last; returns the number of bad pages, the
 * first in *bad_page and its first word (or, when only the last word is
 * wrong, that word) in *found. */
uint64_t replay_verify(const uint32_t *refs, uint64_t n, uint64_t pages, const char *region, size_t page_size,
		       uint64_t salt, enum replay_tail tail, uint32_t *bad_page, uint64_t *found);

/* A bare loop doing the same accesses without timing or checks (the
 * benchmark's baseline).  Returns a value to keep the reads alive. */
uint64_t replay_bare(const uint32_t *refs, uint64_t n, char *region, size_t page_size, bool write, uint64_t salt);

#endif
