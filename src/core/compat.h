/* Kernel interfaces newer than the headers this project builds against
 * (Debian 12 ships the 6.1 UAPI).  Each is declared here once, with the
 * kernel's own names and values, so that code asks the running kernel
 * (which answers ENOTTY or EINVAL when it is older) and picks its way once,
 * with no #ifdef in function bodies. */
#ifndef VMR_CORE_COMPAT_H
#define VMR_CORE_COMPAT_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* PAGEMAP_SCAN (Linux 6.7, include/uapi/linux/fs.h): an ioctl on
 * /proc/PID/pagemap that walks a range and returns the runs of pages that
 * share the asked categories. */
#ifndef PAGEMAP_SCAN
#define PAGE_IS_WPALLOWED  (1 << 0)
#define PAGE_IS_WRITTEN    (1 << 1)
#define PAGE_IS_FILE       (1 << 2)
#define PAGE_IS_PRESENT    (1 << 3)
#define PAGE_IS_SWAPPED    (1 << 4)
#define PAGE_IS_PFNZERO    (1 << 5)
#define PAGE_IS_HUGE       (1 << 6)     /* mapped by a PMD (THP) or hugetlb */
#define PAGE_IS_SOFT_DIRTY (1 << 7)

struct page_region {
	uint64_t start;
	uint64_t end;
	uint64_t categories;
};

struct pm_scan_arg {
	uint64_t size;
	uint64_t flags;
	uint64_t start;
	uint64_t end;
	uint64_t walk_end;
	uint64_t vec;
	uint64_t vec_len;
	uint64_t max_pages;
	uint64_t category_inverted;
	uint64_t category_mask;
	uint64_t category_anyof_mask;
	uint64_t return_mask;
};

#define PAGEMAP_SCAN _IOWR('f', 16, struct pm_scan_arg)
#endif

/* pidfd_open(2) (Linux 5.3; glibc 2.36 has no wrapper in Debian 12's
 * headers on every architecture): a file descriptor that polls readable
 * when the process exits.  434 is its number on every architecture but
 * alpha.  -1 with errno ENOSYS on older kernels, where callers poll on a
 * period instead. */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
static inline int compat_pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* set_mempolicy(2) and move_pages(2) without libnuma: the raw syscalls and
 * the constants of include/uapi/linux/mempolicy.h.  MPOL_F_NUMA_BALANCING
 * (5.12) lets NUMA balancing move pages of an MPOL_BIND policy within its
 * nodes, which is how a page demoted to a lower tier is promoted back.
 * move_pages with nodes NULL moves nothing: it says where each page is. */
#define COMPAT_MPOL_DEFAULT 0
#define COMPAT_MPOL_BIND 2
#define COMPAT_MPOL_F_NUMA_BALANCING (1 << 13)
static inline long compat_set_mempolicy(int mode, const unsigned long *nodemask, unsigned long maxnode)
{
	return syscall(SYS_set_mempolicy, mode, nodemask, maxnode);
}
static inline long compat_move_pages_query(unsigned long count, void **pages, int *status)
{
	return syscall(SYS_move_pages, 0, count, pages, NULL, status, 0);
}

#endif
