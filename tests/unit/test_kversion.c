/* Which selftest source version suits a kernel (core/kversion.h): its own
 * major.minor, else the nearest older, else the oldest newer; releases as
 * Debian's kernels spell them. */
#include <stdlib.h>
#include <string.h>

#include "core/kversion.h"
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
	T_DONE();
}
