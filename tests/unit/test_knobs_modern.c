/* The allow-list's knobs of today's VM: each multi-size THP size's two
 * policies, the THP shrinker, zswap's shrinker and accept threshold, MGLRU
 * and NUMA demotion map to their own files and nothing else. */
#include "core/options.h"
#include "sandbox/knobs.h"
#include "sandbox/sandbox.h"
#include "t.h"

static void maps(const char *arg, const char *path)
{
	const char *v, *why = "";
	const struct knob *k = knob_parse_set(arg, &v, &why);
	CHECK(k && !strcmp(k->path, path), "%s maps to %s (%s)", arg, path, k ? k->path : why);
}

static void refused(const char *arg)
{
	const char *v, *why = NULL;
	const struct knob *k = knob_parse_set(arg, &v, &why);  /* before CHECK's arguments read why */
	CHECK(!k, "'%s' refused: %s", arg, why ? why : "accepted");
}

int main(void)
{
	maps("thp.64K.enabled=always", "/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled");
	maps("thp.64K.shmem_enabled=within_size", "/sys/kernel/mm/transparent_hugepage/hugepages-64kB/shmem_enabled");
	maps("thp.1M.enabled=never", "/sys/kernel/mm/transparent_hugepage/hugepages-1024kB/enabled");
	maps("thp.2M.enabled=inherit", "/sys/kernel/mm/transparent_hugepage/hugepages-2048kB/enabled");
	maps("thp.8K.shmem_enabled=always", "/sys/kernel/mm/transparent_hugepage/hugepages-8kB/shmem_enabled");
	maps("thp.shrink_underused=0", "/sys/kernel/mm/transparent_hugepage/shrink_underused");
	maps("zswap.shrinker_enabled=Y", "/sys/module/zswap/parameters/shrinker_enabled");
	maps("zswap.accept_threshold_percent=80", "/sys/module/zswap/parameters/accept_threshold_percent");
	maps("lru_gen.enabled=0x0007", "/sys/kernel/mm/lru_gen/enabled");
	maps("lru_gen.min_ttl_ms=1000", "/sys/kernel/mm/lru_gen/min_ttl_ms");
	maps("numa.demotion_enabled=true", "/sys/kernel/mm/numa/demotion_enabled");
	maps("kernel.numa_balancing=2", "/proc/sys/kernel/numa_balancing");

	refused("thp.64k.enabled=always");              /* the size is spelt as the label */
	refused("thp.64kB.enabled=always");
	refused("thp.3K.enabled=always");
	refused("thp.4M.enabled=always");
	refused("thp.64K/../enabled=always");
	refused("thp.../hugepages-64kB/enabled=always");
	refused("thp.64K.stats=1");
	refused("lru_gen.enabled=0x7 0x7");
	refused("thp.64K.enabled=al\tways");

	/* --set's help names every size the allow-list has, in its SIZE list */
	const struct opt *set = opt_find(sandbox_opts, "set");
	int sizes = 0, listed = 0;
	for (const struct knob *p = knobs; p->name; p++) {
		char label[16];
		if (sscanf(p->name, "thp.%15[0-9KMG].enabled", label) != 1 || strcmp(p->name + 4 + strlen(label), ".enabled"))
			continue;
		char word[20];
		snprintf(word, sizeof(word), " %s ", label);
		sizes++;
		listed += set && (strstr(set->help, word) || strstr(set->help, strcat(label, ")")) ||
				  strstr(set->help, word + 1));
	}
	CHECK_EQ_U(sizes, 9, "nine multi-size THP sizes, 8K to 2M");
	CHECK_EQ_U(listed, sizes, "--set's help lists each size");
	CHECK(set && strstr(set->help, "thp.SIZE.enabled") && strstr(set->help, "thp.SIZE.shmem_enabled"),
	      "--set's help names the per-size knobs");
	T_DONE();
}
