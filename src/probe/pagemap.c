/* /proc/PID/maps, /proc/PID/pagemap and /proc/kpageflags. */
#include "probe/pagemap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

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

void pagemap_count(const uint64_t *e, size_t n, enum pagemap_layout layout,
		   struct pagemap_counts *c, char *state)
{
	bool flags = layout == PAGEMAP_LAYOUT_CURRENT;
	c->flags_known = flags;
	c->pages += n;
	for (size_t i = 0; i < n; i++) {
		uint64_t v = e[i];
		char s = PAGE_STATE_NONE;
		if (v & PM_PRESENT) {
			s = PAGE_STATE_PRESENT;
			c->present++;
			if (v & PM_PFN_MASK)
				c->pfn_known = true;
			if (flags && (v & PM_MMAP_EXCLUSIVE))
				c->exclusive++;
		} else if (v & PM_SWAP) {
			s = PAGE_STATE_SWAPPED;
			c->swapped++;
		}
		if (flags && (v & (PM_PRESENT | PM_SWAP))) {
			c->file += !!(v & PM_FILE);
			c->soft_dirty += !!(v & PM_SOFT_DIRTY);
		}
		if (state)
			state[i] = s;
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

int pagemap_open(struct pagemap *pm, pid_t pid, bool want_thp, char *err)
{
	char path[64];
	pm->kpf_fd = -1;
	pm->page_size = vmr_page_size();
	pm->layout = pagemap_layout_running();
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

/* The smallest folio that can be a THP (a 16K mTHP with 4K pages): runs of
 * fewer consecutive PFNs are not looked up, which keeps this to one pread per
 * run instead of one per page. */
#define PAGEMAP_THP_MIN_RUN 4

static void pagemap_count_thp(struct pagemap *pm, size_t n, struct pagemap_counts *c)
{
	size_t i = 0;
	while (i < n) {
		uint64_t pfn = pm->entries[i] & PM_PFN_MASK;
		if (!(pm->entries[i] & PM_PRESENT) || !pfn) {
			i++;
			continue;
		}
		size_t j = i + 1;
		while (j < n && (pm->entries[j] & PM_PRESENT) &&
		       (pm->entries[j] & PM_PFN_MASK) == pfn + (j - i))
			j++;
		if (j - i >= PAGEMAP_THP_MIN_RUN &&
		    pagemap_pread(pm->kpf_fd, pm->flags, (j - i) * sizeof(uint64_t), pfn * sizeof(uint64_t)) == 0)
			for (size_t k = 0; k < j - i; k++)
				c->thp += (pm->flags[k] >> KPF_THP) & 1;
		i = j;
	}
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
	for (uint64_t i = 0; i < total; i += PAGEMAP_CHUNK) {
		size_t n = total - i < PAGEMAP_CHUNK ? (size_t)(total - i) : PAGEMAP_CHUNK;
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
			pagemap_count_thp(pm, n, c);
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
