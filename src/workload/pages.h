/* The present/swapped state of a workload's own pages, from
 * /proc/self/pagemap read in big chunks (never one read per page). */
#ifndef VMR_PAGES_H
#define VMR_PAGES_H

#include <stddef.h>
#include <stdint.h>

struct pages_map {
	int fd;
	uint64_t *buf;
};

/* Open /proc/self/pagemap.  0, or -errno. */
int pages_open(struct pages_map *pm);
void pages_close(struct pages_map *pm);
/* One char per page of [addr, addr + n pages): '#' present, 's' swapped,
 * '.' neither, into state[0..n).  Returns the number present; *swapped
 * receives the number swapped. */
size_t pages_state(struct pages_map *pm, const void *addr, size_t n, char *state, size_t *swapped);

#endif
