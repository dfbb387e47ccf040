#include "sandbox/knobs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/suggest.h"
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
	{ "zswap.shrinker_enabled", "/sys/module/zswap/parameters/shrinker_enabled",
	  "write cold zswap pages back to swap" },
	{ "zswap.accept_threshold_percent", "/sys/module/zswap/parameters/accept_threshold_percent",
	  "pool use below which a full zswap accepts again" },
	{ "lru_gen.enabled", "/sys/kernel/mm/lru_gen/enabled", "multi-generational LRU feature mask" },
	{ "lru_gen.min_ttl_ms", "/sys/kernel/mm/lru_gen/min_ttl_ms", "MGLRU thrashing guard" },
	{ "numa.demotion_enabled", "/sys/kernel/mm/numa/demotion_enabled", "demote cold pages to slower nodes" },
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

int knob_read(const struct knob *k, char *buf, size_t len)
{
	int fd = open(k->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, len - 1);
	int e = n < 0 ? errno : 0;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	knob_normalize(buf);
	return 0;
}

int knob_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = strlen(value);
	ssize_t w = write(fd, value, len);
	int e = w < 0 ? errno : (size_t)w != len ? EIO : 0;
	close(fd);
	return -e;
}
