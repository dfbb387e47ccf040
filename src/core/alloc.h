/* Allocation that cannot fail: it aborts with a message on OOM. */
#ifndef VMR_ALLOC_H
#define VMR_ALLOC_H

#include <stddef.h>

/* Allocation that cannot fail (aborts with a message on OOM). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
