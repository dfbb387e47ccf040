#include "core/lazylib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

enum { LAZYLIB_UNTRIED, LAZYLIB_LOADED, LAZYLIB_FAILED };

static pthread_mutex_t lazylib_lock = PTHREAD_MUTEX_INITIALIZER;

/* The table is filled in full or not at all: a library missing one
 * function is refused, so no call ever goes through a NULL entry. */
static int lazylib_open(struct lazylib *l)
{
	void *h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(l->why, sizeof(l->why), "cannot load %s, which %s (%s); install the %s package",
			 l->soname, l->needed_by, e ? e : l->soname, l->package);
		return LAZYLIB_FAILED;
	}
	void *found = xcalloc(1, l->table_size);
	for (size_t i = 0; i < l->nfns; i++) {
		void *fn = dlsym(h, l->fns[i].name);
		if (!fn) {
			snprintf(l->why, sizeof(l->why), "%s has no %s: too old, or not %s (install the %s package)",
				 l->soname, l->fns[i].name, l->soname, l->package);
			free(found);
			dlclose(h);
			return LAZYLIB_FAILED;
		}
		memcpy((char *)found + l->fns[i].offset, &fn, sizeof(fn));
	}
	memcpy(l->table, found, l->table_size);
	free(found);
	return LAZYLIB_LOADED;
}

int lazylib_load(struct lazylib *l, const char **why)
{
	int state = __atomic_load_n(&l->state, __ATOMIC_ACQUIRE);
	if (state == LAZYLIB_UNTRIED) {
		pthread_mutex_lock(&lazylib_lock);
		state = l->state;
		if (state == LAZYLIB_UNTRIED) {
			state = lazylib_open(l);
			__atomic_store_n(&l->state, state, __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&lazylib_lock);
	}
	*why = l->why;
	return state == LAZYLIB_LOADED ? 0 : -1;
}

void lazylib_need(struct lazylib *l)
{
	const char *why = NULL;
	if (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == LAZYLIB_LOADED)
		return;
	if (lazylib_load(l, &why) < 0) {
		vmr_err("%s", why);
		exit(VMR_EXIT_CANNOT);
	}
}
