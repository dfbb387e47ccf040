/* Part of the static build only (the matrix's guests run it).  glibc's
 * dlopen cannot work in a static program without the very shared libraries
 * a guest lacks, and ld warns wherever a static link refers to it.  Its one
 * caller in vmregress-static is SQLite's Unix VFS, for extensions vmregress
 * never loads; the Makefile renames that reference to this function, which
 * fails the way dlopen would in the guest.  SQLite then reports "unable to
 * open shared library" as it does for any missing extension. */
#include <stddef.h>

void *vmr_static_dlopen(const char *file, int mode);

void *vmr_static_dlopen(const char *file, int mode)
{
	return NULL;
}
