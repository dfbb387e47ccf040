/* vmregress's cache: what it fetches or builds once and keeps between runs
 * (kernel packages, the kernel's selftests), under $XDG_CACHE_HOME/vmregress
 * or ~/.cache/vmregress.  Never needed for correctness: removing it costs a
 * download or a build. */
#ifndef VMR_CACHE_H
#define VMR_CACHE_H

/* The cache's subdirectory sub ("selftests/6.12"), malloc'd; not created. */
char *vmr_cache_dir(const char *sub);

#endif
