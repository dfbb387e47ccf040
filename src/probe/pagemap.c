/* /proc/PID/maps, /proc/PID/pagemap and /proc/kpageflags. */
#include "probe/pagemap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/compat.h"
#include "core/util.h"

/* --- maps --- */

static bool maps_perms_ok(const char *s)
{
	return (s[0] == 'r' || s[0] == '-') && (s[1] == 'w' || s[1] == '-') &&
	       (s[2] == 'x' || s[2] == '-') && (s[3] == 'p' || s[3] == 's');
}

/* "start-end perms offset dev inode [path]" */
static int maps_parse_line(struct maps_vma *v, const char *p, const char *end,
			   unsigned lineno, char *err)
{
	if (probe_hex(&p, end, &v->start) < 0 || !probe_lit(&p, end, "-") ||
	    probe_hex(&p, end, &v->end) < 0) {
		probe_err(err, lineno, "expected an address range 'START-END'");
		return -1;
	}
	if (v->start >= v->end) {
		probe_err(err, lineno, "range start is not below its end");
		return -1;
	}
	if (probe_word(&p, end, v->perms, sizeof(v->perms)) < 0 || !maps_perms_ok(v->perms)) {
		probe_err(err, lineno, "expected permissions like 'rw-p'");
		return -1;
	}
	probe_skip_space(&p, end);
	if (probe_hex(&p, end, &v->offset) < 0 || probe_word(&p, end, v->dev, sizeof(v->dev)) < 0 ||
	    !strchr(v->dev, ':') || probe_u64(&p, end, &v->inode) < 0) {
		probe_err(err, lineno, "expected 'OFFSET MAJOR:MINOR INODE' after the permissions");
		return -1;
	}
	if (p < end && *p != ' ' && *p != '\t') {
		probe_err(err, lineno, "inode is not a number");
		return -1;
	}
	probe_skip_space(&p, end);
	if (memchr(p, '\0', (size_t)(end - p))) {
		probe_err(err, lineno, "path holds a NUL byte");
		return -1;
	}
	v->path = xmalloc((size_t)(end - p) + 1);
	memcpy(v->path, p, (size_t)(end - p));
	v->path[end - p] = '\0';
	return 0;
}

int maps_parse(struct maps *m, const char *buf, size_t len, char *err)
{
	struct probe_lines l = { 0 };
	const char *line;
	size_t ll;
	memset(m, 0, sizeof(*m));
	probe_lines_init(&l, buf, len);
	while (probe_lines_next(&l, &line, &ll)) {
		if (l.p == l.end && buf[len - 1] != '\n') {
			probe_err(err, l.lineno, "truncated (no newline at the end)");
			goto fail;
		}
		if (m->n == m->cap) {
			m->cap = m->cap ? m->cap * 2 : 64;
			m->vmas = xrealloc(m->vmas, m->cap * sizeof(*m->vmas));
		}
		struct maps_vma *v = &m->vmas[m->n];
		memset(v, 0, sizeof(*v));
		if (maps_parse_line(v, line, line + ll, l.lineno, err) < 0)
			goto fail;
		if (m->n && v->start < m->vmas[m->n - 1].end) {
			free(v->path);
			probe_err(err, l.lineno, "range overlaps or precedes the one before");
			goto fail;
		}
		m->n++;
	}
	return 0;
fail:
	maps_free(m);
	return -1;
}

int maps_read(struct maps *m, pid_t pid, char *err)
{
	char path[64], *buf;
	size_t len;
	memset(m, 0, sizeof(*m));
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/maps");
	if (probe_read_file(path, &buf, &len, err) < 0)
		return -1;
	/* An empty maps file is a kernel thread or a process exiting. */
	int r = maps_parse(m, buf, len, err);
	free(buf);
	return r;
}

void maps_free(struct maps *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->vmas[i].path);
	free(m->vmas);
	memset(m, 0, sizeof(*m));
}

const struct maps_vma *maps_find(const struct maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (addr < m->vmas[mid].start)
			hi = mid;
		else if (addr >= m->vmas[mid].end)
			lo = mid + 1;
		else
			return &m->vmas[mid];
	}
	return NULL;
}

/* --- entries --- */

static void pagemap_state(const uint64_t *e, size_t n, char *state)
{
	for (size_t i = 0; i < n; i++)
		state[i] = e[i] & PM_PRESENT ? PAGE_STATE_PRESENT :
			   e[i] & PM_SWAP ? PAGE_STATE_SWAPPED : PAGE_STATE_NONE;
}

/* Counts of entries, summed without branches, lane by lane: a vector of
 * 2 entries (GCC and clang vector extensions) or one.  Two, not four: on
 * x86-64 without AVX the compiler keeps a 4-entry vector in memory, which
 * made each step wait on a store. */
#define PAGEMAP_LANES 2
typedef uint64_t pagemap_vec __attribute__((vector_size(8 * PAGEMAP_LANES)));

#define PAGEMAP_SUM(T, t, v) do {                                       \
		T p_ = (v) >> 63, s_ = ((v) >> 62) & ~p_ & 1, a_ = p_ | s_;     \
		(t).present += p_;                                              \
		(t).swapped += s_;                                              \
		(t).pfn |= ((v) & PM_PFN_MASK) & -p_;                           \
		(t).exclusive += ((v) >> 56) & p_ & 1;                          \
		(t).file += ((v) >> 61) & a_ & 1;                               \
		(t).soft_dirty += ((v) >> 55) & a_ & 1;                         \
	} while (0)

struct pagemap_sums {
	uint64_t present, swapped, exclusive, file, soft_dirty, pfn;
};

struct pagemap_vsums {
	pagemap_vec present, swapped, exclusive, file, soft_dirty, pfn;
};

static uint64_t pagemap_lanes(const pagemap_vec *v)
{
	return (*v)[0] + (*v)[1];
}

/* The AND and the OR of n entries, lane by lane. */
static void pagemap_and_or(const uint64_t *e, size_t n, uint64_t *and_all, uint64_t *or_all)
{
	/* Two vectors a step, so that no step waits on the one before. */
	pagemap_vec va = { ~0ULL, ~0ULL }, vb = va, vo = { 0 }, vp = { 0 };
	uint64_t a = ~0ULL, o = 0;
	size_t i = 0;
	for (; i + 2 * PAGEMAP_LANES <= n; i += 2 * PAGEMAP_LANES) {
		pagemap_vec v = { 0 }, u = { 0 };
		memcpy(&v, e + i, sizeof(v));
		memcpy(&u, e + i + PAGEMAP_LANES, sizeof(u));
		va &= v, vb &= u;
		vo |= v, vp |= u;
	}
	for (; i < n; i++)
		a &= e[i], o |= e[i];
	va &= vb, vo |= vp;
	*and_all = a & va[0] & va[1];
	*or_all = o | vo[0] | vo[1];
}

/* Counts of n entries that all carry the flag bits (55-63) of f. */
static void pagemap_count_alike(uint64_t f, uint64_t pfn_or, size_t n, bool flags,
				struct pagemap_counts *c)
{
	uint64_t p = f >> 63, s = (f >> 62) & ~p & 1, a = p | s;
	c->present += p * n;
	c->swapped += s * n;
	c->pfn_known = c->pfn_known || (p && (pfn_or & PM_PFN_MASK));
	if (flags) {
		c->exclusive += ((f >> 56) & p & 1) * n;
		c->file += ((f >> 61) & a & 1) * n;
		c->soft_dirty += ((f >> 55) & a & 1) * n;
	}
}

/* This runs once per page of every scan.  With a branch per flag it cost
 * a tenth of the pread of 4K pages' entries; the vector sums cost a
 * fiftieth of that, but a fifth of the pread of a THP's entries, which
 * the kernel fills from one PMD.  Most chunks are alike throughout (a
 * THP's 512 entries, pages touched the same way): one AND and one OR per
 * entry find that at a tenth of the sums' cost, and one entry's flags
 * then give every count. */
void pagemap_count(const uint64_t *e, size_t n, enum pagemap_layout layout,
		   struct pagemap_counts *c, char *state)
{
	bool flags = layout == PAGEMAP_LAYOUT_CURRENT;
	struct pagemap_vsums w = { { 0 }, { 0 }, { 0 }, { 0 }, { 0 }, { 0 } };
	struct pagemap_sums t = { 0 };
	uint64_t and_all = 0, or_all = 0;
	size_t i = 0;
	c->flags_known = flags;
	if (state)
		pagemap_state(e, n, state);
	pagemap_and_or(e, n, &and_all, &or_all);
	if (n && ((and_all ^ or_all) >> 55) == 0) {
		c->pages += n;
		pagemap_count_alike(and_all, or_all, n, flags, c);
		return;
	}
	for (; i + PAGEMAP_LANES <= n; i += PAGEMAP_LANES) {
		pagemap_vec v = { 0 };
		memcpy(&v, e + i, sizeof(v));
		PAGEMAP_SUM(pagemap_vec, w, v);
	}
	for (; i < n; i++)
		PAGEMAP_SUM(uint64_t, t, e[i]);
	c->pages += n;
	c->present += t.present + pagemap_lanes(&w.present);
	c->swapped += t.swapped + pagemap_lanes(&w.swapped);
	c->pfn_known = c->pfn_known || t.pfn || (w.pfn[0] | w.pfn[1]);
	if (flags) {
		c->exclusive += t.exclusive + pagemap_lanes(&w.exclusive);
		c->file += t.file + pagemap_lanes(&w.file);
		c->soft_dirty += t.soft_dirty + pagemap_lanes(&w.soft_dirty);
	}
}

int pagemap_parse(const void *buf, size_t len, enum pagemap_layout layout,
		  struct pagemap_counts *c, char *state, char *err)
{
	uint64_t chunk[PAGEMAP_CHUNK];
	if (len == 0) {
		probe_err(err, 0, "empty");
		return -1;
	}
	if (len % sizeof(uint64_t)) {
		probe_err(err, 0, "byte %zu: partial entry (length is not a multiple of 8)",
			  len - len % sizeof(uint64_t));
		return -1;
	}
	size_t total = len / sizeof(uint64_t);
	for (size_t i = 0; i < total; i += PAGEMAP_CHUNK) {
		size_t n = total - i < PAGEMAP_CHUNK ? total - i : PAGEMAP_CHUNK;
		memcpy(chunk, (const char *)buf + i * sizeof(uint64_t), n * sizeof(uint64_t));
		pagemap_count(chunk, n, layout, c, state ? state + i : NULL);
	}
	return 0;
}

enum pagemap_layout pagemap_layout_running(void)
{
	struct utsname u = { 0 };
	unsigned major = 0, minor = 0;
	if (uname(&u) == 0 && sscanf(u.release, "%u.%u", &major, &minor) == 2 &&
	    (major < 3 || (major == 3 && minor < 11)))
		return PAGEMAP_LAYOUT_PSHIFT;
	return PAGEMAP_LAYOUT_CURRENT;
}

/* --- live process --- */

bool pagemap_soft_dirty_supported(void)
{
	static int known = -1;
	if (known >= 0)
		return known;
	size_t ps = vmr_page_size();
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	volatile char *p = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t e = 0;
	known = 0;
	if (fd >= 0 && p != MAP_FAILED) {
		p[0] = 1;
		known = pread(fd, &e, 8, (off_t)((uintptr_t)p / ps * 8)) == 8 && (e & PM_SOFT_DIRTY);
	}
	if (p != MAP_FAILED)
		munmap((void *)p, ps);
	if (fd >= 0)
		close(fd);
	return known;
}

#define PAGEMAP_THP_DIR "/sys/kernel/mm/transparent_hugepage"

/* Whether a THP "enabled" knob's text selects always or madvise; inherit
 * takes the answer of the top-level knob. */
static bool pagemap_knob_on(const char *path, bool inherited)
{
	char *line = NULL;
	if (vmr_read_line(path, &line) < 0)
		return false;
	bool on = strstr(line, "[always]") || strstr(line, "[madvise]") ||
		  (inherited && strstr(line, "[inherit]"));
	free(line);
	return on;
}

static unsigned pagemap_order_of(uint64_t bytes, uint64_t page_size)
{
	unsigned order = 0;
	while (order < 30 && (page_size << order) < bytes)
		order++;
	return order;
}

/* The smallest order an anonymous large folio can have here: the smallest
 * mTHP size enabled (hugepages-<N>kB/enabled, Linux 6.8), else the PMD
 * size.  With none enabled the PMD size still stands, for THPs made
 * before the knob was turned off. */
static unsigned pagemap_anon_order(uint64_t page_size)
{
	uint64_t pmd = 0;
	if (vmr_read_u64(PAGEMAP_THP_DIR "/hpage_pmd_size", &pmd) < 0 || pmd == 0)
		pmd = 2ULL << 20;
	unsigned order = pagemap_order_of(pmd, page_size);
	bool global = pagemap_knob_on(PAGEMAP_THP_DIR "/enabled", false);
	DIR *d = opendir(PAGEMAP_THP_DIR);
	struct dirent *de = NULL;
	while (d && (de = readdir(d)) != NULL) {
		unsigned long kb = 0;
		char path[512];
		if (sscanf(de->d_name, "hugepages-%lukB", &kb) != 1)
			continue;
		snprintf(path, sizeof(path), PAGEMAP_THP_DIR "/%s/enabled", de->d_name);
		unsigned o = pagemap_order_of((uint64_t)kb << 10, page_size);
		if (o > 0 && o < order && pagemap_knob_on(path, global))
			order = o;
	}
	if (d)
		closedir(d);
	return order;
}

/* Ask PAGEMAP_SCAN for the PMD-mapped runs of [start, end), at most nvec;
 * how many, or -1 (ENOTTY before Linux 6.7). */
static long pagemap_huge_ioctl(int fd, uint64_t start, uint64_t end, struct page_region *vec,
			       size_t nvec, uint64_t *walk_end)
{
	struct pm_scan_arg a = {
		.size = sizeof(a), .start = start, .end = end,
		.vec = (uintptr_t)vec, .vec_len = nvec,
		.category_mask = PAGE_IS_HUGE, .return_mask = PAGE_IS_HUGE,
	};
	long n = ioctl(fd, PAGEMAP_SCAN, &a);
	*walk_end = a.walk_end;
	return n;
}

static bool pagemap_huge_scan_works(int fd, uint64_t page_size)
{
	struct page_region r = { 0 };
	uint64_t walk_end = 0;
	return pagemap_huge_ioctl(fd, page_size, 2 * page_size, &r, 1, &walk_end) >= 0;
}

int pagemap_open(struct pagemap *pm, pid_t pid, bool want_thp, char *err)
{
	char path[64];
	pm->kpf_fd = -1;
	pm->page_size = vmr_page_size();
	pm->layout = pagemap_layout_running();
	pm->anon_order = 0;
	pm->huge_scan = false;
	pm->huge_n = pm->huge_i = 0;
	pm->huge_known_end = 0;
	pm->lookups = 0;
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/pagemap");
	pm->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (pm->fd < 0) {
		int e = errno;
		probe_err(err, 0, "cannot open %s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	if (want_thp)
		pm->kpf_fd = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (pm->kpf_fd >= 0) {
		pm->anon_order = pagemap_anon_order(pm->page_size);
		pm->huge_scan = pagemap_huge_scan_works(pm->fd, pm->page_size);
	}
	return 0;
}

void pagemap_close(struct pagemap *pm)
{
	if (pm->fd >= 0)
		close(pm->fd);
	if (pm->kpf_fd >= 0)
		close(pm->kpf_fd);
	pm->fd = pm->kpf_fd = -1;
}

static int pagemap_pread(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;
	while (got < len) {
		ssize_t r = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {
			errno = ERANGE;
			return -1;
		}
		got += (size_t)r;
	}
	return 0;
}

/* --- THP counts --- */

static int pagemap_kpf_read(struct pagemap *pm, uint64_t pfn, size_t n)
{
	return pagemap_pread(pm->kpf_fd, pm->flags, n * sizeof(uint64_t), pfn * sizeof(uint64_t));
}

static bool pagemap_flags_thp(uint64_t flags)
{
	return (flags >> KPF_THP) & 1;
}

/* Queue one lookup per naturally aligned block of 1 << order PFNs that the
 * run [pfn, pfn + n) touches: every page of a folio of at least that order
 * has the folio's flags, so one word answers for the block. */
static void pagemap_lookup_run(struct pagemap *pm, uint64_t pfn, uint64_t n, unsigned order)
{
	uint64_t block = 1ULL << order, end = pfn + n;
	while (pfn < end && pm->lookups < PAGEMAP_CHUNK) {
		uint64_t next = (pfn | (block - 1)) + 1;
		if (next > end)
			next = end;
		pm->lookup[pm->lookups++] = (struct pagemap_lookup){ pfn, next - pfn };
		pfn = next;
	}
}

static int pagemap_lookup_cmp(const void *a, const void *b)
{
	const struct pagemap_lookup *x = a, *y = b;
	return x->pfn < y->pfn ? -1 : x->pfn > y->pfn;
}

/* Gaps of up to this many words are read through rather than paid with
 * another pread (a word costs about a quarter of a syscall). */
#define PAGEMAP_LOOKUP_GAP 3

/* Answer the queued lookups with as few kpageflags preads as possible. */
static void pagemap_lookup_flush(struct pagemap *pm, struct pagemap_counts *c)
{
	size_t n = pm->lookups, i = 0;
	pm->lookups = 0;
	if (n > 1)
		qsort(pm->lookup, n, sizeof(pm->lookup[0]), pagemap_lookup_cmp);
	while (i < n) {
		uint64_t base = pm->lookup[i].pfn;
		size_t j = i + 1;
		while (j < n && pm->lookup[j].pfn - pm->lookup[j - 1].pfn <= PAGEMAP_LOOKUP_GAP + 1 &&
		       pm->lookup[j].pfn - base < PAGEMAP_CHUNK)
			j++;
		if (pagemap_kpf_read(pm, base, pm->lookup[j - 1].pfn - base + 1) == 0)
			for (size_t k = i; k < j; k++)
				if (pagemap_flags_thp(pm->flags[pm->lookup[k].pfn - base]))
					c->thp += pm->lookup[k].pages;
		i = j;
	}
}

/* The window PAGEMAP_SCAN is asked about: its walk is cheap over PMDs and
 * costs about a tenth of a pagemap read over page tables, so it is asked
 * only where a chunk looks PMD-mapped, and for this much at a time. */
#define PAGEMAP_HUGE_WINDOW (64ULL << 21)

static void pagemap_huge_fill(struct pagemap *pm, uint64_t addr, uint64_t end)
{
	struct page_region vec[sizeof(pm->huge) / sizeof(pm->huge[0])] = { { 0 } };
	uint64_t walk_end = 0;
	if (end - addr > PAGEMAP_HUGE_WINDOW)
		end = addr + PAGEMAP_HUGE_WINDOW;
	long n = pagemap_huge_ioctl(pm->fd, addr, end, vec, sizeof(vec) / sizeof(vec[0]), &walk_end);
	pm->huge_n = pm->huge_i = 0;
	pm->huge_known_end = n < 0 || walk_end <= addr ? end : walk_end;
	for (long i = 0; i < n; i++)
		pm->huge[pm->huge_n++] = (struct pagemap_huge){ vec[i].start, vec[i].end, -1 };
}

/* The PMD-mapped run holding the whole PMD at addr, or NULL.  Addresses
 * come in increasing order within a scan. */
static struct pagemap_huge *pagemap_huge_at(struct pagemap *pm, uint64_t addr, uint64_t end)
{
	uint64_t pmd_bytes = pm->page_size << PAGEMAP_PMD_ORDER;
	if (!pm->huge_scan)
		return NULL;
	if (addr >= pm->huge_known_end)
		pagemap_huge_fill(pm, addr, end);
	while (pm->huge_i < pm->huge_n && pm->huge[pm->huge_i].end <= addr)
		pm->huge_i++;
	struct pagemap_huge *h = pm->huge_i < pm->huge_n ? &pm->huge[pm->huge_i] : NULL;
	return h && h->start <= addr && h->end >= addr + pmd_bytes ? h : NULL;
}

/* Whether the aligned block of 1 << order PFNs at pfn lies in one THP: the
 * page in its middle is then a tail page of a THP.  A naturally aligned
 * folio that holds the middle page without starting there covers the whole
 * block, so one word answers for a PMD-sized block, mapped by a PMD or not,
 * whatever mTHP sizes are enabled (hugetlb pages are not THP). */
static bool pagemap_block_thp(struct pagemap *pm, uint64_t pfn, unsigned order)
{
	if (pagemap_kpf_read(pm, pfn + (1ULL << (order - 1)), 1) < 0)
		return false;
	uint64_t f = pm->flags[0];
	return pagemap_flags_thp(f) && ((f >> KPF_COMPOUND_TAIL) & 1);
}

/* Look up a run [pfn, pfn + n): PMD-sized aligned blocks first by their
 * middle page, what is left in blocks of 1 << order. */
static void pagemap_thp_run(struct pagemap *pm, uint64_t pfn, uint64_t n, unsigned order,
			    struct pagemap_counts *c)
{
	uint64_t end = pfn + n, pmd = 1ULL << PAGEMAP_PMD_ORDER;
	while (pfn < end) {
		uint64_t next = (pfn | (pmd - 1)) + 1;
		if (next > end)
			next = end;
		if (order < PAGEMAP_PMD_ORDER && pfn % pmd == 0 && next - pfn == pmd &&
		    pagemap_block_thp(pm, pfn, PAGEMAP_PMD_ORDER))
			c->thp += pmd;
		else
			pagemap_lookup_run(pm, pfn, next - pfn, order);
		pfn = next;
	}
}

/* THP pages among the chunk's n entries, which start at virtual page vpage.
 * Runs are present entries with consecutive PFNs.  An anonymous large folio
 * is mapped at a virtual address congruent with its PFN modulo its size
 * (the fault that makes it aligns both), so an anonymous run whose virtual
 * page and PFN differ modulo the smallest possible folio cannot hold one and
 * is not looked up; file folios may be mapped at any offset, so file runs
 * are looked up in blocks of 2 (order-1 folios exist in the page cache). */
static void pagemap_count_thp(struct pagemap *pm, uint64_t vpage, size_t n, uint64_t scan_end,
			      struct pagemap_counts *c)
{
	uint64_t anon_mask = (1ULL << pm->anon_order) - 1, pmd = 1ULL << PAGEMAP_PMD_ORDER;
	size_t i = 0;
	/* A whole PMD's chunk whose first and last pages are present,
	 * consecutive and congruent may be mapped by the PMD: PAGEMAP_SCAN
	 * says so without a look at the other 510 entries.  The kpageflags
	 * word of its run's first PMD tells THP from hugetlb. */
	uint64_t e0 = pm->entries[0], pfn0 = e0 & PM_PFN_MASK;
	struct pagemap_huge *h = NULL;
	if (n == pmd && vpage % pmd == 0 && (e0 & PM_PRESENT) && pfn0 && pfn0 % pmd == 0 &&
	    (pm->entries[n - 1] & (PM_PRESENT | PM_PFN_MASK)) == (PM_PRESENT | (pfn0 + n - 1)) &&
	    (h = pagemap_huge_at(pm, vpage * pm->page_size, scan_end)) != NULL) {
		if (h->thp < 0)
			h->thp = pagemap_block_thp(pm, pfn0, PAGEMAP_PMD_ORDER);
		c->thp += h->thp ? pmd : 0;
		return;
	}
	while (i < n) {
		uint64_t e = pm->entries[i], pfn = e & PM_PFN_MASK;
		bool file = e & PM_FILE;
		/* The test most pages fail comes first: a run keeps the
		 * difference of virtual page and PFN, so a run that fails it
		 * fails it page by page, without finding its end. */
		if (!(e & PM_PRESENT) || !pfn || (!file && (((vpage + i) ^ pfn) & anon_mask))) {
			i++;
			continue;
		}
		size_t j = i + 1;
		while (j < n && (pm->entries[j] & PM_PRESENT) &&
		       (pm->entries[j] & PM_PFN_MASK) == pfn + (j - i))
			j++;
		/* A lone page is no large folio, unless its folio goes on
		 * past the chunk's edge. */
		if (j - i >= 2 || i == 0 || j == n)
			pagemap_thp_run(pm, pfn, j - i, file ? 1 : pm->anon_order, c);
		i = j;
	}
	pagemap_lookup_flush(pm, c);
}

int pagemap_scan(struct pagemap *pm, uint64_t start, uint64_t end,
		 struct pagemap_counts *c, char *state, char *err)
{
	uint64_t ps = pm->page_size;
	if (start % ps || end % ps || end < start) {
		probe_err(err, 0, "range 0x%llx-0x%llx is not page aligned",
			  (unsigned long long)start, (unsigned long long)end);
		errno = EINVAL;
		return -1;
	}
	uint64_t first = start / ps, total = (end - start) / ps;
	pm->huge_n = pm->huge_i = 0;
	pm->huge_known_end = start;
	/* Chunks end on 512-entry boundaries of the address space, so that a
	 * PMD (a whole page table) falls in one chunk. */
	for (uint64_t i = 0, n = 0; i < total; i += n) {
		n = PAGEMAP_CHUNK - (first + i) % PAGEMAP_CHUNK;
		n = total - i < n ? total - i : n;
		if (pagemap_pread(pm->fd, pm->entries, n * sizeof(uint64_t), (first + i) * sizeof(uint64_t)) < 0) {
			int e = errno;
			probe_err(err, 0, "cannot read pagemap at 0x%llx: %s",
				  (unsigned long long)((first + i) * ps),
				  e == ERANGE ? "beyond the end of the address space" : strerror(e));
			errno = e;
			return -1;
		}
		pagemap_count(pm->entries, n, pm->layout, c, state ? state + i : NULL);
		if (pm->kpf_fd >= 0)
			pagemap_count_thp(pm, first + i, n, end, c);
	}
	c->thp_known = pm->kpf_fd >= 0;
	return 0;
}

int pagemap_self(const void *addr, size_t len, struct pagemap_counts *c, char *state, char *err)
{
	struct pagemap pm = { 0 };
	uint64_t ps = vmr_page_size();
	uint64_t start = (uintptr_t)addr / ps * ps;
	uint64_t end = ((uintptr_t)addr + len + ps - 1) / ps * ps;
	if (pagemap_open(&pm, 0, false, err) < 0)
		return -1;
	int r = pagemap_scan(&pm, start, end, c, state, err);
	pagemap_close(&pm);
	return r;
}

/* --- maps people read --- */

size_t pagemap_encode_map(const char *state, size_t npages, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < npages; i += 4) {
		unsigned bits = 0;
		for (size_t k = 0; k < 4 && i + k < npages; k++)
			if (state[i + k] == PAGE_STATE_PRESENT)
				bits |= 1u << k;
		out[n++] = (char)(0x60 | bits);
	}
	out[n] = '\0';
	return n;
}

int pagemap_decode_char(char ch, char out[4])
{
	unsigned char u = (unsigned char)ch;
	if ((u & 0xf0) != 0x60)
		return -1;
	for (int k = 0; k < 4; k++)
		out[k] = (u >> k) & 1 ? PAGE_STATE_PRESENT : PAGE_STATE_NONE;
	return 0;
}
