#include "store/pqlib.h"

#include <stddef.h>

#include "core/lazylib.h"

struct pqlib pqlib = { 0 };

static const struct lazylib_fn pqlib_fns[] = {
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

static struct lazylib pqlib_lib = {
	.soname = PQLIB_SONAME, .package = "libpq5", .needed_by = "a PostgreSQL store needs",
	.fns = pqlib_fns, .nfns = sizeof(pqlib_fns) / sizeof(pqlib_fns[0]),
	.table = &pqlib, .table_size = sizeof(pqlib),
};

int pqlib_load(const char **why)
{
	return lazylib_load(&pqlib_lib, why);
}
