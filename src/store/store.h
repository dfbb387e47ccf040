/* The results store: one SQLite file, or a PostgreSQL database shared by a
 * fleet of machines, behind one interface (back ends: store/backend.h).
 * A run holds cases; a case holds iterations; an iteration holds one struct
 * result.  Writes are transactional per iteration, so a run
 * killed at any moment leaves a sound database and the run `incomplete`.
 *
 * A run is written as it goes: store_run_begin (status `incomplete` from the
 * first moment, so a run killed with -9 needs no repair), store_case_add for
 * every case of the plan, store_result_add after every iteration, and
 * store_run_end with `complete` or `failed`.  Each iteration is kept whole
 * (the result JSON, so histograms, maps and series can be read back) and as
 * one row per metric, for queries across runs.
 *
 * Several processes may use one file at the same time: the database is in
 * WAL mode and waits up to a few seconds for a lock. */
#ifndef VMR_STORE_H
#define VMR_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "core/run.h"

struct store;

/* The schema version this build writes; older files are migrated on open. */
#define STORE_SCHEMA_VERSION 2

/* The default location: $VMREGRESS_DB if set, else
 * $XDG_DATA_HOME/vmregress/results.db or ~/.local/share/vmregress/results.db.
 * Malloc'd. */
char *store_default_path(void);
/* How a store is opened.  The values of false and true are what the
 * boolean argument this replaced meant. */
enum store_mode {
	STORE_WRITE = 0,   /* an existing store, to write (delete) */
	STORE_CREATE = 1,  /* created when absent, to write runs into (run, push):
			    * refused up front where it cannot be written */
	STORE_READ = 2,    /* an existing store, only read (list, show, compare,
			    * report, export): works on a read-only medium */
};
/* Open (creating the file and its directory, and migrating, when
 * STORE_CREATE) a store.  path is a file, "sqlite:FILE", or "postgresql://..." (also
 * "postgres://...", libpq's URL; the database must exist, its tables are
 * created on first use); any other SCHEME:// is refused.  A file must be
 * a regular file or absent, checked before SQLite opens it, and may be a
 * symbolic link only as core/path.h allows.  Without create a missing file
 * is an error naming it, and nothing is created.  0; -2 after a one-line
 * error about the location itself (bad input: exit 2); -1 after one about
 * opening it (a server down, a damaged file, a store that cannot be
 * written when it is to be). */
int store_open(struct store **st, const char *path, enum store_mode mode);
void store_close(struct store *st);
/* The location as opened, for messages: a URL has its password masked. */
const char *store_path(const struct store *st);
/* "sqlite" or "postgresql". */
const char *store_backend_name(const struct store *st);
/* location with any password (user:PASSWORD@, password=PASSWORD) replaced
 * by "***", for printing.  Malloc'd. */
char *store_mask_url(const char *location);
struct strlist;
/* Every spelling of a password in a URL that libpq might echo in its
 * messages (its URL-parse errors quote the URL, or a token of it): the
 * user:PASSWORD@ one and each password=VALUE, as written and
 * percent-decoded, appended to out. */
void store_url_secrets(const char *location, struct strlist *out);
/* text with every one of secrets replaced by "***" (one shorter than 4
 * characters only where it stands quoted, "PW").  Malloc'd. */
char *store_mask_secrets(const char *text, const struct strlist *secrets);

/* A run's name: 1 to STORE_NAME_MAX bytes of printable UTF-8, neither
 * "last" nor a number (which RUN reads as the newest run, or an id).
 * NULL when name is one, else why not. */
#define STORE_NAME_MAX 128
#define STORE_NAME_MAX_TEXT "128"
const char *store_name_invalid(const char *name);

/* A fresh version 4 UUID into buf (at least 37 bytes). */
void store_uuid(char *buf, size_t len);
/* "<suite base name>-YYYYmmdd-HHMMSS-PID" for a run begun at now by this
 * process: runs begun in the same second by two processes differ.
 * Malloc'd. */
char *store_default_name(const char *suite, double now);

/* Begin a run: status `incomplete`, a fresh UUID, the start time, kernel
 * and host taken from env (see store_env_kernel), env and suite_text stored
 * as given.  name may be NULL: "<suite>-<YYYYmmdd-HHMMSS>-<PID>"; either must
 * pass store_name_invalid. */
int store_run_begin(struct store *st, const char *name, const char *suite, const char *suite_text,
		    json_t *env, const char *tag, int64_t *run_id);
/* A run's place in a group, as store_run_begin_group records it. */
struct store_group {
	const char *uuid;     /* the group's, store_uuid() */
	const char *name;
	const char *variant;
	int index;            /* 0 is the base */
	json_t *plan;         /* see struct run */
};
/* store_run_begin for one run of a group: the run row carries the group
 * from its first moment. */
int store_run_begin_group(struct store *st, const char *name, const char *suite, const char *suite_text,
			  json_t *env, const char *tag, const struct store_group *group, int64_t *run_id);
/* Add a case to the plan (in suite order). options: the resolved options
 * (the store takes its own reference). */
int store_case_add(struct store *st, int64_t run_id, const char *case_name, const char *workload,
		   json_t *options, int64_t *case_id);
/* Store one finished iteration (0-based) of a case, atomically: the result
 * JSON and one row per metric.  Storing an iteration twice is an error. */
int store_result_add(struct store *st, int64_t case_id, int iteration, const struct result *r);
/* The same with the iteration's place in its group's order (see run_case). */
int store_result_add_seq(struct store *st, int64_t case_id, int iteration, int64_t seq, const struct result *r);
/* Set the final status (complete | incomplete | failed) and the end time. */
int store_run_end(struct store *st, int64_t run_id, const char *status);
/* Replace a run's environment fingerprint with env (a run adds what it
 * learnt as it ran, e.g. why it stopped adding iterations). */
int store_run_env_set(struct store *st, int64_t run_id, const json_t *env);

/* Runs, newest first.  Free with run_info_free_array (core/run.h). */
int store_list(struct store *st, struct run_info **runs, size_t *n);
/* RUN is an id, a unique name, a UUID, or "last".  0 or -1 after an error
 * naming it. */
int store_resolve(struct store *st, const char *spec, int64_t *run_id);
/* The same without a message: 0 when spec names exactly one run, else -1
 * (database errors are still reported). */
int store_resolve_quiet(struct store *st, const char *spec, int64_t *run_id);
/* GROUP is a group's name or UUID, or "last-group" (the group of the
 * newest run that has one): the ids of its runs, base first (*ids malloc'd,
 * *n of them).  0, or -1 after an error naming it; the quiet form prints
 * nothing unless the store fails, and returns -1 when spec names no group,
 * -2 when it names more than one. */
int store_resolve_group(struct store *st, const char *spec, int64_t **ids, size_t *n);
int store_resolve_group_quiet(struct store *st, const char *spec, int64_t **ids, size_t *n);
/* Load a whole run: info, env, suite text, cases and every stored iteration. */
int store_load_run(struct store *st, int64_t run_id, struct run **out);
/* The same with, of each iteration's result, only the parts a reader needs
 * (enum result_part; the head always): statistics need RESULT_HEAD alone,
 * a few KB of an iteration's hundreds.  Each case's `missing` says what was
 * left out. */
int store_load_run_parts(struct store *st, int64_t run_id, unsigned parts, struct run **out);
/* Read case c of run r (loaded from st) again one iteration at a time,
 * of each result the parts named (its outcome the one c holds), and hand
 * each to fn with its index in c, in order: the result is freed when fn
 * returns, so a reader that folds each into what it keeps holds one
 * iteration's detail at a time, however many the case has (a report's
 * graphs).  Iterations stored since r was loaded are not handed on.  0,
 * or -1 after a message (fn's own when it returned < 0). */
typedef int (*store_each_fn)(void *ctx, size_t i, const struct result *res);
int store_case_each(struct store *st, const struct run *r, const struct run_case *c, unsigned parts,
		    store_each_fn fn, void *ctx);
/* Iteration i of case c (of a run loaded from st), of its result the
 * parts named and its head, read alone into *out (free with result_free):
 * for a reader that needs the detail of one iteration or a few (plot-map's
 * one map), not of the case.  0, or -1 after a message. */
int store_iter_read(struct store *st, const struct run_case *c, size_t i, unsigned parts, struct result *out);
int store_delete_run(struct store *st, int64_t run_id);
/* 1 and the run's id when a run has this UUID, 0 when none, -1 on error. */
int store_find_uuid(struct store *st, const char *uuid, int64_t *run_id);
/* Copy a run, as it is, from one store into another (any back ends), keyed
 * by its UUID and written in one transaction: the destination then holds
 * the whole run or none of it, however the copy ends.  When the destination
 * has the run already, its copy is brought up to date if this one is
 * further along (more iterations stored, or as many and ended: a run copied
 * while it was still being written), else left alone; a copy is never
 * replaced by an older one, nor a run its writer is still writing there.
 * 0 when copied, 1 when the destination's copy was left as it is (nothing
 * written), 2 when it was brought up to date (its id kept), -1 after an
 * error.  *to_id: the run's id in the destination. */
int store_copy_run(struct store *from, int64_t run_id, struct store *to, int64_t *to_id);
/* The same for run r loaded from `from` already (store_load_run_parts,
 * any parts: the copy reads each iteration's whole result from there one
 * at a time as it writes it, store_case_each, so it holds one iteration's
 * result at a time, however many the run has; store_copy_run reads r so).
 * Iterations stored since r was loaded are left for a later copy. */
int store_copy_loaded(struct store *from, const struct run *r, struct store *to, int64_t *to_id);
/* The same for a run already loaded (store_load_run) from anywhere, or
 * built whole by the caller (info.uuid, name, status, started, ended,
 * niterations; env, cases). */
int store_import_run(struct store *st, const struct run *run, int64_t *run_id);
/* Whether a run has ended: complete, failed, or an end time. */
bool store_run_ended(const struct run_info *ri);
/* The status to show people: the stored one, but "running" for a run
 * still being written and "interrupted" for an incomplete one that is not. */
const char *run_info_state(const struct run_info *ri);

/* The kernel release named by an environment fingerprint ("kernel" as a
 * string or {"release": ...}, or "uname": {"release": ...}); NULL if none. */
const char *store_env_kernel(const json_t *env);
/* Seconds since the epoch as "2026-11-30T11:16:42Z" into buf; "invalid"
 * when no calendar date has it (NaN, beyond the year 9999). */
char *store_format_time(char *buf, size_t len, double t);

#endif
