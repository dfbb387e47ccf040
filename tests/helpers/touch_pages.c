/* touch_pages PAGES STRIDE: map PAGES anonymous pages, write to every
 * STRIDE-th one, print the mapping's address in hex and wait until stdin
 * closes or a signal ends it.  Command-line tests read its pagemap. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: touch_pages PAGES STRIDE\n");
		return 2;
	}
	long pages = atol(argv[1]), stride = atol(argv[2]), ps = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || stride <= 0)
		return 2;
	char *p = mmap(NULL, (size_t)(pages * ps), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("touch_pages: mmap");
		return 1;
	}
	/* a THP would make untouched neighbours present */
	madvise(p, (size_t)(pages * ps), MADV_NOHUGEPAGE);
	for (long i = 0; i < pages; i += stride)
		p[i * ps] = 1;
	printf("%p\n", (void *)p);
	fflush(stdout);
	char c;
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
