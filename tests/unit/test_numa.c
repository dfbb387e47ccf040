/* NUMA node lists and memory tiers: the list format of sysfs, and a tree
 * laid out as a two-tier machine (a matrix guest with --numa-tiered) and as
 * kernels without tiers.  Each case names what it guards against. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/numa.h"
#include "t.h"

static void parses(const char *s, uint64_t want)
{
	uint64_t m = 0;
	char err[PROBE_ERR_MAX] = "", shown[32];
	size_t n = strcspn(s, "\n");
	snprintf(shown, sizeof(shown), "%.*s%s", (int)n, s, s[n] ? "\\n" : "");
	int r = numa_parse_nodelist(s, strlen(s), &m, err);
	CHECK(r == 0 && m == want, "'%s' is mask %#llx (%s)", shown, (unsigned long long)want, err);
}

static void refused(const char *s, const char *why)
{
	uint64_t m = 0;
	char err[PROBE_ERR_MAX] = "";
	CHECK(numa_parse_nodelist(s, strlen(s), &m, err) < 0 && strstr(err, why), "'%s' refused: %s", s, err);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[800];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void tree(void)
{
	char root[] = "/tmp/vmr-numa-XXXXXX", nodes[600], tiers[600], t[700];
	if (!mkdtemp(root)) {
		SKIP("cannot make a temporary directory");
		return;
	}
	snprintf(nodes, sizeof(nodes), "%s/node", root);
	snprintf(tiers, sizeof(tiers), "%s/memory_tiering", root);
	mkdir(nodes, 0755);
	put(nodes, "online", "0-1\n");
	put(nodes, "has_cpu", "0\n");
	put(nodes, "has_memory", "0-1\n");
	struct numa_topology top;
	char err[PROBE_ERR_MAX] = "";
	/* a kernel before 6.1: no tier directory is no tiers, not an error */
	CHECK(numa_read(&top, nodes, tiers, err) == 0 && !top.have_tiers && top.online == 3 && top.has_cpu == 1,
	      "no memory_tiering directory: two nodes, no tiers (%s)", err);
	mkdir(tiers, 0755);
	put(tiers, "power", "");
	/* tiers in an order readdir will not keep; one without nodes, which is no demotion target */
	static const struct { unsigned id; const char *list; } tt[] = {
		{ 450, "1\n" }, { 4, "0\n" }, { 9, "\n" }, { 300, "3\n" }, { 100, "5\n" }, { 200, "2\n" }, { 50, "4\n" },
	};
	for (size_t i = 0; i < sizeof(tt) / sizeof(tt[0]); i++) {
		snprintf(t, sizeof(t), "%s/memory_tier%u", tiers, tt[i].id);
		mkdir(t, 0755);
		put(t, "nodelist", tt[i].list);
	}
	int r = numa_read(&top, nodes, tiers, err);
	bool sorted = r == 0 && top.ntiers == 6;
	for (size_t i = 1; sorted && i < top.ntiers; i++)
		sorted = top.tiers[i - 1].id < top.tiers[i].id;
	CHECK(sorted && top.have_tiers && top.tiers[0].id == 4 && top.tiers[0].nodes == 1 && top.tiers[5].id == 450 &&
	      top.tiers[5].nodes == 2, "six tiers with nodes, fastest (node 0) first, node 1 last (%s)", err);
	snprintf(t, sizeof(t), "%s/memory_tier450", tiers);
	put(t, "nodelist", "1-\n");
	CHECK(numa_read(&top, nodes, tiers, err) < 0 && strstr(err, "memory_tier450/nodelist"),
	      "a damaged tier's nodelist is an error naming the file: %s", err);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0, "the tree is removed");
}

int main(void)
{
	parses("0\n", 0x1);
	parses("0-1\n", 0x3);
	parses("0,2-3,5", 0x2d);
	parses("\n", 0);   /* has_cpu of a machine whose nodes have no CPUs reads empty */
	parses("63", 1ull << 63);
	refused("64", "node 64 is beyond node 63");     /* a mask of 64 bits */
	refused("3-1", "reversed");
	refused("1-", "without its end");
	refused("0,", "ending in ','");
	refused("0;1", "unexpected ';'");
	refused("x", "expected a node number");
	CHECK(numa_count(0x2d) == 4 && numa_first(0x2c) == 2 && numa_first(0) == -1, "count and first");
	tree();
	struct numa_topology t;
	char err[PROBE_ERR_MAX] = "";
	CHECK(numa_read(&t, NULL, NULL, err) == 0 && t.online & 1, "this machine's nodes read (%s)", err);
	T_DONE();
}
