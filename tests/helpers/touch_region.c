/* touch_region HOT COLD: map COLD + HOT + COLD anonymous pages as one
 * mapping, write every page once, print "START HOT_START HOT_END END" (hex
 * addresses) and then write one word of every hot page, sweep after sweep,
 * until a signal ends it.  The cold pages stay present and are never
 * touched again: a recorder of accesses must find the hot pages and not the
 * cold ones.  Linked statically (Makefile) so that a matrix guest, which
 * has no C library, can run it. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: touch_region HOT COLD\n");
		return 2;
	}
	long hot = atol(argv[1]), cold = atol(argv[2]), ps = sysconf(_SC_PAGESIZE);
	if (hot <= 0 || cold < 0)
		return 2;
	size_t len = (size_t)((2 * cold + hot) * ps);
	volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("touch_region: mmap");
		return 1;
	}
	/* base pages: a huge page would make DAMON see cold and hot as one */
	madvise((void *)p, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += (size_t)ps)
		p[i] = 1;
	volatile char *h = p + cold * ps;
	printf("%lx %lx %lx %lx\n", (unsigned long)p, (unsigned long)h, (unsigned long)(h + hot * ps),
	       (unsigned long)(p + len));
	fflush(stdout);
	/* DAMON, like every sampler of accessed bits, clears a page's bit
	 * without flushing the TLB; a translation still cached never sets it
	 * again.  Real CPUs evict entries soon; an emulated one (a matrix
	 * guest under TCG) whose CPU runs only this loop keeps them for good.
	 * Dropping more pages at once than x86 flushes one by one (33) flushes
	 * this CPU's whole TLB: the last 64 hot pages are dropped after each
	 * sweep (and faulted in again by the next), so the hot pages stay one
	 * range. */
	long drop = hot < 64 ? hot : 64;
	for (unsigned long sweep = 0;; sweep++) {
		for (long i = 0; i < hot; i++)
			h[i * ps] = (char)sweep;
		madvise((void *)(h + (hot - drop) * ps), (size_t)(drop * ps), MADV_DONTNEED);
	}
}
