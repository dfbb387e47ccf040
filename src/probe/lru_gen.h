/* The multi-generational LRU (Linux 6.1 on, CONFIG_LRU_GEN):
 * /sys/kernel/mm/lru_gen/enabled is a hex mask of features, min_ttl_ms the
 * thrashing guard.  A kernel built without it has no such directory. */
#ifndef VMR_PROBE_LRU_GEN_H
#define VMR_PROBE_LRU_GEN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

#define LRU_GEN_ROOT "/sys/kernel/mm/lru_gen"

/* The bits of `enabled`, as Documentation/admin-guide/mm/multigen_lru.rst
 * names them. */
enum {
	LRU_GEN_CORE = 0x1,             /* the multi-generational LRU itself */
	LRU_GEN_MM_WALK = 0x2,          /* clear the accessed bit in leaf PTEs in batches */
	LRU_GEN_NONLEAF_YOUNG = 0x4,    /* ... and in non-leaf PMDs */
};

struct lru_gen {
	uint64_t enabled;               /* the mask */
	uint64_t min_ttl_ms;
	bool have_min_ttl;
};

/* "0x0007\n" (or a plain decimal, as some kernels print "y"/"n" as 1/0).
 * 0, or -1 with err. */
int lru_gen_parse_enabled(const char *buf, size_t len, uint64_t *mask, char *err);

/* Read the directory at root (NULL: LRU_GEN_ROOT).  0, or -1 with err and
 * errno (ENOENT: this kernel has no MGLRU). */
int lru_gen_read(struct lru_gen *g, const char *root, char *err);

/* {enabled: "0x0007", core, mm_walk, nonleaf_young, min_ttl_ms} */
json_t *lru_gen_json(const struct lru_gen *g);

#endif
