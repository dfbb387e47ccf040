#include "sandbox/knobs.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "core/suggest.h"
#include "core/util.h"
#include "probe/meminfo.h"
#include "probe/probe.h"
#include "probe/vmstat.h"
#include "sandbox/journal.h"

#define KNOB_THP_DIR "/sys/kernel/mm/transparent_hugepage"
/* One multi-size THP size (6.8 on): its anonymous and its shmem policy.
 * Sizes a kernel lacks (8K has no anonymous policy on x86) fail to read and
 * are refused with "this kernel has no ..." like any other missing knob. */
#define KNOB_MTHP(label, dir)                                                                   \
	{ "thp." label ".enabled", KNOB_THP_DIR "/hugepages-" dir "/enabled",                    \
	  "multi-size THP " label " for anonymous memory" },                                     \
	{ "thp." label ".shmem_enabled", KNOB_THP_DIR "/hugepages-" dir "/shmem_enabled",        \
	  "multi-size THP " label " for shmem" }

const struct knob knobs[] = {
	{ "vm.page-cluster", "/proc/sys/vm/page-cluster", "log2 of pages read per swap-in" },
	{ "vm.swappiness", "/proc/sys/vm/swappiness", "anon versus file reclaim balance" },
	{ "vm.watermark_scale_factor", "/proc/sys/vm/watermark_scale_factor", "kswapd watermark gaps" },
	{ "vm.min_free_kbytes", "/proc/sys/vm/min_free_kbytes", "the min watermark" },
	{ "vm.overcommit_memory", "/proc/sys/vm/overcommit_memory", "overcommit policy" },
	{ "vm.overcommit_ratio", "/proc/sys/vm/overcommit_ratio", "overcommit ratio for policy 2" },
	{ "vm.vfs_cache_pressure", "/proc/sys/vm/vfs_cache_pressure", "dentry/inode reclaim weight" },
	{ "thp.enabled", "/sys/kernel/mm/transparent_hugepage/enabled", "transparent huge pages" },
	{ "thp.defrag", "/sys/kernel/mm/transparent_hugepage/defrag", "THP allocation defrag" },
	{ "thp.shmem_enabled", "/sys/kernel/mm/transparent_hugepage/shmem_enabled", "THP for shmem" },
	{ "swap.vma_ra_enabled", "/sys/kernel/mm/swap/vma_ra_enabled", "VMA-based swap readahead" },
	{ "zswap.enabled", "/sys/module/zswap/parameters/enabled", "compressed swap cache" },
	{ "zswap.compressor", "/sys/module/zswap/parameters/compressor", "zswap compressor" },
	{ "zswap.max_pool_percent", "/sys/module/zswap/parameters/max_pool_percent", "zswap pool cap" },
	{ "ksm.run", "/sys/kernel/mm/ksm/run", "kernel samepage merging" },
	KNOB_MTHP("8K", "8kB"), KNOB_MTHP("16K", "16kB"), KNOB_MTHP("32K", "32kB"), KNOB_MTHP("64K", "64kB"),
	KNOB_MTHP("128K", "128kB"), KNOB_MTHP("256K", "256kB"), KNOB_MTHP("512K", "512kB"),
	KNOB_MTHP("1M", "1024kB"), KNOB_MTHP("2M", "2048kB"),
	{ "thp.shrink_underused", KNOB_THP_DIR "/shrink_underused", "split underused THPs under reclaim" },
	{ "thp.use_zero_page", KNOB_THP_DIR "/use_zero_page", "map the huge zero page on read faults" },
	{ "thp.khugepaged.defrag", KNOB_THP_DIR "/khugepaged/defrag", "khugepaged may compact to collapse" },
	{ "thp.khugepaged.pages_to_scan", KNOB_THP_DIR "/khugepaged/pages_to_scan", "pages khugepaged scans a pass" },
	{ "thp.khugepaged.scan_sleep_millisecs", KNOB_THP_DIR "/khugepaged/scan_sleep_millisecs",
	  "khugepaged's sleep between passes" },
	{ "thp.khugepaged.alloc_sleep_millisecs", KNOB_THP_DIR "/khugepaged/alloc_sleep_millisecs",
	  "khugepaged's sleep after a failed allocation" },
	{ "thp.khugepaged.max_ptes_none", KNOB_THP_DIR "/khugepaged/max_ptes_none",
	  "empty PTEs a collapse may fill" },
	{ "thp.khugepaged.max_ptes_swap", KNOB_THP_DIR "/khugepaged/max_ptes_swap",
	  "swapped PTEs a collapse may read in" },
	{ "thp.khugepaged.max_ptes_shared", KNOB_THP_DIR "/khugepaged/max_ptes_shared",
	  "shared PTEs a collapse may take" },
	{ "zswap.shrinker_enabled", "/sys/module/zswap/parameters/shrinker_enabled",
	  "write cold zswap pages back to swap" },
	{ "zswap.accept_threshold_percent", "/sys/module/zswap/parameters/accept_threshold_percent",
	  "pool use below which a full zswap accepts again" },
	{ "lru_gen.enabled", "/sys/kernel/mm/lru_gen/enabled", "multi-generational LRU feature mask" },
	{ "lru_gen.min_ttl_ms", "/sys/kernel/mm/lru_gen/min_ttl_ms", "MGLRU thrashing guard" },
	{ "numa.demotion_enabled", "/sys/kernel/mm/numa/demotion_enabled", "demote cold pages to slower nodes" },
	{ "kernel.numa_balancing", "/proc/sys/kernel/numa_balancing", "NUMA balancing: 1 by locality, 2 promotion to faster tiers" },
	{ NULL, NULL, NULL },
};

const struct knob *knob_find(const char *name)
{
	for (const struct knob *k = knobs; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

/* Why name is refused: the knob it was probably meant to be, else the
 * whole allow-list.  The text lives until the next call. */
static const char *knob_unknown(const char *name)
{
	static char why[1024];
	const char *near = suggest_in(name, knobs, sizeof(knobs[0]), SIZE_MAX);
	if (near) {
		snprintf(why, sizeof(why), "is not an allow-listed knob; did you mean '%s'?", near);
		return why;
	}
	size_t off = (size_t)snprintf(why, sizeof(why), "is not an allow-listed knob (the allow-list:");
	for (const struct knob *k = knobs; k->name && off < sizeof(why); k++)
		off += (size_t)snprintf(why + off, sizeof(why) - off, " %s", k->name);
	if (off < sizeof(why))
		snprintf(why + off, sizeof(why) - off, ")");
	return why;
}

const struct knob *knob_parse_set(const char *arg, const char **value, const char **why)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		*why = "is not NAME=VALUE";
		return NULL;
	}
	char name[64];
	size_t n = (size_t)(eq - arg);
	if (memchr(arg, '/', n) || (n >= 2 && memmem(arg, n, "..", 2))) {
		*why = "names a path, not a knob (see 'vmregress help sandbox' for the allow-list)";
		return NULL;
	}
	if (n >= sizeof(name)) {
		*why = "is not an allow-listed knob";
		return NULL;
	}
	memcpy(name, arg, n);
	name[n] = '\0';
	const struct knob *k = knob_find(name);
	if (!k) {
		*why = knob_unknown(name);
		return NULL;
	}
	const char *v = eq + 1;
	size_t vlen = strlen(v);
	if (vlen == 0 || vlen >= JOURNAL_VALUE_MAX) {
		*why = "has an empty or too long value";
		return NULL;
	}
	for (const char *p = v; *p; p++)
		if (*p <= ' ' || *p > '~' || *p == '#') {
			*why = "has a value with spaces or control characters";
			return NULL;
		}
	*value = v;
	return k;
}

void knob_normalize(char *text)
{
	char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		size_t n = (size_t)(close - open - 1);
		memmove(text, open + 1, n);
		text[n] = '\0';
	}
	size_t n = strlen(text);
	while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
		text[--n] = '\0';
}

int knobs_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int e = n < 0 ? errno : 0;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	return 0;
}

int knob_read(const struct knob *k, char *buf, size_t len)
{
	int e = knobs_read_file(k->path, buf, len);
	if (e < 0)
		return e;
	knob_normalize(buf);
	return 0;
}

int knob_host_read(struct knob_host *h)
{
	char *s = NULL, err[PROBE_ERR_MAX] = "";
	struct meminfo mi = { 0 };
	memset(h, 0, sizeof(*h));
	if (meminfo_read(&mi, NULL, err) < 0) {
		meminfo_free(&mi);
		return -1;
	}
	static const struct { const char *key; size_t off; } keys[] = {
		{ "MemTotal", offsetof(struct knob_host, mem_total_kb) },
		{ "SwapTotal", offsetof(struct knob_host, swap_total_kb) },
		{ "Committed_AS", offsetof(struct knob_host, committed_kb) },
	};
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		uint64_t bytes = 0;
		if (meminfo_get(&mi, keys[i].key, &bytes) == 0)
			*(uint64_t *)((char *)h + keys[i].off) = bytes / 1024;
	}
	meminfo_free(&mi);
	if (vmr_read_line("/proc/sys/vm/overcommit_kbytes", &s) == 0)
		h->overcommit_kbytes = strtoull(s, NULL, 10);
	free(s);
	s = NULL;
	if (vmr_read_line("/sys/module/zswap/parameters/enabled", &s) == 0)
		h->zswap_seen = s[0] == 'Y' || s[0] == 'y' || s[0] == '1';
	free(s);
	if (!h->zswap_seen) {
		struct vmstat vs = { 0 };
		uint64_t out = 0;
		vmstat_init(&vs);
		h->zswap_seen = vmstat_read(&vs, NULL, err) == 0 && vmstat_get(&vs, "zswpout", &out) == 0 && out > 0;
		vmstat_free(&vs);
	}
	return h->mem_total_kb ? 0 : -1;
}

/* The value of knob name among the --set arguments, else the one in force;
 * as a number, or -1 when it is none. */
static long long knob_effective(char *const *set, size_t n, const char *name)
{
	size_t nl = strlen(name);
	char buf[JOURNAL_VALUE_MAX] = "", *end = NULL;
	const char *v = NULL;
	for (size_t i = 0; i < n && !v; i++)
		if (!strncmp(set[i], name, nl) && set[i][nl] == '=')
			v = set[i] + nl + 1;
	if (!v && knob_read(knob_find(name), buf, sizeof(buf)) == 0)
		v = buf;
	if (!v)
		return -1;
	long long x = strtoll(v, &end, 10);
	return end != v && !*end && x >= 0 ? x : -1;
}

/* One knob's fixed bounds [lo, hi], and why; a value outside is refused. */
static int knob_check_range(const char *arg, const char *name, long long lo, long long hi, const char *reason,
			    char *why, size_t len)
{
	size_t nl = strlen(name);
	if (strncmp(arg, name, nl) || arg[nl] != '=')
		return 0;
	char *end = NULL;
	long long v = strtoll(arg + nl + 1, &end, 10);
	if (end == arg + nl + 1 || *end)
		return 0;  /* not a number: the kernel says no */
	if (v >= lo && v <= hi)
		return 0;
	snprintf(why, len, "%s=%lld is %s its bound of %lld (%s)", name, v, v < lo ? "below" : "above",
		 v < lo ? lo : hi, reason);
	return -1;
}

/* Mode 2 refuses every allocation beyond the commit limit, host-wide: it
 * must leave what is committed now room to grow. */
static int knob_check_overcommit(char *const *set, size_t n, const struct knob_host *h, char *why, size_t len)
{
	bool asked = false;
	for (size_t i = 0; i < n; i++)
		asked |= !strncmp(set[i], "vm.overcommit_", 14);
	long long mode = knob_effective(set, n, "vm.overcommit_memory");
	long long ratio = knob_effective(set, n, "vm.overcommit_ratio");
	if (!asked || mode != 2 || ratio < 0)
		return 0;
	uint64_t limit = h->swap_total_kb + (h->overcommit_kbytes ? h->overcommit_kbytes
								 : h->mem_total_kb * (uint64_t)ratio / 100);
	uint64_t need = h->committed_kb + h->mem_total_kb / 10;
	if (limit >= need)
		return 0;
	snprintf(why, len, "vm.overcommit_memory=2 with vm.overcommit_ratio=%lld: the commit limit would be %" PRIu64
		 " kB, below its bound of %" PRIu64 " kB (what is committed now plus a tenth of memory): allocations "
		 "all over the host would fail", ratio, limit, need);
	return -1;
}

int knob_check_bounds(char *const *set, size_t n, const struct knob_host *h, char *why, size_t len)
{
	long long mem_kb = (long long)h->mem_total_kb;
	for (size_t i = 0; i < n; i++) {
		const char *a = set[i];
		if (knob_check_range(a, "vm.min_free_kbytes", 1024, mem_kb / 20,
				     "1 MB..5% of this host's memory: more kept free starves its processes, "
				     "less fails atomic allocations", why, len) < 0 ||
		    knob_check_range(a, "vm.watermark_scale_factor", 1, 1000,
				     "above 10% of memory between the watermarks kswapd reclaims without pause",
				     why, len) < 0 ||
		    knob_check_range(a, "vm.vfs_cache_pressure", 1, 1000,
				     "at 0 dentries and inodes are never reclaimed; far above 100 reclaim spins "
				     "on them", why, len) < 0 ||
		    knob_check_range(a, "zswap.max_pool_percent", 0, 50,
				     "above half of memory the compressed pool can crowd out everything else",
				     why, len) < 0)
			return -1;
	}
	return knob_check_overcommit(set, n, h, why, len);
}

int knob_check_one_way(char *const *set, size_t n, const struct knob_host *h, char *why, size_t len)
{
	for (size_t i = 0; i < n && !h->zswap_seen; i++)
		if (!strncmp(set[i], "zswap.enabled=", 14) && strchr("Yy1", set[i][14]) && set[i][14]) {
			snprintf(why, len, "%s turns zswap on for the first time this boot, after which this kernel "
				 "swaps no large folio in whole until the next boot, whatever the knob is set back to",
				 set[i]);
			return -1;
		}
	return 0;
}

int knobs_lock(bool exclusive, uint64_t wait_ns, const char **why)
{
	int fd = open("/proc/sys/vm", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && !exclusive)
		return -1;  /* then no sandbox can lock them to set them either */
	if (fd < 0) {
		*why = "cannot open /proc/sys/vm to lock the knobs";
		return -2;
	}
	uint64_t t0 = vmr_now_ns();
	bool said = false;
	while (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) < 0) {
		if (wait_ns && vmr_now_ns() - t0 >= wait_ns) {
			*why = exclusive ? "another vmregress kept the knobs (they are host-wide) for longer than --timeout; "
					   "try again when it ends"
					 : "another vmregress kept the knobs set (they are host-wide) for longer than "
					   "--timeout; try again when it ends";
			close(fd);
			return -2;
		}
		if (!said) {
			vmr_warn(exclusive ? "waiting for another vmregress that is setting knobs, or measuring under "
					     "them (they are host-wide)"
					   : "waiting for another vmregress that is setting knobs (they are host-wide), "
					     "so as not to measure under its values");
			said = true;
		}
		usleep(50 * 1000);
	}
	return fd;
}

/* "thp.8K.enabled": a per-size knob of multi-size THP; its size in *size. */
static bool knob_is_mthp(const char *name, const char **size, size_t *n)
{
	if (strncmp(name, "thp.", 4) || name[4] < '0' || name[4] > '9')
		return false;
	*size = name + 4;
	*n = strcspn(*size, ".");
	return true;
}

char *knob_names_help(char *buf, size_t len)
{
	size_t off = 0;
	bool mthp_done = false;
	const char *size;
	size_t n;
	buf[0] = '\0';
	for (const struct knob *k = knobs; k->name && off < len; k++) {
		const char *sep = k == knobs ? "" : ", ";
		if (!knob_is_mthp(k->name, &size, &n)) {
			off += (size_t)snprintf(buf + off, len - off, "%s%s", sep, k->name);
			continue;
		}
		if (mthp_done)
			continue;
		mthp_done = true;
		off += (size_t)snprintf(buf + off, len - off, "%sthp.SIZE.enabled and thp.SIZE.shmem_enabled "
					"(multi-size THP; SIZE one of", sep);
		for (const struct knob *m = k; m->name && off < len; m++)
			if (knob_is_mthp(m->name, &size, &n) && !strcmp(size + n, ".enabled"))
				off += (size_t)snprintf(buf + off, len - off, " %.*s", (int)n, size);
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, ")");
	}
	return buf;
}
