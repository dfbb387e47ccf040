#include "core/host.h"

#include <unistd.h>

uint64_t vmr_page_size(void)
{
	static uint64_t ps;
	if (!ps)
		ps = (uint64_t)sysconf(_SC_PAGESIZE);
	return ps;
}

bool vmr_is_root(void) { return geteuid() == 0; }
