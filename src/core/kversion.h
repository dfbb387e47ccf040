/* Kernel versions by their major and minor numbers ("6.12.117+deb12-cloud-amd64"
 * is 6.12): which of several source versions (the kernel's selftests built
 * from Debian's linux-source-6.1 and -6.12) suits a running kernel best.
 * The rule, in one place for the matrix (which sends a guest one version)
 * and the kselftest workload (which picks among those it finds): the
 * kernel's own version; else the nearest older, whose tests ask nothing the
 * kernel lacks; else, when every one is newer, the oldest of them. */
#ifndef VMR_KVERSION_H
#define VMR_KVERSION_H

#include <stdbool.h>
#include <stddef.h>

enum kversion_match {
	KVERSION_OWN,       /* the kernel's own major.minor */
	KVERSION_OLDER,     /* the nearest older: the kernel's own is not there */
	KVERSION_NEWER,     /* the oldest newer: nothing older is there */
};

/* major.minor of s, which starts with digits ("6.1", "6.1.0-57-cloud-amd64");
 * false when it does not. */
bool kversion_parse(const char *s, unsigned *major, unsigned *minor);
/* Whether s is a bare source version, "6.12" or "6.1" (digits and dots). */
bool kversion_is_source(const char *s);

struct strlist;

/* The source versions built under dir (each a VERSION/ holding build.json),
 * added to names unless there already. */
void kversion_built_in(const char *dir, struct strlist *names);

/* The index in cands[0..n) of the version that suits kernel, by the rule
 * above (how: which case it was), or -1 when none parses or the kernel's
 * release does not. */
long kversion_nearest(const char *kernel, const char *const *cands, size_t n, enum kversion_match *how);

/* A sentence for a run's environment: "6.12, the kernel's own",
 * "6.12, the nearest older (none of 6.18 here)", ... malloc'd. */
char *kversion_match_text(const char *chosen, const char *kernel, enum kversion_match how, const char *where);

#endif
