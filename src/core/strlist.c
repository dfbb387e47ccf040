#include "core/strlist.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

void strlist_add(struct strlist *l, const char *s)
{
	l->v = xrealloc(l->v, (l->n + 2) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(s);
	l->v[l->n] = NULL;
}

void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

bool strlist_has(const struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}
