#include "core/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *oom_check(void *p)
{
	if (!p) {
		fputs("vmregress: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n) { return oom_check(malloc(n ? n : 1)); }

void *xcalloc(size_t n, size_t size) { return oom_check(calloc(n ? n : 1, size ? size : 1)); }

void *xrealloc(void *p, size_t n) { return oom_check(realloc(p, n ? n : 1)); }

char *xstrdup(const char *s) { return oom_check(strdup(s ? s : "")); }

char *xasprintf(const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom_check(NULL);
	return s;
}
