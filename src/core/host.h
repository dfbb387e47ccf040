/* Facts of the machine the process runs on. */
#ifndef VMR_HOST_H
#define VMR_HOST_H

#include <stdbool.h>
#include <stdint.h>

/* The base page size, cached. */
uint64_t vmr_page_size(void);
/* True when running with effective uid 0. */
bool vmr_is_root(void);

#endif
