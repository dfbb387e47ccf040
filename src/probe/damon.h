/* DAMON as its sysfs interface shows it (/sys/kernel/mm/damon/admin, 5.18
 * on): the kdamonds configured, whether each is on, what it monitors
 * (vaddr, fvaddr, paddr) and the actions of its schemes.  A kdamond left
 * on by the system (a paddr "pageout" scheme is proactive reclaim) changes
 * every swap measurement, so the fingerprint carries it.  Read-only. */
#ifndef VMR_PROBE_DAMON_H
#define VMR_PROBE_DAMON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/sysfsdir.h"

#define DAMON_ADMIN "/sys/kernel/mm/damon/admin"
#define DAMON_MAX_KDAMONDS 16
#define DAMON_MAX_SCHEMES 8

struct damon_kdamond {
	char state[SYSFS_VALUE_MAX];            /* "on", "off" */
	char operations[SYSFS_VALUE_MAX];       /* of its first context, or "" */
	char actions[DAMON_MAX_SCHEMES][SYSFS_VALUE_MAX];
	size_t nactions;
	uint64_t sample_us, aggr_us;
};

struct damon_state {
	size_t nkdamonds;       /* as configured (nr_kdamonds) */
	struct damon_kdamond k[DAMON_MAX_KDAMONDS];
	size_t nread;           /* those described in k[] */
};

/* Read the tree at root (NULL: DAMON_ADMIN).  0, or -1 with err and errno
 * (ENOENT: no DAMON sysfs interface in this kernel). */
int damon_read(struct damon_state *d, const char *root, char *err);
/* The number of kdamonds that are on. */
size_t damon_running(const struct damon_state *d);
/* {nr_kdamonds, kdamonds: [{state, operations, schemes: ["pageout"],
 * sample_us, aggr_us}]} */
json_t *damon_json(const struct damon_state *d);

#endif
