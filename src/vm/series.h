/* A bisection's series file: the candidates in order, oldest first, one a
 * line: a kernel (an image path or a Debian kernel package, as `matrix
 * --kernel` takes it), optionally followed by `-- ARGS` for its command
 * line.  Blank lines and lines starting with '#' are not candidates. */
#ifndef VMR_SERIES_H
#define VMR_SERIES_H

#include <stddef.h>

#include "stats/bisect.h"

struct kernel_series {
	struct bisect_candidate *c;
	size_t n;
};

/* Parse text (len bytes, the contents of file) into s.  0, or -1 after a
 * one-line error naming the file and line: a line of several words
 * without "--", nothing after "--", a NUL byte, fewer than two candidates. */
int series_parse(const char *file, const char *text, size_t len, struct kernel_series *s);
/* Read and parse file. */
int series_load(const char *file, struct kernel_series *s);
void series_free(struct kernel_series *s);

#endif
