/* libpq, loaded when a PostgreSQL store is first opened rather than when
 * vmregress starts.  Linking it outright made every command pay for loading
 * it and what it pulls in (Kerberos, LDAP, GnuTLS, OpenSSL: about 12 ms of
 * CPU on each start, most of `test null`'s cost), though most commands
 * never open a PostgreSQL store.
 *
 * pg.c includes this after <libpq-fe.h>: the header still gives the types
 * and constants, and each libpq function it calls becomes a call through
 * the table below, filled by pqlib_load (through core/lazylib.c, which
 * loads GSL, libbpf and SQLite the same way). */
#ifndef VMR_PQLIB_H
#define VMR_PQLIB_H

#include <libpq-fe.h>

/* The shared library's name: its soname, as Debian's libpq5 installs it. */
#define PQLIB_SONAME "libpq.so.5"

struct pqlib {
	__typeof__(PQclear) *clear;
	__typeof__(PQcmdTuples) *cmdTuples;
	__typeof__(PQconnectdbParams) *connectdbParams;
	__typeof__(PQerrorMessage) *errorMessage;
	__typeof__(PQexec) *exec;
	__typeof__(PQexecParams) *execParams;
	__typeof__(PQfinish) *finish;
	__typeof__(PQgetisnull) *getisnull;
	__typeof__(PQgetvalue) *getvalue;
	__typeof__(PQntuples) *ntuples;
	__typeof__(PQpass) *pass;
	__typeof__(PQresultErrorField) *resultErrorField;
	__typeof__(PQresultStatus) *resultStatus;
	__typeof__(PQsetNoticeProcessor) *setNoticeProcessor;
	__typeof__(PQstatus) *status;
};

/* Filled by pqlib_load; every entry is set once it has succeeded. */
extern struct pqlib pqlib;

/* Load libpq and every function pg.c calls, once per process.  0, or -1
 * with *why saying what is missing (the library, or one of its functions)
 * and how to get it. */
int pqlib_load(const char **why);

#define PQclear (pqlib.clear)
#define PQcmdTuples (pqlib.cmdTuples)
#define PQconnectdbParams (pqlib.connectdbParams)
#define PQerrorMessage (pqlib.errorMessage)
#define PQexec (pqlib.exec)
#define PQexecParams (pqlib.execParams)
#define PQfinish (pqlib.finish)
#define PQgetisnull (pqlib.getisnull)
#define PQgetvalue (pqlib.getvalue)
#define PQntuples (pqlib.ntuples)
#define PQpass (pqlib.pass)
#define PQresultErrorField (pqlib.resultErrorField)
#define PQresultStatus (pqlib.resultStatus)
#define PQsetNoticeProcessor (pqlib.setNoticeProcessor)
#define PQstatus (pqlib.status)

#endif
