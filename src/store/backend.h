/* The store's back ends.  store.h is the one interface; store.c picks a
 * back end from the location and forwards every call through its ops table.
 *
 * Each back end keeps the same schema in meaning (runs with a UUID, the host
 * and the environment fingerprint; cases; iterations with the result JSON;
 * one row per metric) and answers the same queries with the same results,
 * so one test suite checks both.  Messages name the store by st->path, which
 * for a database URL has its password masked: nothing a back end prints or
 * stores may carry a credential. */
#ifndef VMR_STORE_BACKEND_H
#define VMR_STORE_BACKEND_H

#include "store/store.h"

struct sqlite3;
struct pg_conn;

struct store {
	const struct store_backend *be;
	char *path;               /* a file, or a URL without its password */
	struct sqlite3 *db;       /* SQLite */
	struct pg_conn *pg;       /* PostgreSQL (libpq's PGconn) */
};

enum store_lookup {
	STORE_BY_LAST,   /* the newest run (arg unused) */
	STORE_BY_ID,     /* arg is a decimal id */
	STORE_BY_NAME,   /* arg is a name or a UUID */
};

struct store_backend {
	const char *name;         /* "sqlite" | "postgresql" */
	/* location: a file path, or a libpq connection URL; st->be is set by
	 * the caller's choice of back end. */
	int (*open)(struct store **st, const char *location, bool create);
	void (*close)(struct store *st);
	int (*run_begin)(struct store *st, const char *name, const char *suite, const char *suite_text,
			 json_t *env, const char *tag, int64_t *run_id);
	int (*case_add)(struct store *st, int64_t run_id, const char *case_name, const char *workload,
			json_t *options, int64_t *case_id);
	int (*result_add)(struct store *st, int64_t case_id, int iteration, const struct result *r);
	int (*run_end)(struct store *st, int64_t run_id, const char *status);
	int (*list)(struct store *st, struct run_info **runs, size_t *n);
	/* Up to two ids of runs matching a lookup (store.c turns a RUN spec
	 * into these): *n is how many were found.  0, or -1 after an error. */
	int (*match)(struct store *st, enum store_lookup by, const char *arg, int64_t ids[2], int *n);
	int (*load_run)(struct store *st, int64_t run_id, struct run **out);
	int (*delete_run)(struct store *st, int64_t run_id);
	/* 1 and *run_id when a run has this UUID, 0 when none, -1 on error. */
	int (*find_uuid)(struct store *st, const char *uuid, int64_t *run_id);
	/* Write a whole run as loaded from another store (its UUID, name,
	 * status, times, environment, cases and iterations) in one
	 * transaction.  1 when a run with its UUID was already there (nothing
	 * written), 0 when written, -1 on error (nothing written). */
	int (*import_run)(struct store *st, const struct run *run, int64_t *run_id);
};

extern const struct store_backend store_sqlite_backend;
extern const struct store_backend store_pg_backend;

/* Helpers both back ends share (store.c). */
/* A fresh version 4 UUID into buf (at least 37 bytes). */
void store_uuid(char *buf, size_t len);
/* The host named by an environment fingerprint; NULL if none. */
const char *store_env_host(const json_t *env);
/* "<suite base name>-YYYYmmdd-HHMMSS" for a run begun at now.  Malloc'd. */
char *store_default_name(const char *suite, double now);

#endif
