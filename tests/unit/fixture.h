/* Fixture files for parser tests: tests/fixtures/<format>/<name>.  Files
 * named bad-* must be rejected with a reason; every other file must parse.
 * Tests run from the repository root (tests/run-all cd's there). */
#ifndef VMR_FIXTURE_H
#define VMR_FIXTURE_H

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The whole file, NUL-terminated (the parsers do not need that; it makes
 * strstr in tests easy).  Aborts the test binary when the file is missing. */
static inline char *fixture_read(const char *format, const char *name, size_t *len)
{
	char path[512];
	char *buf;
	snprintf(path, sizeof(path), "tests/fixtures/%s/%s", format, name);
	if (vmr_read_file(path, &buf, len) < 0) {
		printf("not ok - fixture %s is readable\n", path);
		exit(1);
	}
	return buf;
}

/* Call fn(name, buf, len, arg) for each fixture of a format whose name
 * matches pattern ("bad-*", "linux-*"); returns how many there were. */
static inline int fixture_each(const char *format, const char *pattern,
			       void (*fn)(const char *name, const char *buf, size_t len, void *arg),
			       void *arg)
{
	char pat[512];
	glob_t g;
	int n = 0;
	snprintf(pat, sizeof(pat), "tests/fixtures/%s/%s", format, pattern);
	if (glob(pat, 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *name = strrchr(g.gl_pathv[i], '/') + 1;
		size_t len;
		char *buf = fixture_read(format, name, &len);
		fn(name, buf, len, arg);
		free(buf);
		n++;
	}
	globfree(&g);
	return n;
}

#endif
