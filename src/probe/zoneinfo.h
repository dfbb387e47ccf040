/* /proc/zoneinfo: nodes, their zones, and each zone's sizes and watermarks,
 * in pages.
 *
 * Kernels differ: "managed" appeared in 3.8, "high_boost" ("boost") in 5.0,
 * "promo" in 6.x, "protection" and per-zone counters have always been
 * there but moved about.  Fields a kernel does not print are 0 with their
 * ZONE_HAVE_* bit clear, so callers can tell "0" from "not reported". */
#ifndef VMR_PROBE_ZONEINFO_H
#define VMR_PROBE_ZONEINFO_H

#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

#define ZONEINFO_MAX_ZONES 8    /* per node: DMA, DMA32, Normal, HighMem, Movable, Device */
#define ZONEINFO_NAME_MAX 16

enum zoneinfo_have {
	ZONE_HAVE_MANAGED = 1 << 0,
	ZONE_HAVE_BOOST = 1 << 1,
	ZONE_HAVE_PROTECTION = 1 << 2,
	ZONE_HAVE_PROMO = 1 << 3,
	ZONE_HAVE_CMA = 1 << 4,
	ZONE_HAVE_START_PFN = 1 << 5,
};

struct zoneinfo_zone {
	char name[ZONEINFO_NAME_MAX];   /* "DMA", "DMA32", "Normal", "Movable" */
	uint64_t free, min, low, high;  /* watermarks, pages */
	uint64_t high_boost, promo;     /* "boost", "promo" */
	uint64_t spanned, present, managed, cma;
	uint64_t start_pfn;
	uint64_t protection[ZONEINFO_MAX_ZONES];
	size_t nprotection;
	unsigned have;                  /* ZONE_HAVE_* */
};

struct zoneinfo_node {
	int node;
	struct zoneinfo_zone zones[ZONEINFO_MAX_ZONES];
	size_t nzones;
};

struct zoneinfo {
	struct zoneinfo_node *nodes;
	size_t nnodes;
};

/* Parse zoneinfo text.  A zone must at least report free, min, low, high,
 * spanned and present; a zone missing one of them, a number that is not a
 * number, a truncated file or an empty one is an error naming the line. */
int zoneinfo_parse(struct zoneinfo *zi, const char *buf, size_t len, char *err);
/* Read and parse (NULL: /proc/zoneinfo).  0 or -1 with err. */
int zoneinfo_read(struct zoneinfo *zi, const char *path, char *err);
void zoneinfo_free(struct zoneinfo *zi);

/* A zone by node and name, or NULL. */
const struct zoneinfo_zone *zoneinfo_find(const struct zoneinfo *zi, int node, const char *name);

#endif
