#include "store/pqlib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

struct pqlib pqlib = { 0 };

static const struct {
	const char *name;
	size_t offset;
} pqlib_fns[] = {
	{ "PQclear", offsetof(struct pqlib, clear) },
	{ "PQcmdTuples", offsetof(struct pqlib, cmdTuples) },
	{ "PQconnectdbParams", offsetof(struct pqlib, connectdbParams) },
	{ "PQerrorMessage", offsetof(struct pqlib, errorMessage) },
	{ "PQexec", offsetof(struct pqlib, exec) },
	{ "PQexecParams", offsetof(struct pqlib, execParams) },
	{ "PQfinish", offsetof(struct pqlib, finish) },
	{ "PQgetisnull", offsetof(struct pqlib, getisnull) },
	{ "PQgetvalue", offsetof(struct pqlib, getvalue) },
	{ "PQntuples", offsetof(struct pqlib, ntuples) },
	{ "PQpass", offsetof(struct pqlib, pass) },
	{ "PQresultErrorField", offsetof(struct pqlib, resultErrorField) },
	{ "PQresultStatus", offsetof(struct pqlib, resultStatus) },
	{ "PQsetNoticeProcessor", offsetof(struct pqlib, setNoticeProcessor) },
	{ "PQstatus", offsetof(struct pqlib, status) },
};

static pthread_once_t pqlib_once = PTHREAD_ONCE_INIT;
static char pqlib_why[512];

/* The table is filled in full or not at all: a library missing one
 * function is refused, so no call ever goes through a NULL entry. */
static void pqlib_open(void)
{
	void *h = dlopen(PQLIB_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();
		snprintf(pqlib_why, sizeof(pqlib_why), "cannot load libpq, which a PostgreSQL store needs (%s); "
			 "install the libpq5 package", e ? e : PQLIB_SONAME);
		return;
	}
	struct pqlib found = { 0 };
	for (size_t i = 0; i < sizeof(pqlib_fns) / sizeof(pqlib_fns[0]); i++) {
		void *fn = dlsym(h, pqlib_fns[i].name);
		if (!fn) {
			snprintf(pqlib_why, sizeof(pqlib_why), "%s has no %s: a libpq too old or not libpq",
				 PQLIB_SONAME, pqlib_fns[i].name);
			dlclose(h);
			return;
		}
		*(void **)((char *)&found + pqlib_fns[i].offset) = fn;
	}
	pqlib = found;
}

int pqlib_load(const char **why)
{
	pthread_once(&pqlib_once, pqlib_open);
	*why = pqlib_why;
	return pqlib.status ? 0 : -1;
}
