#include "workload/pages.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/util.h"

int pages_open(struct pages_map *pm)
{
	char err[PROBE_ERR_MAX];
	pm->vec = NULL;
	pm->nvec = 0;
	pm->private_anon = false;
	pm->open = pagemap_open(&pm->pm, 0, false, err) == 0;
	return pm->open ? 0 : -(errno ? errno : EIO);
}

void pages_close(struct pages_map *pm)
{
	if (pm->open)
		pagemap_close(&pm->pm);
	free(pm->vec);
	pm->vec = NULL;
	pm->open = false;
}

/* True when mincore says all n pages are resident. */
static bool pages_all_resident(struct pages_map *pm, const void *addr, size_t n)
{
	if (pm->nvec < n) {
		free(pm->vec);
		pm->vec = xmalloc(n);
		pm->nvec = n;
	}
	if (mincore((void *)addr, n * vmr_page_size(), pm->vec) < 0)
		return false;
	unsigned char all = 1;
	for (size_t i = 0; i < n; i++)
		all &= pm->vec[i];
	return all & 1;
}

size_t pages_state(struct pages_map *pm, const void *addr, size_t n, char *state, size_t *swapped)
{
	struct pagemap_counts c = { 0 };
	char err[PROBE_ERR_MAX];
	uint64_t start = (uintptr_t)addr;
	if (pm->private_anon && pages_all_resident(pm, addr, n)) {
		memset(state, PAGE_STATE_PRESENT, n);
		*swapped = 0;
		return n;
	}
	memset(&c, 0, sizeof(c));
	if (pagemap_scan(&pm->pm, start, start + n * vmr_page_size(), &c, state, err) < 0) {
		memset(state, PAGE_STATE_NONE, n);
		*swapped = 0;
		return 0;
	}
	*swapped = (size_t)c.swapped;
	return (size_t)c.present;
}
