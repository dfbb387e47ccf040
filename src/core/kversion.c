#include "core/kversion.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/strlist.h"
#include "core/util.h"

bool kversion_parse(const char *s, unsigned *major, unsigned *minor)
{
	char *end = NULL;
	if (!s || *s < '0' || *s > '9')
		return false;
	unsigned long ma = strtoul(s, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return false;
	unsigned long mi = strtoul(end + 1, &end, 10);
	if (ma > 1000 || mi > 1000)
		return false;
	*major = (unsigned)ma;
	*minor = (unsigned)mi;
	return true;
}

bool kversion_is_source(const char *s)
{
	return s && *s && strspn(s, "0123456789.") == strlen(s) && strchr(s, '.');
}

static long kversion_key(unsigned major, unsigned minor)
{
	return (long)major * 10000 + minor;
}

long kversion_nearest(const char *kernel, const char *const *cands, size_t n, enum kversion_match *how)
{
	unsigned ma, mi;
	if (!kversion_parse(kernel, &ma, &mi))
		return -1;
	long want = kversion_key(ma, mi), older = -1, newer = -1, older_key = -1, newer_key = -1;
	for (size_t i = 0; i < n; i++) {
		unsigned cma, cmi;
		if (!kversion_parse(cands[i], &cma, &cmi))
			continue;
		long k = kversion_key(cma, cmi);
		if (k == want) {
			*how = KVERSION_OWN;
			return (long)i;
		}
		if (k < want && k > older_key) {
			older = (long)i;
			older_key = k;
		} else if (k > want && (newer < 0 || k < newer_key)) {
			newer = (long)i;
			newer_key = k;
		}
	}
	*how = older >= 0 ? KVERSION_OLDER : KVERSION_NEWER;
	return older >= 0 ? older : newer;
}

char *kversion_match_text(const char *chosen, const char *kernel, enum kversion_match how, const char *where)
{
	unsigned ma = 0, mi = 0;
	kversion_parse(kernel, &ma, &mi);
	if (how == KVERSION_OWN)
		return xasprintf("%s, the kernel's own", chosen);
	return xasprintf("%s, the nearest %s: %s has no %u.%u", chosen, how == KVERSION_OLDER ? "older" : "newer (none older)",
			 where, ma, mi);
}

void kversion_built_in(const char *dir, struct strlist *names)
{
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		char *bj = xasprintf("%s/%s/build.json", dir, e->d_name);
		if (kversion_is_source(e->d_name) && access(bj, R_OK) == 0 && !strlist_has(names, e->d_name))
			strlist_add(names, e->d_name);
		free(bj);
	}
	if (d)
		closedir(d);
}
