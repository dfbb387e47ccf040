/* refs record --method damon: see record_damon.h. */
#include "refs/record_damon.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/units.h"
#include "core/util.h"

struct rd_vec {
	struct refs_damon_region *v;
	size_t n, cap;
};

static void rd_push(struct rd_vec *a, struct refs_damon_region r)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 1024;
		a->v = xrealloc(a->v, a->cap * sizeof(*a->v));
	}
	a->v[a->n++] = r;
}

/* ---- building the trace ---- */

struct rd_span {
	uint64_t first, last, rank;  /* rank: index of first in the trace's region */
};

static int rd_span_cmp(const void *a, const void *b)
{
	const struct rd_span *x = a, *y = b;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* The union of the accessed regions, in address order, each with its rank. */
static size_t rd_union(const struct refs_damon_region *r, size_t n, struct rd_span **out, uint64_t *pages)
{
	struct rd_span *s = xmalloc((n ? n : 1) * sizeof(*s));
	size_t k = 0, m = 0;
	for (size_t i = 0; i < n; i++)
		if (r[i].nr_accesses)
			s[k++] = (struct rd_span){ r[i].first, r[i].last, 0 };
	qsort(s, k, sizeof(*s), rd_span_cmp);
	for (size_t i = 0; i < k; i++) {
		if (m && s[i].first <= s[m - 1].last) {
			if (s[i].last > s[m - 1].last)
				s[m - 1].last = s[i].last;
		} else {
			s[m++] = s[i];
		}
	}
	*pages = 0;
	for (size_t i = 0; i < m; i++) {
		s[i].rank = *pages;
		*pages += s[i].last - s[i].first;
	}
	*out = s;
	return m;
}

static uint64_t rd_rank(const struct rd_span *s, size_t m, uint64_t page)
{
	size_t lo = 0, hi = m;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid].first <= page)
			lo = mid;
		else
			hi = mid;
	}
	return s[lo].rank + (page - s[lo].first);
}

static uint64_t rd_references(const struct refs_damon_region *r, size_t n)
{
	uint64_t t = 0;
	for (size_t i = 0; i < n; i++)
		t += (r[i].last - r[i].first) * r[i].nr_accesses;
	return t;
}

/* One interval [i, j): k = 1..max, the regions counted at least k times. */
static uint64_t rd_emit(const struct refs_damon_region *r, size_t i, size_t j, const struct rd_span *s, size_t m,
			uint32_t *body, uint64_t o)
{
	uint32_t max = 0;
	for (size_t x = i; x < j; x++)
		max = r[x].nr_accesses > max ? r[x].nr_accesses : max;
	for (uint32_t k = 1; k <= max; k++)
		for (size_t x = i; x < j; x++) {
			if (r[x].nr_accesses < k)
				continue;
			uint64_t base = rd_rank(s, m, r[x].first);
			for (uint64_t p = 0; p < r[x].last - r[x].first; p++)
				body[o++] = htole32((uint32_t)(base + p));
		}
	return o;
}

int refs_damon_build(const struct refs_damon_region *r, size_t n, const struct refs_header *h,
		     struct refs_out *out)
{
	struct rd_span *s;
	uint64_t pages, refs = rd_references(r, n);
	size_t m = rd_union(r, n, &s, &pages);
	int rc = -1;
	if (!refs)
		goto free_spans;
	rc = -2;
	if (pages > REFS_MAX_PAGES || refs > REFS_MAX_REFERENCES)
		goto free_spans;
	struct refs_header hh = *h;
	hh.pages = pages;
	hh.references = refs;
	if (refs_out_init(out, &hh) < 0)
		goto free_spans;
	uint64_t o = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && r[j].interval == r[i].interval; j++)
			;
		o = rd_emit(r, i, j, s, m, out->body, o);
	}
	rc = 0;
free_spans:
	free(s);
	return rc;
}

/* ---- recording ---- */

struct rd_vma {
	uint64_t start, end;
};

/* The process's mappings, in address order; 0, or -1 when it is gone. */
static int rd_maps(pid_t pid, struct rd_vma **v, size_t *n)
{
	char path[64], *maps;
	size_t cap = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	*v = NULL;
	*n = 0;
	if (vmr_read_file(path, &maps, NULL) < 0)
		return -1;
	for (char *line = maps, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		struct rd_vma m = { 0, 0 };
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (!refs_maps_vma(line, &m.start, &m.end))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*v = xrealloc(*v, cap * sizeof(**v));
		}
		(*v)[(*n)++] = m;
	}
	free(maps);
	return 0;
}

/* Append one interval's regions, clipped to the mappings, in pages. */
static void rd_clip(struct rd_vec *all, const struct refs_damon_sample *dr, size_t nd, const struct rd_vma *vm,
		    size_t nv, uint32_t interval)
{
	uint64_t ps = vmr_page_size();
	size_t j = 0;
	for (size_t i = 0; i < nd; i++) {
		while (j < nv && vm[j].end <= dr[i].start)
			j++;
		for (size_t k = j; k < nv && vm[k].start < dr[i].end; k++) {
			uint64_t a = dr[i].start > vm[k].start ? dr[i].start : vm[k].start;
			uint64_t b = dr[i].end < vm[k].end ? dr[i].end : vm[k].end;
			if (b > a)
				rd_push(all, (struct refs_damon_region){ a / ps, (b + ps - 1) / ps, dr[i].nr_accesses,
									 interval });
		}
	}
}

struct rd_run {
	const struct refs_record_cfg *cfg;
	const struct refs_damon_source *src;
	struct rd_vec all;
	uint64_t intervals, refs, regions;
	uint32_t max_accesses;   /* the most any region was found accessed, before clipping */
	bool truncated;
};

/* One aggregation interval.  0, 1 when the recording ends, -2 on error. */
static int rd_sample(struct rd_run *r)
{
	struct refs_damon_sample *dr = NULL;
	struct rd_vma *vm;
	size_t nd = 0, nv;
	int e = r->src->next(r->src->ctx, &dr, &nd);
	if (e != 0)
		return e;
	if (rd_maps(r->cfg->pid, &vm, &nv) < 0) {
		free(dr);
		return 1;
	}
	size_t before = r->all.n;
	for (size_t i = 0; i < nd; i++)
		r->max_accesses = dr[i].nr_accesses > r->max_accesses ? dr[i].nr_accesses : r->max_accesses;
	rd_clip(&r->all, dr, nd, vm, nv, (uint32_t)r->intervals);
	r->intervals++;
	r->regions += nd;
	r->refs += rd_references(r->all.v + before, r->all.n - before);
	free(vm);
	free(dr);
	if (r->refs > REFS_DAMON_MAX_REFERENCES) {
		r->all.n = before;  /* the interval that went past the limit is dropped */
		r->intervals--;
		r->truncated = true;
		return 1;
	}
	return 0;
}

static int rd_loop(struct rd_run *r)
{
	uint64_t t0 = vmr_now_ns();
	int e = 0;
	while (vmr_now_ns() - t0 < r->cfg->duration_ns && (e = rd_sample(r)) == 0)
		;
	return e < 0 ? e : 0;
}

static void rd_comm(pid_t pid, char *comm, size_t len)
{
	char path[64], *line = NULL;
	snprintf(comm, len, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (vmr_read_line(path, &line) < 0)
		return;
	for (char *c = line; *c; c++)
		if (*c < 0x21 || *c > 0x7e)
			*c = '_';
	snprintf(comm, len, "%s", line);
	free(line);
}

int refs_record_damon(const struct refs_record_cfg *cfg, const struct refs_damon_source *src,
		      struct refs_out *out)
{
	struct rd_run r = { .cfg = cfg, .src = src };
	char comm[64], iv[32], du[32];
	int pid = (int)cfg->pid;
	rd_comm(cfg->pid, comm, sizeof(comm));
	int rc = rd_loop(&r);
	if (rc < 0)
		goto free_regions;
	struct refs_header h = { .page_size = (uint32_t)vmr_page_size(), .flags = REFS_FLAG_SAMPLED };
	snprintf(h.desc, sizeof(h.desc),
		 "recorded pid=%d comm=%s method=damon interval=%s duration=%s samples=%" PRIu64
		 " regions=%" PRIu64 "%s", pid, comm, units_format_time(iv, sizeof(iv), cfg->interval_ns),
		 units_format_time(du, sizeof(du), cfg->duration_ns), r.intervals, r.regions,
		 r.truncated ? " truncated" : "");
	rc = refs_damon_build(r.all.v, r.all.n, &h, out);
	if (rc == -1)
		vmr_err("refs record: --pid %d: DAMON found no page accessed in %" PRIu64 " intervals (%" PRIu64
			" regions, at most %" PRIu32 " accesses in one)", pid, r.intervals, r.regions, r.max_accesses);
	else if (rc == -2)
		vmr_err("refs record: --pid %d: the recording is too large for a trace", pid);
free_regions:
	free(r.all.v);
	return rc;
}
