/* usemem's walk and the parts it shares with usemem.c: the options and state
 * (usemem.c: options, set-up, results) and the tasks' walk (usemem_walk.c:
 * map, pass, check, start).  Private to the workload. */
#ifndef VMR_USEMEM_WALK_H
#define VMR_USEMEM_WALK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "workload/workload.h"

#define UM_MAX_TASKS 256
#define UM_MAX_UNITS 60000     /* under vm.max_map_count's default 65530 */
#define UM_BLOCK 4096          /* dd bs=4k */

enum um_io { UM_IO_MMAP, UM_IO_READ, UM_IO_TRUNCATE };

struct um_opts {
	struct vmr_rsize size;
	char *tasks_spec;         /* N, or cpus */
	long tasks;               /* not an option: tasks_spec resolved (um_ntasks) */
	bool split;
	bool threads, random, readonly, shm, file_backed, shared_file, cow, prefault, msync;
	char *file;
	int io;
	uint64_t unit, step;
	long repeat;
	uint64_t runtime_ns;
	long corrupt_page;
};

/* A task's outcome, in MAP_SHARED memory so that processes can report. */
struct um_task {
	uint64_t bytes, ns;
	uint64_t cpu_ns;           /* the task's own CPU time over the same span */
	uint64_t check_ns;         /* reading the region back, after the timed part */
	uint64_t reached;          /* --runtime: the word the last pass stopped at */
	long passes;               /* passes completed */
	int64_t bad_page;          /* the first page that read back wrong, or -1 */
	uint64_t found;
	int err;                   /* errno of a failed mmap/open/read */
	bool corrupted;
};

struct um_shared {
	atomic_int ready, go;
	struct um_task task[UM_MAX_TASKS];
	int64_t parent_bad_page;   /* --cow: the parent's copy */
	uint64_t parent_found;
};

struct um_state {
	struct um_opts o;
	size_t ps, size, nwords, step_words, nunits, unit;
	uint64_t salt, parent_salt;
	char *prefix;              /* files: PATH (the files are PATH-i) */
	int fds[UM_MAX_TASKS];
	uint64_t *cow_region, cow_ns;   /* --cow: the region; mapping and populating it */
	struct um_shared *sh;
};

struct um_region {
	uint64_t **units;          /* nunits mappings of unit bytes (the last may be less) */
	size_t n;
};

/* Read region rg back: every word at the step must hold its pattern, or
 * what was there before (before_salt's, or zero); the first page that does
 * not in t (usemem_walk.c). */
void um_check(struct um_state *st, struct um_region *rg, struct um_task *t, uint64_t salt, uint64_t before_salt,
	      bool before_zero);
/* Start the tasks and wait for them (usemem_walk.c). */
int um_start(struct um_state *st);

#endif
