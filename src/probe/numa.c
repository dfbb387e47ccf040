/* NUMA node lists and memory tiers from sysfs. */
#include "probe/numa.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int numa_parse_nodelist(const char *buf, size_t len, uint64_t *mask, char *err)
{
	const char *p = buf, *end = buf + len;
	*mask = 0;
	if (end > p && end[-1] == '\n')
		end--;
	while (p < end) {
		uint64_t a, b;
		if (probe_u64(&p, end, &a) < 0) {
			probe_err(err, 1, "expected a node number at '%.*s'", (int)(end - p > 16 ? 16 : end - p), p);
			return -1;
		}
		b = a;
		if (probe_lit(&p, end, "-") && probe_u64(&p, end, &b) < 0) {
			probe_err(err, 1, "a range without its end");
			return -1;
		}
		if (b >= NUMA_MAX_NODES) {
			probe_err(err, 1, "node %llu is beyond node %d", (unsigned long long)b, NUMA_MAX_NODES - 1);
			return -1;
		}
		if (b < a) {
			probe_err(err, 1, "node range %llu-%llu is reversed", (unsigned long long)a, (unsigned long long)b);
			return -1;
		}
		for (uint64_t n = a; n <= b; n++)
			*mask |= 1ull << n;
		if (p < end && !probe_lit(&p, end, ",")) {
			probe_err(err, 1, "unexpected '%c' in a node list", *p);
			return -1;
		}
		if (p == end && end > buf && end[-1] == ',') {
			probe_err(err, 1, "a node list ending in ','");
			return -1;
		}
	}
	return 0;
}

static int numa_read_list(const char *dir, const char *name, uint64_t *mask, char *err)
{
	char *path = xasprintf("%s/%s", dir, name), *buf, e[PROBE_ERR_MAX] = "";
	size_t len;
	int r = probe_read_file(path, &buf, &len, e);
	if (r == 0) {
		r = numa_parse_nodelist(buf, len, mask, e);
		free(buf);
	}
	if (r < 0) {
		int n = snprintf(err, PROBE_ERR_MAX, "%s: ", path);
		if (n >= 0 && n < PROBE_ERR_MAX)
			snprintf(err + n, (size_t)(PROBE_ERR_MAX - n), "%s", e);
	}
	free(path);
	return r;
}

static int numa_tier_cmp(const void *a, const void *b)
{
	const struct numa_tier *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int numa_read_tiers(struct numa_topology *t, const char *root, char *err)
{
	DIR *d = opendir(root);
	struct dirent *de;
	int r = 0;
	if (!d)
		return 0;   /* no memory tiering in this kernel */
	t->have_tiers = true;
	while (r == 0 && (de = readdir(d))) {
		unsigned id;
		char tail;
		if (sscanf(de->d_name, "memory_tier%u%c", &id, &tail) != 1)
			continue;
		if (t->ntiers == NUMA_MAX_TIERS) {
			snprintf(err, PROBE_ERR_MAX, "%s: more than %d memory tiers", root, NUMA_MAX_TIERS);
			r = -1;
			break;
		}
		char *dir = xasprintf("%s/%s", root, de->d_name);
		struct numa_tier *tier = &t->tiers[t->ntiers];
		tier->id = id;
		r = numa_read_list(dir, "nodelist", &tier->nodes, err);
		free(dir);
		if (r == 0 && tier->nodes)   /* a tier without nodes demotes nothing */
			t->ntiers++;
	}
	closedir(d);
	qsort(t->tiers, t->ntiers, sizeof(t->tiers[0]), numa_tier_cmp);
	return r;
}

int numa_read(struct numa_topology *t, const char *node_root, const char *tier_root, char *err)
{
	memset(t, 0, sizeof(*t));
	node_root = node_root ? node_root : NUMA_NODE_ROOT;
	if (numa_read_list(node_root, "online", &t->online, err) < 0)
		return -1;
	if (numa_read_list(node_root, "has_cpu", &t->has_cpu, err) < 0 ||
	    numa_read_list(node_root, "has_memory", &t->has_memory, err) < 0)
		return -1;
	return numa_read_tiers(t, tier_root ? tier_root : NUMA_TIER_ROOT, err);
}

unsigned numa_count(uint64_t mask)
{
	return (unsigned)__builtin_popcountll(mask);
}

int numa_first(uint64_t mask)
{
	return mask ? __builtin_ctzll(mask) : -1;
}
