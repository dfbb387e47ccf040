#include "workload/pages.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"

#define PAGES_CHUNK 65536   /* entries per read: 512 KiB, 256 MiB of 4K pages */

int pages_open(struct pages_map *pm)
{
	pm->buf = NULL;
	pm->fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (pm->fd < 0)
		return -errno;
	pm->buf = xmalloc(PAGES_CHUNK * sizeof(uint64_t));
	return 0;
}

void pages_close(struct pages_map *pm)
{
	if (pm->fd >= 0)
		close(pm->fd);
	free(pm->buf);
	pm->fd = -1;
	pm->buf = NULL;
}

size_t pages_state(struct pages_map *pm, const void *addr, size_t n, char *state, size_t *swapped)
{
	size_t present = 0, ps = vmr_page_size();
	uint64_t first = (uintptr_t)addr / ps;
	*swapped = 0;
	for (size_t i = 0; i < n;) {
		size_t want = n - i < PAGES_CHUNK ? n - i : PAGES_CHUNK;
		ssize_t got = pread(pm->fd, pm->buf, want * 8, (off_t)((first + i) * 8));
		size_t k, m = got > 0 ? (size_t)got / 8 : 0;
		if (!m) {
			memset(state + i, '.', n - i);
			break;
		}
		for (k = 0; k < m; k++) {
			uint64_t e = pm->buf[k];
			char c = e >> 63 ? '#' : (e >> 62) & 1 ? 's' : '.';
			present += c == '#';
			*swapped += c == 's';
			state[i + k] = c;
		}
		i += m;
	}
	return present;
}
