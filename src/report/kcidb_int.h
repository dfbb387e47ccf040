/* Inside report/: what kcidb.c and kcidb_kselftest.c share. */
#ifndef VMR_REPORT_KCIDB_INT_H
#define VMR_REPORT_KCIDB_INT_H

#include "report/kcidb.h"

/* A test object's common fields: id "ORIGIN:RUN:id_tail", build_id,
 * origin, path, environment, start_time. */
json_t *kcidb_test_base(const struct run *r, const struct kcidb_source *s, const char *id_tail, const char *path);
/* A component of a test path: anything but [A-Za-z0-9_-] becomes '_'. */
char *kcidb_path_part(const char *name);

/* One test per kernel selftest case of suite case c (its kselftest
 * results), under path: PATH.TEST.CASE, status PASS, FAIL, SKIP (the
 * reason as its comment) or ERROR, its id "ORIGIN:RUN:CASE:kselftest:TEST:
 * NAME", the same every time the run is written. */
void kcidb_kselftest_tests(json_t *tests, const struct run *r, const struct run_case *c,
			   const struct kcidb_source *s, const char *path);

#endif
