/* THP counts of a live scan, as root, checked against the slow exact way:
 * one kpageflags word for every present page.  Each case is memory of one
 * kind: PMD-mapped THP, the same THP mapped by PTEs, ordinary pages, a
 * file in the page cache, and an mTHP when the host already enables one;
 * each both with PAGEMAP_SCAN and without it (the path older kernels take). */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/util.h"
#include "probe/pagemap.h"
#include "sandbox/sandbox.h"
#include "t.h"

#define MIB (1UL << 20)

/* Present pages of [p, p + len) whose kpageflags say THP, page by page. */
static uint64_t thp_slow(const char *p, size_t len)
{
	size_t ps = (size_t)vmr_page_size();
	int pm = open("/proc/self/pagemap", O_RDONLY), kpf = open("/proc/kpageflags", O_RDONLY);
	uint64_t n = 0;
	for (size_t off = 0; pm >= 0 && kpf >= 0 && off < len; off += ps) {
		uint64_t e = 0, f = 0;
		if (pread(pm, &e, 8, (off_t)(((uintptr_t)p + off) / ps * 8)) != 8 || !(e & PM_PRESENT))
			continue;
		if (pread(kpf, &f, 8, (off_t)((e & PM_PFN_MASK) * 8)) == 8)
			n += (f >> KPF_THP) & 1;
	}
	close(pm);
	close(kpf);
	return n;
}

static uint64_t thp_scan(const char *p, size_t len, bool huge_scan)
{
	struct pagemap pm = { 0 };
	struct pagemap_counts c = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (pagemap_open(&pm, 0, true, err) < 0)
		return UINT64_MAX;
	pm.huge_scan = pm.huge_scan && huge_scan;
	int r = pagemap_scan(&pm, (uintptr_t)p, (uintptr_t)p + len, &c, NULL, err);
	pagemap_close(&pm);
	return r == 0 && c.thp_known ? c.thp : UINT64_MAX;
}

/* Both paths count what the slow way counts; want_some: the case is only
 * meaningful when the kernel gave large folios at all. */
static void check_case(const char *name, const char *p, size_t len, bool want_some)
{
	uint64_t slow = thp_slow(p, len);
	if (want_some && slow == 0) {
		SKIP("%s: THP pages counted (the kernel gave no large folio here)", name);
		return;
	}
	CHECK_EQ_U(thp_scan(p, len, true), slow, "%s: THP pages as kpageflags says, page by page (%llu)",
		   name, (unsigned long long)slow);
	CHECK_EQ_U(thp_scan(p, len, false), slow, "%s: the same without PAGEMAP_SCAN", name);
}

static char *map_aligned(size_t len, int advice)
{
	char *p = mmap(NULL, len + 2 * MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	p = (char *)(((uintptr_t)p + 2 * MIB - 1) & ~(uintptr_t)(2 * MIB - 1));
	madvise(p, len, advice);
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 1;
	return p;
}

static bool thp_knob_on(const char *path)
{
	char *line = NULL;
	bool on = vmr_read_line(path, &line) == 0 && (strstr(line, "[always]") || strstr(line, "[madvise]"));
	free(line);
	return on;
}

static void test_anon(void)
{
	size_t len = 8 * MIB;
	char *p = map_aligned(len, MADV_NOHUGEPAGE);
	CHECK(p != NULL, "map 8 MiB of ordinary pages");
	if (!p)
		return;
	check_case("ordinary pages", p, len, false);
	CHECK_EQ_U(thp_scan(p, len, true), 0, "ordinary pages: no THP pages");
	if (!thp_knob_on("/sys/kernel/mm/transparent_hugepage/enabled")) {
		SKIP("PMD-mapped THP counted (THP is disabled here)");
		return;
	}
	p = map_aligned(len, MADV_HUGEPAGE);
	CHECK(p != NULL, "map 8 MiB asking for THPs");
	if (!p)
		return;
	check_case("PMD-mapped THP", p, len, true);
	check_case("PMD-mapped THP, a range starting mid-PMD", p + 4096 * 37, len - 4096 * 37, true);
	/* mprotect of one page splits the PMD; the folio stays whole. */
	mprotect(p + 2 * MIB + 4096 * 5, 4096, PROT_READ);
	check_case("THP mapped by PTEs after a split PMD", p, len, true);
}

static void test_file(void)
{
	char path[] = "/var/tmp/vmr-test-pagemap-XXXXXX";
	int fd = mkstemp(path);
	size_t len = 8 * MIB;
	char *buf = malloc(len);
	CHECK(fd >= 0 && buf, "a file of 8 MiB");
	if (fd < 0 || !buf)
		goto free_buf;
	unlink(path);
	memset(buf, 7, len);
	bool ok = write(fd, buf, len) == (ssize_t)len;
	char *p = ok ? mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	CHECK(p != MAP_FAILED, "map the file");
	if (p == MAP_FAILED)
		goto close_fd;
	volatile char sum = 0;
	for (size_t i = 0; i < len; i += 4096)
		sum += p[i];
	check_case("file pages in the page cache", p, len, false);
	munmap(p, len);
	/* Mapped 4K past a 2 MiB boundary, its large folios sit at addresses
	 * not congruent with their PFNs: no PMD, and no anonymous rule, fits. */
	char *area = mmap(NULL, len + 4 * MIB, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(area != MAP_FAILED, "reserve address space");
	if (area == MAP_FAILED)
		goto close_fd;
	char *q = (char *)(((uintptr_t)area + 2 * MIB - 1) & ~(uintptr_t)(2 * MIB - 1)) + 4096;
	p = mmap(q, len, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
	CHECK(p == q, "map the file 4K past a 2 MiB boundary");
	for (size_t i = 0; p == q && i < len; i += 4096)
		sum += p[i];
	if (p == q)
		check_case("file pages at addresses not congruent with their PFNs", p, len, true);
	munmap(area, len + 4 * MIB);
close_fd:
	close(fd);
free_buf:
	free(buf);
}

/* 64K mTHP, set to madvise for the test by a sandbox of knobs only (as
 * --no-sandbox --set does), which puts it back. */
static void test_mthp(void)
{
	const char *knob = "/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled";
	if (access(knob, F_OK) < 0) {
		SKIP_WHY("64K mTHP counted", "this kernel has no 64K mTHP (%s)", knob);
		return;
	}
	char *before = NULL, *after = NULL;
	vmr_read_line(knob, &before);
	struct sandbox_cfg cfg = { .no_sandbox = true, .timeout_ns = 120 * 1000000000ull };
	struct sandbox *sb = NULL;
	strlist_add(&cfg.set, "thp.64K.enabled=madvise");
	int rc = sandbox_open(&sb, &cfg);
	CHECK(rc == 0 && thp_knob_on(knob), "64K mTHP set to madvise for the test");
	/* Inside one 2 MiB block, short of both ends: no PMD fits. */
	char *p = rc == 0 ? map_aligned(2 * MIB, MADV_HUGEPAGE) : NULL;
	CHECK(p != NULL, "map 2 MiB for mTHPs");
	if (p) {
		munmap(p, 2 * MIB);
		p = mmap(p + 64 * 1024, 2 * MIB - 128 * 1024, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		CHECK(p != MAP_FAILED, "map 1984 KiB at 64K inside a 2 MiB block");
	}
	if (p && p != MAP_FAILED) {
		madvise(p, 2 * MIB - 128 * 1024, MADV_HUGEPAGE);
		for (size_t i = 0; i < 2 * MIB - 128 * 1024; i += 4096)
			p[i] = 1;
		check_case("64K mTHP", p, 2 * MIB - 128 * 1024, true);
		munmap(p, 2 * MIB - 128 * 1024);
	}
	if (sb)
		sandbox_close(sb);
	vmr_read_line(knob, &after);
	CHECK(before && after && !strcmp(before, after), "64K mTHP put back as it was (%s)", after ? after : "?");
	free(before);
	free(after);
	strlist_free(&cfg.set);
}

int main(void)
{
	if (!vmr_is_root() || access("/proc/kpageflags", R_OK) < 0) {
		SKIP("THP counts (needs root and /proc/kpageflags)");
		T_DONE();
	}
	test_anon();
	test_file();
	test_mthp();
	T_DONE();
}
