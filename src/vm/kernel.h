/* Kernels for the matrix: a bzImage path, or a Debian kernel package that is
 * downloaded with `apt-get download` into a cache and unpacked there with
 * `dpkg-deb -x`, never installed: the host's own kernel, /boot and package
 * database are not touched. */
#ifndef VMR_KERNEL_H
#define VMR_KERNEL_H

#include <stdbool.h>

struct vm_kernel {
	char *spec;         /* what the user gave */
	char *vmlinuz;      /* the image to boot */
	char *moddir;       /* .../lib/modules/VERSION, or NULL if unknown */
	char *version;      /* VERSION, or the image's file name */
	bool from_package;
	bool downloaded;    /* fetched now rather than found in the cache */
};

/* The kernel cache: $XDG_CACHE_HOME/vmregress/kernels or
 * ~/.cache/vmregress/kernels.  Malloc'd. */
char *kernel_default_cache(void);

/* True when spec can only mean a package name (no '/', not an existing
 * file, Debian package-name characters). */
bool kernel_spec_is_package(const char *spec);

/* Resolve spec into k.  A package is fetched and unpacked into
 * cache/<package>/ once; later calls (from any process) reuse it.  Returns
 * 0, VMR_EXIT_USAGE-style -2 for an unknown package or missing file, or -3
 * when the tools to fetch it are missing; after a one-line error. */
int kernel_resolve(const char *spec, const char *cache, struct vm_kernel *k);
void kernel_free(struct vm_kernel *k);

#endif
