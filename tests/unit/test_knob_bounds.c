/* The bounds of --set values, against a host described by numbers: each
 * case names what it guards against. */
#include <stdarg.h>
#include <string.h>

#include "sandbox/knobs.h"
#include "t.h"

/* 16 GB of memory, 2 GB of swap, 6 GB committed */
static const struct knob_host host = { .mem_total_kb = 16ULL << 20, .swap_total_kb = 2ULL << 20,
				       .committed_kb = 6ULL << 20 };

static int bounds(const struct knob_host *h, char *why, size_t len, size_t n, ...)
{
	char *set[8] = { 0 };
	va_list ap;
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		set[i] = va_arg(ap, char *);
	va_end(ap);
	why[0] = '\0';
	return knob_check_bounds(set, n, h, why, len);
}

static void refused(size_t n, const char *a, const char *b, const char *want)
{
	char why[512] = "";
	int r = n == 1 ? bounds(&host, why, sizeof(why), 1, a) : bounds(&host, why, sizeof(why), 2, a, b);
	CHECK(r == -1 && strstr(why, want), "%s%s%s refused: %s", a, b ? " " : "", b ? b : "", why);
}

static void accepted(size_t n, const char *a, const char *b)
{
	char why[512] = "";
	int r = n == 1 ? bounds(&host, why, sizeof(why), 1, a) : bounds(&host, why, sizeof(why), 2, a, b);
	CHECK(r == 0, "%s%s%s accepted: %s", a, b ? " " : "", b ? b : "", why);
}

/* The one-way check over one --set argument, on a host */
static void one_way(const struct knob_host *h, const char *a, const char *want)
{
	char why[512] = "";
	char *set[1] = { (char *)a };
	int r = knob_check_one_way(set, 1, h, why, sizeof(why));
	CHECK(r == -1 && strstr(why, want), "%s is a one-way change %s: %s", a,
	      h->zswap_seen ? "where zswap was on" : "on a boot zswap was never on", why);
}

static void not_one_way(const struct knob_host *h, const char *a)
{
	char why[512] = "";
	char *set[1] = { (char *)a };
	int r = knob_check_one_way(set, 1, h, why, sizeof(why));
	CHECK(r == 0, "%s is no one-way change %s: %s", a,
	      h->zswap_seen ? "where zswap was on" : "on a boot zswap was never on", why);
}

int main(void)
{
	/* min_free_kbytes near total memory starves the host; 5% is 838860 kB */
	refused(1, "vm.min_free_kbytes=15000000", NULL, "vm.min_free_kbytes=15000000 is above its bound of 838860");
	refused(1, "vm.min_free_kbytes=838861", NULL, "above its bound of 838860");
	accepted(1, "vm.min_free_kbytes=838860", NULL);
	accepted(1, "vm.min_free_kbytes=67584", NULL);
	/* too low fails atomic allocations */
	refused(1, "vm.min_free_kbytes=0", NULL, "below its bound of 1024");
	/* watermark gaps of 30% keep kswapd reclaiming for ever */
	refused(1, "vm.watermark_scale_factor=3000", NULL, "vm.watermark_scale_factor=3000 is above its bound of 1000");
	refused(1, "vm.watermark_scale_factor=0", NULL, "below its bound of 1");
	accepted(1, "vm.watermark_scale_factor=10", NULL);
	/* 0 never reclaims dentries and inodes */
	refused(1, "vm.vfs_cache_pressure=0", NULL, "below its bound of 1");
	accepted(1, "vm.vfs_cache_pressure=100", NULL);
	refused(1, "zswap.max_pool_percent=90", NULL, "above its bound of 50");
	accepted(1, "zswap.max_pool_percent=20", NULL);
	/* a value that is not a number is the kernel's to refuse */
	accepted(1, "vm.min_free_kbytes=banana", NULL);
	refused(1, "vm.min_free_kbytes=-5", NULL, "below its bound of 1024");
	/* knobs without bounds pass */
	accepted(1, "vm.page-cluster=0", NULL);
	accepted(1, "thp.enabled=never", NULL);

	/* overcommit 2: limit = 2 GB + 16 GB * ratio%; it must be >= 6 GB + 1.6 GB */
	refused(2, "vm.overcommit_memory=2", "vm.overcommit_ratio=10", "vm.overcommit_ratio=10: the commit limit would be");
	refused(2, "vm.overcommit_ratio=10", "vm.overcommit_memory=2", "below its bound of");
	accepted(2, "vm.overcommit_memory=2", "vm.overcommit_ratio=50");  /* 10 GB */
	accepted(2, "vm.overcommit_memory=1", "vm.overcommit_ratio=0");   /* the ratio is unused */
	accepted(2, "vm.overcommit_memory=0", "vm.overcommit_ratio=0");
	/* vm.overcommit_kbytes, when set, replaces the ratio */
	struct knob_host kb = host;
	kb.overcommit_kbytes = 1ULL << 20;
	char why[512] = "";
	CHECK(bounds(&kb, why, sizeof(why), 2, "vm.overcommit_memory=2", "vm.overcommit_ratio=90") == -1,
	      "overcommit_kbytes of 1 GB: a 3 GB limit is refused whatever the ratio: %s", why);
	/* zswap.enabled=Y is no danger to the host, so never a bound (which
	 * stops a run, exit 2), on either kind of boot */
	struct knob_host seen = host;
	seen.zswap_seen = true;
	accepted(1, "zswap.enabled=Y", NULL);
	why[0] = '\0';
	CHECK(bounds(&seen, why, sizeof(why), 1, "zswap.enabled=Y") == 0, "zswap.enabled=Y is within bounds: %s", why);
	/* but on a boot that never had zswap on it flips a switch the kernel
	 * never flips back (no whole large-folio swap-in): a one-way change,
	 * which a case may not make unless --force allows it (a skip) */
	one_way(&host, "zswap.enabled=Y", "first time this boot");
	one_way(&host, "zswap.enabled=1", "until the next boot");
	one_way(&host, "zswap.enabled=y", "first time this boot");
	not_one_way(&host, "zswap.enabled=N");
	not_one_way(&host, "zswap.max_pool_percent=20");
	not_one_way(&host, "vm.swappiness=100");
	/* where zswap was on already this boot, turning it on changes nothing
	 * that lasts */
	not_one_way(&seen, "zswap.enabled=Y");
	not_one_way(&seen, "zswap.enabled=1");
	not_one_way(&seen, "zswap.enabled=N");
	T_DONE();
}
