/* Shared libraries loaded on first use rather than when vmregress starts.
 * Linking a library outright makes every command pay for loading it and
 * its relocations at every start, whether the command calls it or not:
 * GSL, libbpf (with libelf) and SQLite took about 1.4 ms of CPU of each
 * start, a third of `test null`'s, which calls none of them.
 *
 * A library's header (stats/gsllib.h, probe/bpflib.h, store/sqlitelib.h,
 * store/pqlib.h) lists the functions vmregress calls in one X-macro and
 * gives a table with one pointer per function, named like it; after the
 * library's own headers, each call site's function name is #defined to its
 * table entry, reached through the loader (LIB_get()), so the code calls
 * the functions by their own names.  A function called but not listed
 * fails the link (the library is not linked); one listed but not declared
 * fails the compile.  The static build (src/static/libs.c) fills the same
 * tables from the statically linked libraries and loads nothing.
 *
 * A file that fills a table defines VMR_LAZYLIB_FILL before including the
 * library's header, so that the names are left alone there. */
#ifndef VMR_CORE_LAZYLIB_H
#define VMR_CORE_LAZYLIB_H

#include <stdbool.h>
#include <stddef.h>

struct lazylib_fn {
	const char *name;
	size_t offset;          /* of its pointer in the table */
};

struct lazylib {
	const char *soname;     /* "libgsl.so.27", as the Debian package installs it */
	const char *package;    /* "libgsl27" */
	const char *needed_by;  /* the error's words: "statistics need" */
	const struct lazylib_fn *fns;
	size_t nfns;
	void *table;            /* filled in full or not at all */
	size_t table_size;
	int state;              /* lazylib.c's: not tried, loaded, failed */
	char why[384];
};

#define LAZYLIB_FN(table, f) { #f, offsetof(struct table, f) },

/* Load l once per process (thread-safe).  0, or -1 with *why saying what
 * is missing and which package has it: "cannot load libgsl.so.27, which
 * statistics need (...); install the libgsl27 package". */
int lazylib_load(struct lazylib *l, const char **why);

/* lazylib_load for callers that have no error to return (a statistic):
 * when the library cannot be loaded, print why and exit 3, as a missing
 * library at start would have (VMR_EXIT_CANNOT: cannot run here). */
void lazylib_need(struct lazylib *l);

#endif
