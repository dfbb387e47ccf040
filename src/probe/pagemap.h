/* A process's memory map and the state of its pages:
 *   /proc/PID/maps       the VMAs (range, permissions, offset, backing file)
 *   /proc/PID/pagemap    one 64-bit entry per virtual page
 *   /proc/kpageflags     one 64-bit flag word per physical page (root only)
 *
 * pagemap entry (Documentation/admin-guide/mm/pagemap.rst, since 3.11):
 *   bits 0-54  PFN if present (zero without CAP_SYS_ADMIN since 4.2)
 *   bits 0-4   swap type if swapped; bits 5-54 swap offset
 *   bit 55     soft-dirty           bit 56  exclusively mapped (4.2)
 *   bit 57     write-protected by userfaultfd (5.13)
 *   bit 58     guard region (6.15)
 *   bit 61     file page or shared anon (3.5)
 *   bit 62     swapped              bit 63  present
 * Before 3.11 bits 55-60 held the page shift and bit 61 was reserved:
 * PAGEMAP_LAYOUT_PSHIFT decodes that, reporting no soft-dirty, exclusive
 * or file counts (their *_known flags stay false).
 *
 * Speed: entries are read 512 at a time (one pread per 2 MiB of address
 * space with 4K pages), never one syscall per page, and a chunk whose
 * entries all carry the same flags is counted from one.  THP counts (root)
 * cost little more: /proc/kpageflags is read one word per folio-sized
 * block, and only for runs of consecutive PFNs that a large folio can form;
 * a chunk's lookups are sorted by PFN and merged into as few preads as
 * possible; and where a chunk looks PMD-mapped, one PAGEMAP_SCAN ioctl
 * (Linux 6.7) finds the PMD-mapped runs of the next 128 MiB, each then
 * costing one kpageflags word.  docs/pagemap.md says what is exact.  A
 * handle opened once and scanned after every
 * pass of a workload allocates nothing per scan. */
#ifndef VMR_PROBE_PAGEMAP_H
#define VMR_PROBE_PAGEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "probe/probe.h"

/* --- /proc/PID/maps --- */

struct maps_vma {
	uint64_t start, end;    /* [start, end) */
	char perms[5];          /* "rw-p" */
	uint64_t offset;
	char dev[16];           /* "fd:01" */
	uint64_t inode;
	char *path;             /* "" for anonymous; "[heap]", "/usr/lib/..." */
};

struct maps {
	struct maps_vma *vmas;
	size_t n, cap;
};

/* Parse maps text.  A bad address range, a start above the end, bad
 * permissions or a truncated line is an error naming the line. */
int maps_parse(struct maps *m, const char *buf, size_t len, char *err);
/* Read /proc/PID/maps (pid 0: /proc/self).  On failure errno tells ENOENT
 * (no such process) from EACCES. */
int maps_read(struct maps *m, pid_t pid, char *err);
void maps_free(struct maps *m);
/* The VMA containing addr, or NULL. */
const struct maps_vma *maps_find(const struct maps *m, uint64_t addr);

/* --- pagemap entries --- */

#define PM_PFN_MASK       ((1ULL << 55) - 1)
#define PM_SOFT_DIRTY     (1ULL << 55)
#define PM_MMAP_EXCLUSIVE (1ULL << 56)
#define PM_UFFD_WP        (1ULL << 57)
#define PM_FILE           (1ULL << 61)
#define PM_SWAP           (1ULL << 62)
#define PM_PRESENT        (1ULL << 63)
#define KPF_THP           22    /* /proc/kpageflags bit: transparent huge page */
#define KPF_COMPOUND_TAIL 16    /* /proc/kpageflags bit: tail page of a compound page */
#define PAGEMAP_PMD_ORDER 9     /* a PMD maps 512 pages (x86-64, arm64 with 4K pages) */

enum pagemap_layout {
	PAGEMAP_LAYOUT_CURRENT,     /* 3.11 and later */
	PAGEMAP_LAYOUT_PSHIFT,      /* before 3.11: bits 55-60 page shift */
};

/* Per-page state characters of the plain map. */
#define PAGE_STATE_PRESENT '#'
#define PAGE_STATE_SWAPPED 's'
#define PAGE_STATE_NONE    '.'

struct pagemap_counts {
	uint64_t pages;         /* entries looked at */
	uint64_t present;
	uint64_t swapped;
	uint64_t file;          /* file pages or shared anon (PM_FILE), present or swapped */
	uint64_t exclusive;     /* present and mapped only by this process */
	uint64_t soft_dirty;
	uint64_t thp;           /* present and backed by a THP (kpageflags) */
	bool flags_known;       /* file/exclusive/soft_dirty decoded (layout) */
	bool pfn_known;         /* PFNs were visible (root) */
	bool thp_known;         /* kpageflags could be read (root) */
};

/* Add n entries to c; when state != NULL write one PAGE_STATE_* char per
 * entry to state[0..n).  Pure: fixtures and fuzzers feed it raw entries. */
void pagemap_count(const uint64_t *entries, size_t n, enum pagemap_layout layout,
		   struct pagemap_counts *c, char *state);

/* Parse a raw pagemap dump (host-endian 64-bit entries, as read from the
 * file).  A length that is not a multiple of 8 is an error naming the byte
 * offset of the partial entry. */
int pagemap_parse(const void *buf, size_t len, enum pagemap_layout layout,
		  struct pagemap_counts *c, char *state, char *err);

/* The layout the running kernel uses (from its release). */
enum pagemap_layout pagemap_layout_running(void);

/* --- reading a live process --- */

#define PAGEMAP_CHUNK 512       /* entries per pread */

struct pagemap {
	int fd;                 /* /proc/PID/pagemap */
	int kpf_fd;             /* /proc/kpageflags, or -1 */
	uint64_t page_size;
	enum pagemap_layout layout;
	uint64_t entries[PAGEMAP_CHUNK];
	uint64_t flags[PAGEMAP_CHUNK];
	unsigned anon_order;    /* smallest anonymous large folio order here (root) */
	bool huge_scan;         /* PAGEMAP_SCAN answers (Linux 6.7) */
	/* PMD-mapped runs of a window of the range being scanned, asked of
	 * PAGEMAP_SCAN when a chunk looks PMD-mapped. */
	size_t huge_n, huge_i;
	uint64_t huge_known_end;        /* address up to which huge[] is complete */
	struct pagemap_huge {
		uint64_t start, end;    /* addresses */
		int thp;                /* 1 THP, 0 not (hugetlb), -1 not yet looked up */
	} huge[64];
	size_t lookups;
	struct pagemap_lookup {
		uint64_t pfn, pages;    /* first PFN of a block, and how many it stands for */
	} lookup[PAGEMAP_CHUNK];
};

/* Open pid's pagemap (pid 0: this process, via /proc/self).  With
 * want_thp, also opens /proc/kpageflags when permitted (root, which also
 * sees PFNs) and reads which anonymous mTHP sizes are enabled; without want_thp THP counts are simply not known.  0, or -1 with err and errno. */
int pagemap_open(struct pagemap *pm, pid_t pid, bool want_thp, char *err);

/* Whether this kernel keeps soft-dirty bits (CONFIG_MEM_SOFT_DIRTY): a page
 * just written in a fresh mapping reads bit 55 set where it does, never
 * where it does not (bit 55 is then always 0, which is not a count of 0).
 * Asked of /proc/self/pagemap once; the answer is cached. */
bool pagemap_soft_dirty_supported(void);
void pagemap_close(struct pagemap *pm);

/* Scan [start, end) (page aligned) and add to c (zero it first for a fresh
 * count).  state, when not NULL, receives (end - start) / page_size chars.
 * 0, or -1 with err and errno: ERANGE when the range reaches past what
 * pagemap covers (the kernel half, such as [vsyscall]; or any address once
 * the process has exited), EINVAL when it is not page aligned, else the
 * read's errno. */
int pagemap_scan(struct pagemap *pm, uint64_t start, uint64_t end,
		 struct pagemap_counts *c, char *state, char *err);

/* One-shot for a workload's own memory: the state of [addr, addr+len) of
 * this process.  Opens and closes the handle; prefer pagemap_open +
 * pagemap_scan when scanning after every pass. */
int pagemap_self(const void *addr, size_t len, struct pagemap_counts *c, char *state, char *err);

/* --- maps people read --- */

/* The seed's encoded map: one character per 4 pages.  The lower 4 bits say
 * which of the 4 pages are present (bit 0 the first page), and bits 5 and 6
 * (0x60) are set so every character is printable: '`' none of the four,
 * 'o' all four.  A last group of fewer than 4 pages has only its pages'
 * bits.  Writes (npages + 3) / 4 chars and a NUL; returns the char count. */
size_t pagemap_encode_map(const char *state, size_t npages, char *out);
/* Decode one encoded character into 4 PAGE_STATE_PRESENT/NONE chars;
 * -1 when c is not a map character. */
int pagemap_decode_char(char c, char out[4]);

#endif
