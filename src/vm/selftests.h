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
#include <stdint.h>

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

/* The kselftest workload's --source that asks for the running kernel's
 * own version's tests (workload/kselftest.c). */
#define SELFTESTS_MATCHED "matched"

/* The Debian source version whose selftests suit kernel (a release,
 * "6.1.0-57-cloud-amd64"): its own where Debian packages it, else the
 * nearest older (core/kversion.h), built into the cache unless it is
 * there.  malloc'd, with *note saying which and why; NULL (after a
 * warning) when none can be had. */
char *selftests_match(const char *kernel, char **note);

/* For the kselftest cases of a suite file: each named test of a built
 * Debian version, and its build.json, as initramfs extras
 * (HOSTPATH=GUESTPATH, vm/initramfs.h), added to extra.  A case whose
 * source is "matched" gets kernel's match (selftests_match), said in
 * *matched and *note (malloc'd, left alone when no case asks). */
void selftests_guest_files(const char *suite_file, const char *kernel, struct strlist *extra,
			   char **matched, char **note);

/* The hugetlb pool a guest reserves at boot (hugepages=N on its command
 * line: never the host's) for the kselftest cases of a suite that run as
 * in a guest (--guest) and map hugetlb pages (hugepage-mmap, map_hugetlb,
 * cow's and gup_longterm's hugetlb cases): a quarter of the guest's
 * memory in 2 MiB pages, at most the 256 MiB that hugepage-mmap and
 * map_hugetlb map; 0 when no such case runs. */
#define SELFTESTS_HUGEPAGE (2u << 20)
#define SELFTESTS_POOL_MAX 128u
unsigned selftests_hugetlb_pool(const char *suite_file, uint64_t mem_bytes);

#endif
