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

#include "core/util.h"
#include "store/store.h"

struct sqlite3;
struct pg_conn;

struct store {
	const struct store_backend *be;
	char *path;               /* a file, or a URL without its password */
	struct sqlite3 *db;       /* SQLite */
	int lockfd;               /* SQLite: the file of writers' locks, or -1 */
	struct pg_conn *pg;       /* PostgreSQL (libpq's PGconn) */
	struct strlist secrets;   /* PostgreSQL: the URL's password, each way it
				   * is spelt (store_url_secrets), masked in
				   * every message */
	bool read_timeout;        /* PostgreSQL: statement_timeout is ours (the
				   * session set none): lifted in writes */
	enum store_mode mode;     /* as opened: STORE_READ refuses every write */
	struct store_each *each;  /* while store_case_each reads: where each
				   * iteration read goes instead of its case */
};

enum store_lookup {
	STORE_BY_LAST,   /* the newest run (arg unused) */
	STORE_BY_ID,     /* arg is a decimal id */
	STORE_BY_NAME,   /* arg is a name or a UUID */
};

/* What a back end answers.  The rules built from these answers (resolving
 * RUN, loading a whole run, copying one in or bringing a copy up to date)
 * live once in store.c.
 *
 * A run is `running` while its writer holds a lock only it can hold, one
 * the system drops when the writer exits however it exits: on SQLite a
 * byte-range lock (an open file description lock) at offset run id of the
 * file "<results file>-lock", on PostgreSQL a session advisory lock.  So an
 * `incomplete` run that is not running was interrupted, and stays so. */
struct store_backend {
	const char *name;         /* "sqlite" | "postgresql" */
	/* location: a file path, or a libpq connection URL; st->be is set by
	 * the caller's choice of back end.  A server's database is opened
	 * alike whatever the mode (it must exist, and reads never write). */
	int (*open)(struct store **st, const char *location, enum store_mode mode);
	void (*close)(struct store *st);
	/* Writing a run as it goes (store.c begins it with run_insert and
	 * hold): its cases, its end (status and end time). */
	int (*case_add)(struct store *st, int64_t run_id, const char *case_name, const char *workload,
			json_t *options, int64_t *case_id);
	int (*run_end)(struct store *st, int64_t run_id, const char *status);
	/* Overwrite a run's environment (what a run learns only as it ends:
	 * why it stopped adding iterations). */
	int (*env_set)(struct store *st, int64_t run_id, const json_t *env);
	/* Take or drop the writer's lock of a run (see above).  0, or -1
	 * after a message; a back end that cannot lock here writes the run
	 * all the same, only no one can tell it is running. */
	int (*hold)(struct store *st, int64_t run_id, bool hold);
	int (*list)(struct store *st, struct run_info **runs, size_t *n);
	/* Up to two ids of runs matching a lookup (store.c turns a RUN spec
	 * into these): *n is how many were found.  0, or -1 after an error. */
	int (*match)(struct store *st, enum store_lookup by, const char *arg, int64_t ids[2], int *n);
	int (*delete_run)(struct store *st, int64_t run_id);
	/* 1 and *run_id when a run has this UUID, 0 when none, -1 on error. */
	int (*find_uuid)(struct store *st, const char *uuid, int64_t *run_id);
	/* Groups: the UUIDs (up to two, the first in *uuid, malloc'd) of the
	 * groups whose name or UUID is spec, or with spec NULL the newest
	 * run's group that has one; and the ids of a group's runs, base
	 * first.  0, or -1 after an error. */
	int (*group_find)(struct store *st, const char *spec, char **uuid, int *n);
	int (*group_runs)(struct store *st, const char *uuid, int64_t **ids, size_t *n);

	/* Transactions: a writing one (others' writes wait for it), or a
	 * read-only one that sees the store at one moment. */
	int (*begin)(struct store *st, bool write);
	int (*commit)(struct store *st);
	void (*rollback)(struct store *st);
	/* Reading a run, inside a transaction: its row (info, env, suite
	 * text; a message naming the run when there is none), its cases in
	 * order, and a case's iterations (of each result the parts asked for,
	 * enum result_part), each handed to store_case_result. */
	int (*info)(struct store *st, int64_t run_id, struct run *r);
	int (*cases)(struct store *st, struct run *r);
	int (*iterations)(struct store *st, struct run_case *c, unsigned parts);
	/* (While st->each is set, store_case_each reads: a back end then
	 * holds a few iterations' text at a time, not the case's.) */
	/* The members of parts of one iteration's result (result_pick_text)
	 * into *out, outside any transaction.  0, or -1 after a message. */
	int (*pick)(struct store *st, int64_t case_id, int iteration, unsigned parts, json_t **out);
	/* Writing, inside a writing transaction: one iteration's row and its
	 * metric rows; a run's row as copied from elsewhere (UUID, name,
	 * status, times, environment), 1 and the id of the run holding its
	 * UUID when there is one (that row then stays as it is, locked to this
	 * transaction), else 0; and a run's row overwritten by a copy, its
	 * cases removed. */
	int (*iteration_insert)(struct store *st, int64_t case_id, int iteration, int64_t seq,
				const struct result *r);
	int (*run_insert)(struct store *st, const struct run *run, int64_t *run_id);
	int (*run_replace)(struct store *st, int64_t run_id, const struct run *run);
};

extern const struct store_backend store_sqlite_backend;
extern const struct store_backend store_pg_backend;

/* Helpers both back ends share (store.c). */
/* The host named by an environment fingerprint; NULL if none. */
const char *store_env_host(const json_t *env);
/* A JSON value as stored: compact, every double exact, object keys sorted
 * when sorted; "{}" for NULL.  Malloc'd. */
char *store_json_text(const json_t *j, bool sorted);
/* An iteration's result as stored (its JSON), or NULL after a message. */
char *store_result_text(struct store *st, const struct result *r);
/* Append one stored iteration (its number, its place in the group's order
 * or -1, and its result JSON, of which the parts asked for are read) to a
 * case being loaded.  0, or -1 after a message naming the case when it is
 * damaged. */
int store_case_result(struct store *st, struct run_case *c, int iteration, int64_t seq, const char *json,
		      unsigned parts);
/* The same from text[0..len), which may be a prefix of the result's text
 * unless whole: 1 when it was added, 0 when more of the text is needed,
 * -1 after a message. */
int store_case_text(struct store *st, struct run_case *c, int iteration, int64_t seq, const char *text, size_t len,
		    unsigned parts, bool whole);
/* The same from the members of the result picked already
 * (result_pick_text; NULL when they could not be), which it frees. */
int store_case_result_json(struct store *st, struct run_case *c, int iteration, int64_t seq, json_t *j,
			   unsigned parts);
/* A run's group plan as stored (compact JSON), or NULL for none.  Malloc'd. */
char *store_plan_text(const struct run *run);
/* The group plan a column holds, or NULL. */
json_t *store_plan_parse(const char *text);

#endif
