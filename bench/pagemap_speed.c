/* pagemap_speed [MIB]: how fast the pagemap probe counts a mapping's pages,
 * side by side with the obvious way (one pread per page).  Maps MIB
 * (default 1024) of anonymous memory, touches every page, then times
 * pagemap_scan (512 entries per pread) against a per-page pread loop over
 * the same range and prints pages/s of each and their ratio. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/util.h"
#include "probe/pagemap.h"

static double bench_chunked(char *p, size_t pages, size_t ps, int reps, uint64_t *present)
{
	struct pagemap pm;
	struct pagemap_counts c;
	char err[PROBE_ERR_MAX], *state = malloc(pages);
	if (pagemap_open(&pm, 0, false, err) < 0) {
		fprintf(stderr, "pagemap_speed: %s\n", err);
		exit(3);
	}
	uint64_t t0 = vmr_now_ns();
	for (int r = 0; r < reps; r++) {
		memset(&c, 0, sizeof(c));
		if (pagemap_scan(&pm, (uintptr_t)p, (uintptr_t)p + pages * ps, &c, state, err) < 0) {
			fprintf(stderr, "pagemap_speed: %s\n", err);
			exit(3);
		}
	}
	double s = (double)(vmr_now_ns() - t0) / 1e9 / reps;
	*present = c.present;
	pagemap_close(&pm);
	free(state);
	return s;
}

static double bench_per_page(char *p, size_t pages, size_t ps, uint64_t *present)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t e, n = 0, first = (uintptr_t)p / ps;
	uint64_t t0 = vmr_now_ns();
	for (size_t i = 0; i < pages; i++) {
		if (pread(fd, &e, sizeof(e), (off_t)((first + i) * sizeof(e))) != sizeof(e))
			exit(3);
		n += e >> 63;
	}
	double s = (double)(vmr_now_ns() - t0) / 1e9;
	close(fd);
	*present = n;
	return s;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024, ps = (size_t)vmr_page_size();
	size_t pages = mib * 1024 * 1024 / ps;
	char *p = mmap(NULL, pages * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("pagemap_speed: mmap");
		return 3;
	}
	madvise(p, pages * ps, MADV_NOHUGEPAGE);   /* 4K PTEs: the common, slower case */
	for (size_t i = 0; i < pages; i++)
		p[i * ps] = 1;
	uint64_t n1, n2;
	double chunked = bench_chunked(p, pages, ps, 5, &n1);
	double perpage = bench_per_page(p, pages, ps, &n2);
	if (n1 != pages || n2 != pages) {
		fprintf(stderr, "pagemap_speed: counted %llu and %llu present, want %zu\n",
			(unsigned long long)n1, (unsigned long long)n2, pages);
		return 1;
	}
	printf("pagemap over %zu MiB (%zu pages, all present)\n", mib, pages);
	printf("  pagemap_scan (512 entries/pread) %12.0f pages/s  %8.2f ms\n", pages / chunked, chunked * 1e3);
	printf("  one pread per page               %12.0f pages/s  %8.2f ms\n", pages / perpage, perpage * 1e3);
	printf("  ratio                            %12.1fx\n", perpage / chunked);
	munmap(p, pages * ps);
	return 0;
}
