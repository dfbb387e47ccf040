/* The plan of a run of variants: each applied to a copy of the suite, and
 * the order of an interleaved run.
 *
 * `run SUITE --variant A:SETTINGS --variant B:SETTINGS -n N` runs every case
 * of the suite under each variant, N times each, the iterations of the
 * variants interleaved, so that whatever drifts on the machine while the
 * run goes (another job, page cache, thermal state) falls on every variant
 * alike instead of on whichever ran last.
 *
 * A variant (harness/variant.h) is "NAME:KEY=VALUE[,KEY=VALUE...]" on the
 * command line, or "NAME = KEY=VALUE[,KEY=VALUE...]" in a suite's [variants]
 * section.  No settings at all ("NAME:") is the suite as it is, the base.
 * Applied to a suite, a KEY is, in this order of lookup:
 *
 *   vm.page-cluster, thp.enabled ...  an allow-listed knob (as --set)
 *   mem, swap, timeout ...            a sandbox option
 *   monitor-interval, trace ...       a suite or tracing option
 *   CASE.OPTION or WORKLOAD.OPTION    a workload option of the case of that
 *                                     name, or of every case of that workload
 *   OPTION                            a workload option of every case whose
 *                                     workload has it
 *
 * A value holds no comma.  `iterations` is not a variant's to change: every
 * variant runs as many iterations, or the blocks would not balance.
 *
 * The order, per case: blocks of one iteration of every variant, each block
 * the reverse of the one before (ABBA: A B B A A B ..., for three A B C C B A
 * A B C ...), or with PLAN_RANDOM each block a permutation drawn from a
 * seeded generator, so a random order is reproducible from its seed.  Either
 * way every variant runs once per block: a trend in the machine's speed
 * shifts every variant's mean alike, and ABBA cancels a linear one exactly
 * over each pair of blocks. */
#ifndef VMR_PLAN_H
#define VMR_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "core/strlist.h"
#include "harness/variant.h"

struct suite;

/* Apply a variant's settings to a suite parsed for it (see above for what a
 * KEY may be).  0, or -1 after one error naming where, the variant and the
 * setting. */
int variant_apply(struct suite *s, const struct variant *v, const char *where);
/* --set KNOB=VALUE (args) on every case of s; refused, naming the case,
 * when a case sets one of those knobs itself (a sandbox sets a knob
 * once).  0, or -1 after one error line. */
int plan_set_knobs(struct suite *s, const struct strlist *args, const char *where);

/* The order of one case's iterations: nvariants * iterations variant
 * indices into out.  seed matters only for PLAN_RANDOM; case_index gives
 * every case of a run its own random order from the one seed. */
void plan_order(enum plan_order kind, uint64_t seed, size_t case_index, size_t nvariants, long iterations,
		size_t *out);
/* A seed for PLAN_RANDOM when none is given: from getrandom, at most
 * 2^53 so it prints and reads back through JSON exactly. */
uint64_t plan_random_seed(void);

#endif
