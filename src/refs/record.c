#include "refs/record.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/units.h"
#include "core/util.h"

#define PM_PRESENT (1ull << 63)
#define PM_SOFT_DIRTY (1ull << 55)
#define PM_PFN_MASK ((1ull << 55) - 1)
#define IDLE_BITMAP "/sys/kernel/mm/page_idle/bitmap"
#define SCAN_CHUNK 1024
#define PERF_RING_PAGES 256 /* data pages per thread: 64k faults per interval */
#define MAX_THREADS 256

struct vec {
	uint64_t *v;
	size_t n, cap;
};

static void vec_push(struct vec *a, uint64_t x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 4096;
		a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
	}
	a->v[a->n++] = x;
}

struct rec {
	const struct refs_record_cfg *cfg;
	int method;
	int pagemap_fd, idle_fd, clear_fd;
	struct vec prev, vpn, ent, all;
	uint64_t samples, lost;
	size_t nperf;
	struct rec_perf {
		int fd;
		void *ring;
		size_t ring_len;
	} perf[MAX_THREADS];
};

/* ---- page faults through a software perf event per thread ---- */

static int rec_perf_open_one(struct rec *r, int tid)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_PAGE_FAULTS,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_ADDR,
		.disabled = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t len = (PERF_RING_PAGES + 1) * vmr_page_size();
	void *ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (ring == MAP_FAILED) {
		close(fd);
		return -1;
	}
	r->perf[r->nperf++] = (struct rec_perf){ fd, ring, len };
	return 0;
}

static int rec_perf_open(struct rec *r)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)r->cfg->pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d)) && r->nperf < MAX_THREADS) {
		if (e->d_name[0] == '.')
			continue;
		if (rec_perf_open_one(r, atoi(e->d_name)) < 0 && errno != ESRCH) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	for (size_t i = 0; i < r->nperf; i++)
		ioctl(r->perf[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	return r->nperf ? 0 : -1;
}

static void rec_perf_drain_one(struct rec *r, struct rec_perf *p)
{
	struct perf_event_mmap_page *meta = p->ring;
	unsigned char *data = (unsigned char *)p->ring + vmr_page_size();
	uint64_t size = PERF_RING_PAGES * vmr_page_size(), ps = vmr_page_size();
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), tail = meta->data_tail;
	while (tail + sizeof(struct perf_event_header) <= head) {
		unsigned char rec[64];
		struct perf_event_header h = { 0 };
		for (size_t i = 0; i < sizeof(h); i++)
			((unsigned char *)&h)[i] = data[(tail + i) % size];
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		size_t n = h.size < sizeof(rec) ? h.size : sizeof(rec);
		for (size_t i = 0; i < n; i++)
			rec[i] = data[(tail + i) % size];
		uint64_t v;
		memcpy(&v, rec + sizeof(h), 8);
		if (h.type == PERF_RECORD_SAMPLE && n >= sizeof(h) + 8)
			vec_push(&r->all, v / ps);
		else if (h.type == PERF_RECORD_LOST && n >= sizeof(h) + 16)
			r->lost += ((uint64_t *)(void *)(rec + sizeof(h)))[1];
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

static void rec_perf_drain(struct rec *r)
{
	for (size_t i = 0; i < r->nperf; i++)
		rec_perf_drain_one(r, &r->perf[i]);
}

/* Whether soft-dirty bits work here: clear our own, write a page, look. */
static int rec_soft_dirty_works(void)
{
	int ok = 0, fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
	int pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	volatile char *p = mmap(NULL, vmr_page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fd >= 0 && pm >= 0 && p != MAP_FAILED) {
		p[0] = 1;
		uint64_t e = 0;
		if (write(fd, "4", 1) == 1) {
			p[0] = 2;
			ok = pread(pm, &e, 8, (off_t)((uintptr_t)p / vmr_page_size() * 8)) == 8 && (e & PM_SOFT_DIRTY);
		}
	}
	if (p != MAP_FAILED)
		munmap((void *)p, vmr_page_size());
	if (fd >= 0)
		close(fd);
	if (pm >= 0)
		close(pm);
	return ok;
}

int refs_maps_vma(const char *line, uint64_t *start, uint64_t *end)
{
	char perms[5];
	int name_at = 0;
	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %4s %*s %*s %*s %n", start, end, perms, &name_at) < 3)
		return 0;
	if (!strncmp(perms, "---", 3))
		return 0;
	return !name_at || strncmp(line + name_at, "[vsyscall]", 10);
}

/* The present pages of the process, in address order, with their pagemap
 * entries.  Returns 0, or -1 when the process is gone. */
static int rec_scan(struct rec *r)
{
	char path[64], *maps;
	uint64_t ps = vmr_page_size(), buf[SCAN_CHUNK];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)r->cfg->pid);
	if (vmr_read_file(path, &maps, NULL) < 0)
		return -1;
	r->vpn.n = r->ent.n = 0;
	for (char *line = maps, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		uint64_t start, end;
		if (!refs_maps_vma(line, &start, &end))
			continue;
		for (uint64_t v = start / ps; v < end / ps;) {
			size_t n = end / ps - v < SCAN_CHUNK ? (size_t)(end / ps - v) : SCAN_CHUNK;
			ssize_t got = pread(r->pagemap_fd, buf, n * 8, (off_t)(v * 8));
			if (got <= 0)
				break;
			for (size_t i = 0; i < (size_t)got / 8; i++)
				if (buf[i] & PM_PRESENT) {
					vec_push(&r->vpn, v + i);
					vec_push(&r->ent, buf[i]);
				}
			v += (uint64_t)got / 8;
		}
	}
	free(maps);
	return 0;
}

static int rec_idle_bit(struct rec *r, uint64_t pfn, uint64_t *cache_word, uint64_t *cache_val)
{
	uint64_t w = pfn / 64;
	if (w != *cache_word) {
		if (pread(r->idle_fd, cache_val, 8, (off_t)(w * 8)) != 8)
			*cache_val = 0;
		*cache_word = w;
	}
	return (int)((*cache_val >> (pfn % 64)) & 1);
}

/* Mark the pages seen in the last scan idle, or clear the soft-dirty bits. */
static int rec_arm(struct rec *r)
{
	if (r->method == REFS_REC_SOFT_DIRTY)
		return pwrite(r->clear_fd, "4", 1, 0) == 1 ? 0 : -1;
	for (size_t i = 0; i < r->ent.n;) {
		uint64_t w = (r->ent.v[i] & PM_PFN_MASK) / 64, bits = 0;
		for (; i < r->ent.n && (r->ent.v[i] & PM_PFN_MASK) / 64 == w; i++)
			bits |= 1ull << ((r->ent.v[i] & PM_PFN_MASK) % 64);
		if (pwrite(r->idle_fd, &bits, 8, (off_t)(w * 8)) != 8 && errno != ENXIO)
			return -1;
	}
	return 0;
}

/* Append the pages referenced since the last arm, then remember what is
 * present now. */
static void rec_collect(struct rec *r)
{
	uint64_t cw = UINT64_MAX, cv = 0;
	size_t j = 0;
	for (size_t i = 0; i < r->vpn.n; i++) {
		uint64_t v = r->vpn.v[i], e = r->ent.v[i];
		while (j < r->prev.n && r->prev.v[j] < v)
			j++;
		int was_present = j < r->prev.n && r->prev.v[j] == v;
		int refd = !was_present;
		if (!refd && r->method == REFS_REC_SOFT_DIRTY)
			refd = !!(e & PM_SOFT_DIRTY);
		else if (!refd)
			refd = !rec_idle_bit(r, e & PM_PFN_MASK, &cw, &cv);
		if (refd)
			vec_push(&r->all, v);
	}
	r->prev.n = 0;
	for (size_t i = 0; i < r->vpn.n; i++)
		vec_push(&r->prev, r->vpn.v[i]);
}

static int rec_open(struct rec *r)
{
	char path[64];
	int pid = (int)r->cfg->pid;
	if (kill(pid, 0) < 0 && errno == ESRCH) {
		vmr_err("refs record: --pid %d: no such process", pid);
		return -1;
	}
	r->method = r->cfg->method;
	if (r->method == REFS_REC_AUTO)
		r->method = access(IDLE_BITMAP, R_OK | W_OK) == 0 ? REFS_REC_IDLE
			    : rec_soft_dirty_works()              ? REFS_REC_SOFT_DIRTY
								  : REFS_REC_FAULTS;
	if (r->method == REFS_REC_FAULTS) {
		if (rec_perf_open(r) < 0) {
			vmr_errno("refs record: cannot sample page faults of --pid %d with perf", pid);
			return errno == ESRCH || errno == ENOENT ? -1 : -2;
		}
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
	r->pagemap_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->pagemap_fd < 0) {
		vmr_errno("refs record: cannot open %s", path);
		return errno == ENOENT ? -1 : -2;
	}
	if (r->method == REFS_REC_IDLE) {
		r->idle_fd = open(IDLE_BITMAP, O_RDWR | O_CLOEXEC);
		if (r->idle_fd < 0) {
			vmr_errno("refs record: idle page tracking is not available (%s)", IDLE_BITMAP);
			return -2;
		}
		return 0;
	}
	if (!rec_soft_dirty_works()) {
		vmr_err("refs record: soft-dirty bits are not available (a kernel without CONFIG_MEM_SOFT_DIRTY)");
		return -2;
	}
	snprintf(path, sizeof(path), "/proc/%d/clear_refs", pid);
	r->clear_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (r->clear_fd < 0 || pwrite(r->clear_fd, "4", 1, 0) != 1) {
		vmr_errno("refs record: cannot clear soft-dirty bits through %s", path);
		return -2;
	}
	return 0;
}

static void rec_close(struct rec *r)
{
	if (r->pagemap_fd >= 0)
		close(r->pagemap_fd);
	if (r->idle_fd >= 0)
		close(r->idle_fd);
	if (r->clear_fd >= 0)
		close(r->clear_fd);
	for (size_t i = 0; i < r->nperf; i++) {
		munmap(r->perf[i].ring, r->perf[i].ring_len);
		close(r->perf[i].fd);
	}
	free(r->prev.v);
	free(r->vpn.v);
	free(r->ent.v);
	free(r->all.v);
}

static void rec_sleep_until(uint64_t t_ns)
{
	struct timespec ts = { (time_t)(t_ns / 1000000000ull), (long)(t_ns % 1000000000ull) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int rec_process_alive(const struct rec *r)
{
	return kill(r->cfg->pid, 0) == 0 || errno != ESRCH;
}

static int rec_loop_faults(struct rec *r)
{
	uint64_t t0 = vmr_now_ns(), next = t0;
	while (next - t0 < r->cfg->duration_ns && rec_process_alive(r)) {
		next += r->cfg->interval_ns;
		rec_sleep_until(next);
		rec_perf_drain(r);
		r->samples++;
	}
	rec_perf_drain(r);
	return 0;
}

static int rec_loop(struct rec *r)
{
	if (r->method == REFS_REC_FAULTS)
		return rec_loop_faults(r);
	if (rec_scan(r) < 0) {
		vmr_err("refs record: --pid %d: the process exited", (int)r->cfg->pid);
		return -1;
	}
	rec_collect(r); /* the first scan only sets what was present */
	r->all.n = 0;
	uint64_t t0 = vmr_now_ns(), next = t0;
	while (next - t0 < r->cfg->duration_ns) {
		if (rec_arm(r) < 0) {
			vmr_errno("refs record: cannot reset the referenced bits");
			return -2;
		}
		next += r->cfg->interval_ns;
		rec_sleep_until(next);
		if (rec_scan(r) < 0)
			break;
		rec_collect(r);
		r->samples++;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static size_t rec_index(const uint64_t *u, size_t n, uint64_t v)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (u[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int rec_build(struct rec *r, struct refs_out *out)
{
	if (!r->all.n) {
		vmr_err("refs record: --pid %d referenced no pages in %" PRIu64 " samples", (int)r->cfg->pid,
			r->samples);
		return -1;
	}
	uint64_t *u = xmalloc(r->all.n * sizeof(*u));
	memcpy(u, r->all.v, r->all.n * sizeof(*u));
	qsort(u, r->all.n, sizeof(*u), cmp_u64);
	size_t nu = 0;
	for (size_t i = 0; i < r->all.n; i++)
		if (!nu || u[nu - 1] != u[i])
			u[nu++] = u[i];
	char comm[64] = "?", path[64], iv[32], du[32], *line = NULL;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)r->cfg->pid);
	if (vmr_read_line(path, &line) == 0) {
		for (char *c = line; *c; c++)
			if (*c < 0x21 || *c > 0x7e)
				*c = '_';
		snprintf(comm, sizeof(comm), "%s", line);
		free(line);
	}
	struct refs_header h = { .page_size = (uint32_t)vmr_page_size(), .flags = REFS_FLAG_SAMPLED,
				 .pages = nu, .references = r->all.n };
	static const char *const names[] = { "auto", "idle", "soft-dirty", "faults" };
	snprintf(h.desc, sizeof(h.desc),
		 "recorded pid=%d comm=%s method=%s interval=%s duration=%s samples=%" PRIu64 " lost=%" PRIu64,
		 (int)r->cfg->pid, comm, names[r->method], units_format_time(iv, sizeof(iv), r->cfg->interval_ns),
		 units_format_time(du, sizeof(du), r->cfg->duration_ns), r->samples, r->lost);
	int rc = refs_out_init(out, &h);
	if (rc == 0)
		for (size_t i = 0; i < r->all.n; i++)
			out->body[i] = htole32((uint32_t)rec_index(u, nu, r->all.v[i]));
	free(u);
	return rc < 0 ? -2 : 0;
}

int refs_record(const struct refs_record_cfg *cfg, struct refs_out *out)
{
	if (cfg->method == REFS_REC_DAMON) {
		vmr_err("refs record: --method damon needs a kdamond set up (refs_record_damon)");
		return -2;
	}
	struct rec r = { .cfg = cfg, .pagemap_fd = -1, .idle_fd = -1, .clear_fd = -1 };
	int rc = rec_open(&r);
	if (rc == 0)
		rc = rec_loop(&r);
	if (rc == 0)
		rc = rec_build(&r, out);
	rec_close(&r);
	return rc;
}
