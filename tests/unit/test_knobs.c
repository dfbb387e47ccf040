/* --set reaches only allow-listed files: names with '/' or '..' never turn
 * into paths, and values cannot smuggle spaces or newlines into a journal. */
#include "core/options.h"
#include "sandbox/knobs.h"
#include "sandbox/sandbox.h"
#include "t.h"

static void refused(const char *arg)
{
	const char *v = NULL, *why = NULL;
	const struct knob *k = knob_parse_set(arg, &v, &why);  /* before why is read: argument order is unspecified */
	CHECK(!k, "'%s' refused: %s", arg, why ? why : "accepted");
}

int main(void)
{
	const char *v, *why;
	const struct knob *k = knob_parse_set("vm.swappiness=100", &v, &why);
	CHECK(k && !strcmp(k->path, "/proc/sys/vm/swappiness") && !strcmp(v, "100"), "vm.swappiness maps to /proc/sys/vm");
	k = knob_parse_set("thp.enabled=never", &v, &why);
	CHECK(k && !strcmp(k->path, "/sys/kernel/mm/transparent_hugepage/enabled"), "thp.enabled maps to sysfs");
	k = knob_parse_set("zswap.compressor=lz4", &v, &why);
	CHECK(k && !strcmp(k->path, "/sys/module/zswap/parameters/compressor"), "zswap.compressor maps to the module");
	CHECK(knob_find("swap.vma_ra_enabled") && knob_find("ksm.run") && knob_find("vm.page-cluster"), "allow-list");
	int n = 0;
	for (const struct knob *p = knobs; p->name; p++)
		n++;
	CHECK_EQ_U(n, 15 + 18 + 7 + 8, "48 knobs on the allow-list (18 of them multi-size THP, 8 more THP and khugepaged)");

	/* --set's help names the whole allow-list, and nothing else */
	const struct opt *set = opt_find(sandbox_opts, "set");
	int named = 0;
	for (const struct knob *p = knobs; p->name; p++)
		named += set && strstr(set->help, p->name) != NULL;
	CHECK_EQ_U(named, 15 + 7 + 8, "--set help names every allow-listed knob (but thp.SIZE.*)");

	refused("vm/../kernel/core_pattern=|/bin/sh");
	refused("vm.swappiness/../../kernel/core_pattern=x");
	refused("..=1");
	refused("kernel.core_pattern=x");
	refused("vm.drop_caches=3");
	refused("vm.swappiness");
	refused("=5");
	refused("vm.swappiness=");
	refused("vm.swappiness=1 2");
	refused("vm.swappiness=1\t2");

	char a[] = "always [madvise] never\n", b[] = "60\n", c[] = "[lzo-rle] lzo lz4";
	knob_normalize(a);
	knob_normalize(b);
	knob_normalize(c);
	CHECK_STR(a, "madvise", "a choice list normalizes to the chosen one");
	CHECK_STR(b, "60", "a number loses its newline");
	CHECK_STR(c, "lzo-rle", "zram's list normalizes too");
	T_DONE();
}
