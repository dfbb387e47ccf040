/* The zswap workload's reading of zswap's pool, apart from the workload so
 * that a test can feed it the meminfo of a kernel this machine is not. */
#ifndef VMR_ZSWAP_H
#define VMR_ZSWAP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "probe/meminfo.h"

/* /proc/meminfo's Zswap (the pool's own memory) and Zswapped (the data it
 * holds), each only where the kernel gave its line: kernels before 5.19
 * have no Zswapped, and one without zswap has neither. */
struct zswap_pool {
	uint64_t pool_bytes, stored_bytes;
	bool have_pool, have_stored;
};

void zswap_pool_read(const struct meminfo *mi, struct zswap_pool *p);
/* zswap-stored-bytes, zswap-pool-bytes and compression-ratio into r, each
 * only when the figures it is made of were given (the ratio also needs a
 * pool that holds something): a figure the kernel did not give is absent,
 * never 0. */
void zswap_pool_metrics(struct result *r, const struct zswap_pool *p);

#endif
