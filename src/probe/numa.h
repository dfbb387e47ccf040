/* NUMA nodes and memory tiers.  /sys/devices/system/node/{online,has_cpu,
 * has_memory} are node lists ("0-1,3"); since 6.1 each memory tier is a
 * directory /sys/devices/virtual/memory_tiering/memory_tierN whose nodelist
 * names its nodes.  A tier's number grows with the abstract distance the
 * kernel gave its memory (from the firmware's HMAT, or 4 for plain DRAM), so
 * the lowest-numbered tier is the fastest; demotion moves pages from a tier
 * to a slower one.  Nodes above NUMA_MAX_NODES - 1 are refused. */
#ifndef VMR_PROBE_NUMA_H
#define VMR_PROBE_NUMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

#define NUMA_NODE_ROOT "/sys/devices/system/node"
#define NUMA_TIER_ROOT "/sys/devices/virtual/memory_tiering"
#define NUMA_MAX_NODES 64
#define NUMA_MAX_TIERS 16

struct numa_tier {
	unsigned id;            /* N of memory_tierN */
	uint64_t nodes;         /* bit n: node n */
};

struct numa_topology {
	uint64_t online, has_cpu, has_memory;
	bool have_tiers;        /* the kernel has memory tiers (the directory exists) */
	size_t ntiers;
	struct numa_tier tiers[NUMA_MAX_TIERS];   /* fastest (lowest id) first */
};

/* "0-1,3\n" into a mask; an empty list is an empty mask.  0, or -1 with err. */
int numa_parse_nodelist(const char *buf, size_t len, uint64_t *mask, char *err);

/* Read the node lists under node_root and the tiers under tier_root (NULL:
 * the real ones).  No tier directory is not an error (have_tiers false).
 * 0, or -1 with err naming the file. */
int numa_read(struct numa_topology *t, const char *node_root, const char *tier_root, char *err);

/* How many nodes a mask holds, and its lowest one (-1 when empty). */
unsigned numa_count(uint64_t mask);
int numa_first(uint64_t mask);

#endif
