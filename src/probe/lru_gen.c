/* The multi-generational LRU's sysfs directory. */
#include "probe/lru_gen.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int lru_gen_parse_enabled(const char *buf, size_t len, uint64_t *mask, char *err)
{
	const char *p = buf, *end = buf + len;
	if (end > p && end[-1] == '\n')
		end--;
	int r = probe_lit(&p, end, "0x") ? probe_hex(&p, end, mask) : probe_u64(&p, end, mask);
	if (r < 0 || p != end) {
		probe_err(err, 1, "expected a mask like 0x0007");
		return -1;
	}
	return 0;
}

static int lru_gen_read_file(const char *root, const char *name, char **buf, size_t *len, char *err)
{
	char *path = xasprintf("%s/%s", root, name);
	int r = probe_read_file(path, buf, len, err);
	int e = errno;
	free(path);
	errno = e;
	return r;
}

int lru_gen_read(struct lru_gen *g, const char *root, char *err)
{
	char *buf, e2[PROBE_ERR_MAX] = "";
	size_t len;
	memset(g, 0, sizeof(*g));
	root = root ? root : LRU_GEN_ROOT;
	if (lru_gen_read_file(root, "enabled", &buf, &len, err) < 0)
		return -1;
	int r = lru_gen_parse_enabled(buf, len, &g->enabled, err);
	free(buf);
	if (r < 0) {
		errno = EINVAL;
		return -1;
	}
	if (lru_gen_read_file(root, "min_ttl_ms", &buf, &len, e2) == 0) {
		const char *p = buf, *end = buf + len;
		if (end > p && end[-1] == '\n')
			end--;
		g->have_min_ttl = probe_u64(&p, end, &g->min_ttl_ms) == 0 && p == end;
		free(buf);
	}
	return 0;
}

json_t *lru_gen_json(const struct lru_gen *g)
{
	char mask[24];
	snprintf(mask, sizeof(mask), "0x%04llx", (unsigned long long)g->enabled);
	return json_pack("{s:s, s:b, s:b, s:b, s:o}", "enabled", mask,
			 "core", (g->enabled & LRU_GEN_CORE) != 0, "mm_walk", (g->enabled & LRU_GEN_MM_WALK) != 0,
			 "nonleaf_young", (g->enabled & LRU_GEN_NONLEAF_YOUNG) != 0,
			 "min_ttl_ms", g->have_min_ttl ? json_integer((json_int_t)g->min_ttl_ms) : json_null());
}
