/* A growable array of strings. */
#ifndef VMR_STRLIST_H
#define VMR_STRLIST_H

#include <stdbool.h>
#include <stddef.h>

struct strlist {
	char **v;
	size_t n;
};
void strlist_add(struct strlist *l, const char *s);
void strlist_free(struct strlist *l);
/* Whether l holds s. */
bool strlist_has(const struct strlist *l, const char *s);

#endif
