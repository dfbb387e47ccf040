/* The present/swapped state of a workload's own pages, from
 * /proc/self/pagemap through the pagemap probe (never one read per page).
 *
 * For private anonymous memory a mincore() call comes first: when it finds
 * every page resident, every page is present and pagemap is not read.  That
 * matters for timing: pagemap looks at each present page's struct page
 * (for the exclusive-mapping bit), which pulls megabytes through the CPU
 * caches and slows the pass timed right after a scan by up to 2x on a
 * resident region.  mincore only reads the page tables.  (For file and
 * shmem mappings mincore reports the page cache, not this process's page
 * tables, so those always read pagemap.) */
#ifndef VMR_PAGES_H
#define VMR_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/pagemap.h"

struct pages_map {
	struct pagemap pm;
	bool open;
	unsigned char *vec;      /* mincore's answer, when private_anon */
	size_t nvec;
	bool private_anon;       /* set by the caller: the range is MAP_PRIVATE|MAP_ANONYMOUS */
};

/* Open /proc/self/pagemap.  0, or -errno. */
int pages_open(struct pages_map *pm);
void pages_close(struct pages_map *pm);
/* One char per page of [addr, addr + n pages): '#' present, 's' swapped,
 * '.' neither, into state[0..n).  Returns the number present; *swapped
 * receives the number swapped. */
size_t pages_state(struct pages_map *pm, const void *addr, size_t n, char *state, size_t *swapped);

#endif
