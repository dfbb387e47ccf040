/* /proc/vmallocinfo: "START-END SIZE CALLER [pages=N] [phys=X] [flags...]" */
#include "probe/vmalloc.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static struct vmalloc_caller *vmalloc_caller_get(struct vmallocinfo *vi, const char *name, size_t *cap)
{
	/* Callers are few (hundreds); a linear search is fine for a view. */
	for (size_t i = 0; i < vi->ncallers; i++)
		if (!strcmp(vi->callers[i].name, name))
			return &vi->callers[i];
	if (vi->ncallers == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		vi->callers = xrealloc(vi->callers, *cap * sizeof(*vi->callers));
	}
	struct vmalloc_caller *c = &vi->callers[vi->ncallers++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	return c;
}

static int vmalloc_caller_cmp(const void *a, const void *b)
{
	const struct vmalloc_caller *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int vmalloc_line(struct vmallocinfo *vi, const char *p, const char *end, size_t *cap,
			unsigned lineno, char *err)
{
	uint64_t start, stop, size, pages;
	char word[VMALLOC_CALLER_MAX], caller[VMALLOC_CALLER_MAX] = "(unknown)";
	if (!probe_lit(&p, end, "0x") || probe_hex(&p, end, &start) < 0 || !probe_lit(&p, end, "-") ||
	    !probe_lit(&p, end, "0x") || probe_hex(&p, end, &stop) < 0) {
		probe_err(err, lineno, "expected an address range '0xSTART-0xEND'");
		return -1;
	}
	if (probe_u64(&p, end, &size) < 0 || (p < end && *p != ' ' && *p != '\t')) {
		probe_err(err, lineno, "expected a size in bytes after the range");
		return -1;
	}
	const char *q = p;
	probe_skip_space(&q, end);
	if (probe_lit(&q, end, "unpurged")) {
		vi->unpurged_areas++;
		vi->unpurged_bytes += size;
		return 0;
	}
	vi->areas++;
	vi->bytes += size;
	/* The caller is the first word that is not key=value or a flag. */
	for (bool first = true; probe_word(&p, end, word, sizeof(word)) == 0; first = false) {
		const char *w = word;
		if (probe_lit(&w, word + strlen(word), "pages=") && probe_u64(&w, word + strlen(word), &pages) == 0)
			vi->pages += pages;
		else if (first && !strchr(word, '='))
			strcpy(caller, word);
	}
	struct vmalloc_caller *c = vmalloc_caller_get(vi, caller, cap);
	c->bytes += size;
	c->areas++;
	return 0;
}

int vmallocinfo_parse(struct vmallocinfo *vi, const char *buf, size_t len, char *err)
{
	struct probe_lines l = { 0 };
	const char *line;
	size_t ll, cap = 0;
	memset(vi, 0, sizeof(*vi));
	if (len == 0) {
		probe_err(err, 0, "empty");
		return -1;
	}
	probe_lines_init(&l, buf, len);
	while (probe_lines_next(&l, &line, &ll)) {
		if (l.p == l.end && buf[len - 1] != '\n') {
			probe_err(err, l.lineno, "truncated (no newline at the end)");
			goto fail;
		}
		if (vmalloc_line(vi, line, line + ll, &cap, l.lineno, err) < 0)
			goto fail;
	}
	if (vi->ncallers) /* qsort's base may not be NULL, even for no elements */
		qsort(vi->callers, vi->ncallers, sizeof(*vi->callers), vmalloc_caller_cmp);
	return 0;
fail:
	vmallocinfo_free(vi);
	return -1;
}

int vmallocinfo_read(struct vmallocinfo *vi, const char *path, char *err)
{
	char *buf;
	size_t len;
	memset(vi, 0, sizeof(*vi));
	if (probe_read_file(path ? path : "/proc/vmallocinfo", &buf, &len, err) < 0)
		return -1;
	int r = vmallocinfo_parse(vi, buf, len, err);
	free(buf);
	return r;
}

void vmallocinfo_free(struct vmallocinfo *vi)
{
	free(vi->callers);
	memset(vi, 0, sizeof(*vi));
}
