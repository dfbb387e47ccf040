/* memfill SIZE_MB [PASSES]: touch SIZE_MB of anonymous memory with a pattern
 * that names each page, then read every page back and check it.  Exits 0
 * when every page came back intact, 1 when one did not. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: memfill SIZE_MB [PASSES]\n");
		return 2;
	}
	size_t bytes = (size_t)strtoull(argv[1], NULL, 10) << 20;
	int passes = argc > 2 ? atoi(argv[2]) : 1;
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("memfill: mmap");
		return 2;
	}
	for (size_t off = 0; off < bytes; off += ps)
		for (size_t i = 0; i < ps; i += sizeof(uint64_t))
			*(uint64_t *)(p + off + i) = (off / ps) * 0x9e3779b97f4a7c15ULL ^ i;
	for (int pass = 0; pass < passes; pass++)
		for (size_t off = 0; off < bytes; off += ps)
			for (size_t i = 0; i < ps; i += sizeof(uint64_t))
				if (*(uint64_t *)(p + off + i) != ((off / ps) * 0x9e3779b97f4a7c15ULL ^ i)) {
					fprintf(stderr, "memfill: page %zu came back wrong\n", off / ps);
					return 1;
				}
	printf("memfill: %zu MB intact\n", bytes >> 20);
	return 0;
}
