/* /proc/zoneinfo: "Node N, zone NAME" headers, then indented "key value"
 * lines of which we keep the sizes and watermarks. */
#include "probe/zoneinfo.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

enum zoneinfo_seen {
	SEEN_FREE = 1 << 0, SEEN_MIN = 1 << 1, SEEN_LOW = 1 << 2, SEEN_HIGH = 1 << 3,
	SEEN_SPANNED = 1 << 4, SEEN_PRESENT = 1 << 5,
	SEEN_REQUIRED = (1 << 6) - 1,
};

static const char *const zoneinfo_required_names[] = {
	"pages free", "min", "low", "high", "spanned", "present",
};

/* The parse in progress: the zone being filled and what it has shown. */
struct zoneinfo_state {
	struct zoneinfo *zi;
	struct zoneinfo_zone *zone;
	unsigned seen;
	unsigned header_line;
};

/* Where each "key value" line lands; `have` marks optional fields. */
struct zoneinfo_key {
	const char *name;
	size_t off;
	unsigned seen, have;
};

#define ZK(n, field, s, h) { n, offsetof(struct zoneinfo_zone, field), s, h }
static const struct zoneinfo_key zoneinfo_keys[] = {
	ZK("min", min, SEEN_MIN, 0),
	ZK("low", low, SEEN_LOW, 0),
	ZK("high", high, SEEN_HIGH, 0),
	ZK("spanned", spanned, SEEN_SPANNED, 0),
	ZK("present", present, SEEN_PRESENT, 0),
	ZK("managed", managed, 0, ZONE_HAVE_MANAGED),
	ZK("boost", high_boost, 0, ZONE_HAVE_BOOST),
	ZK("promo", promo, 0, ZONE_HAVE_PROMO),
	ZK("cma", cma, 0, ZONE_HAVE_CMA),
	ZK("start_pfn:", start_pfn, 0, ZONE_HAVE_START_PFN),
};

static int zoneinfo_finish_zone(struct zoneinfo_state *st, char *err)
{
	if (!st->zone)
		return 0;
	unsigned missing = SEEN_REQUIRED & ~st->seen;
	if (missing) {
		probe_err(err, st->header_line, "zone %s has no '%s'", st->zone->name,
			  zoneinfo_required_names[__builtin_ctz(missing)]);
		return -1;
	}
	st->zone = NULL;
	return 0;
}

static struct zoneinfo_node *zoneinfo_node_get(struct zoneinfo *zi, int node)
{
	for (size_t i = 0; i < zi->nnodes; i++)
		if (zi->nodes[i].node == node)
			return &zi->nodes[i];
	zi->nodes = xrealloc(zi->nodes, (zi->nnodes + 1) * sizeof(*zi->nodes));
	struct zoneinfo_node *n = &zi->nodes[zi->nnodes++];
	memset(n, 0, sizeof(*n));
	n->node = node;
	return n;
}

/* "Node 0, zone      DMA" */
static int zoneinfo_header(struct zoneinfo_state *st, const char *p, const char *end,
			   unsigned lineno, char *err)
{
	uint64_t node;
	char name[ZONEINFO_NAME_MAX];
	p += 5;
	if (probe_u64(&p, end, &node) < 0 || node > INT_MAX || !probe_lit(&p, end, ",")) {
		probe_err(err, lineno, "expected 'Node N, zone NAME'");
		return -1;
	}
	probe_skip_space(&p, end);
	if (!probe_lit(&p, end, "zone") || probe_word(&p, end, name, sizeof(name)) < 0) {
		probe_err(err, lineno, "expected 'Node N, zone NAME'");
		return -1;
	}
	if (zoneinfo_finish_zone(st, err) < 0)
		return -1;
	struct zoneinfo_node *n = zoneinfo_node_get(st->zi, (int)node);
	if (n->nzones == ZONEINFO_MAX_ZONES) {
		probe_err(err, lineno, "node %d has more than %d zones", n->node, ZONEINFO_MAX_ZONES);
		return -1;
	}
	st->zone = &n->zones[n->nzones++];
	memset(st->zone, 0, sizeof(*st->zone));
	strcpy(st->zone->name, name);
	st->seen = 0;
	st->header_line = lineno;
	return 0;
}

/* "protection: (0, 3019, 5579, 5579, 5579)" */
static int zoneinfo_protection(struct zoneinfo_zone *z, const char *p, const char *end,
			       unsigned lineno, char *err)
{
	probe_skip_space(&p, end);
	if (!probe_lit(&p, end, "("))
		goto bad;
	z->nprotection = 0;
	for (;;) {
		uint64_t v;
		if (probe_u64(&p, end, &v) < 0)
			goto bad;
		if (z->nprotection == ZONEINFO_MAX_ZONES) {
			probe_err(err, lineno, "protection has more than %d values", ZONEINFO_MAX_ZONES);
			return -1;
		}
		z->protection[z->nprotection++] = v;
		if (probe_lit(&p, end, ")"))
			break;
		if (!probe_lit(&p, end, ","))
			goto bad;
	}
	z->have |= ZONE_HAVE_PROTECTION;
	return 0;
bad:
	probe_err(err, lineno, "zone %s: protection is not '(N, N, ...)'", z->name);
	return -1;
}

static int zoneinfo_value(struct zoneinfo_state *st, const struct zoneinfo_key *k, uint64_t *field,
			  const char *p, const char *end, unsigned lineno, char *err)
{
	const char *q = p;
	if (probe_u64(&q, end, field) < 0) {
		probe_err(err, lineno, "zone %s: '%s' has no number (or it overflows)",
			  st->zone->name, k->name);
		return -1;
	}
	probe_skip_space(&q, end);
	if (q != end) {
		probe_err(err, lineno, "zone %s: '%s' has trailing text", st->zone->name, k->name);
		return -1;
	}
	st->seen |= k->seen;
	st->zone->have |= k->have;
	return 0;
}

/* An indented line inside a zone: keep what we know, skip the rest
 * (per-node stats, pagesets, counters). */
static int zoneinfo_line(struct zoneinfo_state *st, const char *p, const char *end,
			 unsigned lineno, char *err)
{
	char word[32];
	struct zoneinfo_zone *z = st->zone;
	if (probe_word(&p, end, word, sizeof(word)) < 0)
		return 0;
	if (!strcmp(word, "pages")) {
		char w2[16];
		const char *q = p;
		if (probe_word(&q, end, w2, sizeof(w2)) == 0 && !strcmp(w2, "free")) {
			static const struct zoneinfo_key k = ZK("pages free", free, SEEN_FREE, 0);
			return zoneinfo_value(st, &k, &z->free, q, end, lineno, err);
		}
		return 0;
	}
	if (!strcmp(word, "protection:"))
		return zoneinfo_protection(z, p, end, lineno, err);
	for (size_t i = 0; i < ARRAY_SIZE(zoneinfo_keys); i++) {
		const struct zoneinfo_key *k = &zoneinfo_keys[i];
		if (!strcmp(word, k->name))
			return zoneinfo_value(st, k, (uint64_t *)((char *)z + k->off), p, end, lineno, err);
	}
	return 0;
}

int zoneinfo_parse(struct zoneinfo *zi, const char *buf, size_t len, char *err)
{
	struct zoneinfo_state st = { .zi = zi };
	struct probe_lines l = { 0 };
	const char *line;
	size_t ll;
	memset(zi, 0, sizeof(*zi));
	if (len == 0) {
		probe_err(err, 0, "empty");
		return -1;
	}
	probe_lines_init(&l, buf, len);
	while (probe_lines_next(&l, &line, &ll)) {
		const char *end = line + ll;
		if (l.p == l.end && buf[len - 1] != '\n') {
			probe_err(err, l.lineno, "truncated (no newline at the end)");
			goto fail;
		}
		if (ll >= 5 && !memcmp(line, "Node ", 5)) {
			if (zoneinfo_header(&st, line, end, l.lineno, err) < 0)
				goto fail;
		} else if (!st.zone) {
			probe_err(err, l.lineno, "expected 'Node N, zone NAME' before zone data");
			goto fail;
		} else if (zoneinfo_line(&st, line, end, l.lineno, err) < 0) {
			goto fail;
		}
	}
	if (zoneinfo_finish_zone(&st, err) < 0)
		goto fail;
	return 0;
fail:
	zoneinfo_free(zi);
	return -1;
}

int zoneinfo_read(struct zoneinfo *zi, const char *path, char *err)
{
	char *buf;
	size_t len;
	memset(zi, 0, sizeof(*zi));
	if (probe_read_file(path ? path : "/proc/zoneinfo", &buf, &len, err) < 0)
		return -1;
	int r = zoneinfo_parse(zi, buf, len, err);
	free(buf);
	return r;
}

void zoneinfo_free(struct zoneinfo *zi)
{
	free(zi->nodes);
	memset(zi, 0, sizeof(*zi));
}

const struct zoneinfo_zone *zoneinfo_find(const struct zoneinfo *zi, int node, const char *name)
{
	for (size_t i = 0; i < zi->nnodes; i++) {
		if (zi->nodes[i].node != node)
			continue;
		for (size_t j = 0; j < zi->nodes[i].nzones; j++)
			if (!strcmp(zi->nodes[i].zones[j].name, name))
				return &zi->nodes[i].zones[j];
	}
	return NULL;
}
