/* The kernel's mm and cgroup selftests, built from a kernel source tree
 * with their own Makefiles, once per source version, into the cache
 * (core/cache.h): selftests/VERSION/{mm,cgroup}/ and build.json, which the
 * kselftest workload reads.  A Debian version (6.12, 6.1) is fetched as
 * the linux-source-VERSION package with `apt-get download`, unpacked with
 * dpkg-deb and tar, never installed; the tree is removed after the build,
 * the tests kept.  They are linked statically, so the matrix's guests can
 * run them.
 *
 * build.json: {"source", "package", "version", "built": [NAME...],
 * "not_built": {NAME: "the compiler's first error"}, "seconds", "static"}. */
#ifndef VMR_SELFTESTS_H
#define VMR_SELFTESTS_H

#include <jansson.h>
#include <stdbool.h>

#include "core/util.h"

/* Where a matrix guest's initramfs holds the selftests a suite names:
 * GUEST_DIR/VERSION/{mm,cgroup}/NAME and build.json (the kselftest
 * workload looks there when the cache has no such version). */
#define SELFTESTS_GUEST_DIR "/selftests"

/* Whether source names a Debian version ("6.12") rather than a directory. */
bool selftests_is_version(const char *source);
/* The cache directory the tests of source are built into, malloc'd. */
char *selftests_dir(const char *source);

/* Build source's selftests unless the cache holds a build of the same
 * version (force: build again).  Progress goes to stderr (a line a step);
 * the compilers' output to DIR/build.log.  Returns build.json's object
 * (new reference), or NULL after a one-line error with *exit_code set
 * (2 a source that is not one, 3 the tools or the registry missing). */
json_t *selftests_build(const char *source, bool force, int *exit_code);

/* For the kselftest cases of a suite file: each named test of a built
 * Debian version, and its build.json, as initramfs extras
 * (HOSTPATH=GUESTPATH, vm/initramfs.h), added to extra. */
void selftests_guest_files(const char *suite_file, struct strlist *extra);

#endif
