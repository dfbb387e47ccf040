/* Inside report/: what kcidb.c and kcidb_kselftest.c share.  The pieces of
 * every object are kcidb_base.c's, which calls neither; kcidb.c calls
 * kcidb_kselftest.c, which calls kcidb_base.c alone. */
#ifndef VMR_REPORT_KCIDB_INT_H
#define VMR_REPORT_KCIDB_INT_H

#include "report/kcidb.h"

/* The origin of every object: the source's, else "vmregress". */
const char *kcidb_origin(const struct kcidb_source *s);
/* The part of every id that names the run: its UUID, or its name for a run
 * read from a file that has none. */
const char *kcidb_run_key(const struct run *r);
/* A time as KCIDB's timestamps are written (store_format_time). */
json_t *kcidb_time(double t);
/* A test object's common fields: id "ORIGIN:RUN:id_tail", build_id,
 * origin, path, environment, start_time. */
json_t *kcidb_test_base(const struct run *r, const struct kcidb_source *s, const char *id_tail, const char *path);
/* A component of a test path: anything but [A-Za-z0-9_-] becomes '_'. */
char *kcidb_path_part(const char *name);

/* kcidb_kselftest.c: */

/* One test per kernel selftest case of suite case c (its kselftest
 * results), under path: PATH.TEST.CASE, status PASS, FAIL, SKIP (the
 * reason as its comment) or ERROR, its id "ORIGIN:RUN:CASE:kselftest:TEST:
 * NAME", the same every time the run is written. */
void kcidb_kselftest_tests(json_t *tests, const struct run *r, const struct run_case *c,
			   const struct kcidb_source *s, const char *path);

#endif
