/* touch_pages PAGES STRIDE [thp]: map PAGES anonymous pages, write to every
 * STRIDE-th one, print the mapping's address in hex and wait until stdin
 * closes or a signal ends it.  Command-line tests read its pagemap.  With
 * "thp" the mapping is 2 MiB aligned and asks for transparent huge pages;
 * without, it asks for none (a THP would make untouched pages present). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: touch_pages PAGES STRIDE [thp]\n");
		return 2;
	}
	long pages = atol(argv[1]), stride = atol(argv[2]), ps = sysconf(_SC_PAGESIZE);
	int thp = argc == 4 && !strcmp(argv[3], "thp");
	size_t align = thp ? 2u << 20 : 0, len = (size_t)(pages * ps);
	if (pages <= 0 || stride <= 0)
		return 2;
	char *p = mmap(NULL, len + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("touch_pages: mmap");
		return 1;
	}
	if (thp) {
		char *a = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
		if (a > p)
			munmap(p, (size_t)(a - p));
		munmap(a + len, (size_t)(p + align - a));
		p = a;
	}
	madvise(p, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	for (long i = 0; i < pages; i += stride)
		p[i * ps] = 1;
	printf("%p\n", (void *)p);
	fflush(stdout);
	char c;
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
