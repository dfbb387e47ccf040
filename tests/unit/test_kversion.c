/* Which selftest source version suits a kernel (core/kversion.h): its own
 * major.minor, else the nearest older, else the oldest newer; releases as
 * Debian's kernels spell them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kversion.h"
#include "core/strlist.h"
#include "core/util.h"
#include "t.h"

static const char *pick(const char *kernel, const char *const *cands, size_t n, enum kversion_match *how)
{
	long i = kversion_nearest(kernel, cands, n, how);
	return i >= 0 ? cands[i] : "none";
}

int main(void)
{
	unsigned ma = 0, mi = 0;
	CHECK(kversion_parse("6.12.117+deb12-cloud-amd64", &ma, &mi) && ma == 6 && mi == 12, "a Debian release is 6.12");
	CHECK(kversion_parse("6.1.0-57-cloud-amd64", &ma, &mi) && ma == 6 && mi == 1, "and 6.1.0-57 is 6.1");
	CHECK(!kversion_parse("vmlinuz", &ma, &mi) && !kversion_parse("6", &ma, &mi) && !kversion_parse("6.", &ma, &mi),
	      "names that are no version are refused");
	CHECK(kversion_is_source("6.12") && !kversion_is_source("6.12-rc1") && !kversion_is_source("612") &&
		      !kversion_is_source("tree-x"),
	      "a source version is digits and dots");

	const char *debian[] = { "6.12", "6.1" };
	enum kversion_match how = KVERSION_NEWER;
	CHECK(!strcmp(pick("6.1.0-57-cloud-amd64", debian, 2, &how), "6.1") && how == KVERSION_OWN,
	      "a 6.1 kernel gets 6.1's, its own (not 6.12's, which sorts after it as text)");
	CHECK(!strcmp(pick("6.12.117+deb12-cloud-amd64", debian, 2, &how), "6.12") && how == KVERSION_OWN,
	      "a 6.12 kernel 6.12's");
	CHECK(!strcmp(pick("6.5.0-0.deb12.4-amd64", debian, 2, &how), "6.1") && how == KVERSION_OLDER,
	      "a 6.5 kernel the nearest older, 6.1 (6.12's tests would look for what it lacks)");
	CHECK(!strcmp(pick("6.18.44", debian, 2, &how), "6.12") && how == KVERSION_OLDER, "a 6.18 kernel 6.12's");
	const char *three[] = { "6.1", "6.12", "6.6" };
	CHECK(!strcmp(pick("6.10.3", three, 3, &how), "6.6") && how == KVERSION_OLDER,
	      "the nearest older of several, in any order");
	CHECK(!strcmp(pick("5.10.0-30-amd64", three, 3, &how), "6.1") && how == KVERSION_NEWER,
	      "a kernel older than every one: the oldest newer, said so");
	CHECK(!strcmp(pick("vmlinuz-custom", debian, 2, &how), "none"), "a release that is no version: none");
	const char *junk[] = { "tree-linux", "x" };
	CHECK(!strcmp(pick("6.1.0", junk, 2, &how), "none"), "candidates that are no version: none");

	char *t = kversion_match_text("6.1", "6.5.0-0.deb12.4-amd64", KVERSION_OLDER, "Debian's linux-source");
	CHECK(!strcmp(t, "6.1, the nearest older: Debian's linux-source has no 6.5"), "the note says why: %s", t);
	free(t);
	t = kversion_match_text("6.12", "6.12.117+deb12-cloud-amd64", KVERSION_OWN, "x");
	CHECK(!strcmp(t, "6.12, the kernel's own"), "or that it is the kernel's own: %s", t);
	free(t);

	/* The built versions in a directory: a VERSION/ with its build.json. */
	char dir[] = "/tmp/kversion.XXXXXX";
	CHECK(mkdtemp(dir) != NULL, "a scratch directory");
	const char *made[] = { "6.1/", "6.12/", "tree/", "6.6/" }, *files[] = { "6.1/build.json", "tree/build.json",
										  "6.6/build.json" };
	for (size_t i = 0; i < 4; i++) {
		char *p = xasprintf("%s/%s", dir, made[i]);
		mkdir(p, 0755);
		free(p);
	}
	for (size_t i = 0; i < 3; i++) {
		char *p = xasprintf("%s/%s", dir, files[i]);
		FILE *f = fopen(p, "w");
		if (f)
			fclose(f);
		free(p);
	}
	struct strlist names = { 0 };
	strlist_add(&names, "6.6");
	kversion_built_in(dir, &names);
	kversion_built_in("/nonexistent/selftests", &names);
	CHECK(names.n == 2 && strlist_has(&names, "6.1") && strlist_has(&names, "6.6"),
	      "the built ones are added once; one without build.json, a name that is no version, and a missing "
	      "directory are not (%zu)", names.n);
	strlist_free(&names);
	char *rm = xasprintf("rm -rf '%s'", dir);
	CHECK(system(rm) == 0, "the scratch directory is removed");
	free(rm);
	T_DONE();
}
