#include "core/cache.h"

#include <stdlib.h>

#include "core/util.h"

char *vmr_cache_dir(const char *sub)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (x && *x == '/')
		return xasprintf("%s/vmregress/%s", x, sub);
	return xasprintf("%s/.cache/vmregress/%s", home && *home ? home : "/root", sub);
}
