/* Opening the SQLite store: the file checked before SQLite sees it, its
 * schema created or brought up to date, and the messages that say what is
 * wrong with a file in its user's words (shared with sqlite.c). */
#include "store/backend.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/path.h"
#include "core/util.h"
#include "store/sqlite_int.h"
#include "store/sqlitelib.h"

/* Migration i takes a file from version i to version i + 1.  Never edit one
 * that has shipped: add the next. */
static const char *const store_migrations[] = {
	/* 0 -> 1: runs, cases, iterations, metric rows */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  uuid TEXT NOT NULL UNIQUE,"
	"  name TEXT NOT NULL,"
	"  suite TEXT,"
	"  suite_text TEXT,"
	"  status TEXT NOT NULL CHECK (status IN ('complete','incomplete','failed')),"
	"  kernel TEXT,"
	"  host TEXT,"
	"  started REAL NOT NULL,"
	"  ended REAL,"
	"  tag TEXT,"
	"  env TEXT NOT NULL DEFAULT '{}');"
	"CREATE INDEX runs_name ON runs(name);"
	"CREATE TABLE cases ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  name TEXT NOT NULL,"
	"  workload TEXT NOT NULL,"
	"  options TEXT NOT NULL DEFAULT '{}',"
	"  UNIQUE (run_id, seq));"
	"CREATE TABLE iterations ("
	"  id INTEGER PRIMARY KEY,"
	"  case_id INTEGER NOT NULL REFERENCES cases(id) ON DELETE CASCADE,"
	"  iteration INTEGER NOT NULL,"
	"  outcome TEXT NOT NULL,"
	"  reason TEXT,"
	"  result TEXT NOT NULL,"
	"  UNIQUE (case_id, iteration));"
	"CREATE TABLE metrics ("
	"  iteration_id INTEGER NOT NULL REFERENCES iterations(id) ON DELETE CASCADE,"
	"  name TEXT NOT NULL,"
	"  unit TEXT NOT NULL,"
	"  better TEXT NOT NULL,"
	"  combine TEXT NOT NULL,"
	"  value REAL,"
	"  PRIMARY KEY (iteration_id, name));"
	"CREATE INDEX metrics_name ON metrics(name);",
	/* 1 -> 2: groups of runs made together (run --variant), and the
	 * order in which a group's iterations ran */
	"ALTER TABLE runs ADD COLUMN group_uuid TEXT;"
	"ALTER TABLE runs ADD COLUMN group_name TEXT;"
	"ALTER TABLE runs ADD COLUMN variant TEXT;"
	"ALTER TABLE runs ADD COLUMN variant_index INTEGER;"
	"ALTER TABLE runs ADD COLUMN group_plan TEXT;"
	"ALTER TABLE iterations ADD COLUMN seq INTEGER;"
	"CREATE INDEX runs_group_uuid ON runs(group_uuid);"
	"CREATE INDEX runs_group_name ON runs(group_name);",
};

/* One error of SQLite's, said of the file by what it means to its user:
 * a file that is not a database is not a results file; a damaged one is
 * said to be damaged, with how to check it; a full disk is named. */
static int store_say(struct store *st, const char *what, const char *msg)
{
	switch (sqlite3_errcode(st->db) & 0xff) {
	case SQLITE_NOTADB:
		return vmr_err("%s: not a vmregress results file (%s)", st->path, msg);
	case SQLITE_CORRUPT:
		return vmr_err("%s: %s: the file is damaged (%s); check it with: sqlite3 %s 'pragma integrity_check'",
			       st->path, what, msg, st->path);
	case SQLITE_FULL:
		return vmr_err("%s: %s: no room left on its file system (%s)", st->path, what, msg);
	default:
		return vmr_err("%s: %s: %s", st->path, what, msg);
	}
}

int store_fail(struct store *st, const char *what)
{
	return store_say(st, what, sqlite3_errmsg(st->db));
}

int store_exec(struct store *st, const char *sql, const char *what)
{
	char *msg = NULL;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		store_say(st, what, msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

sqlite3_stmt *store_prepare(struct store *st, const char *sql)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
		store_fail(st, "cannot prepare a query");
		return NULL;
	}
	return s;
}

/* Writers take the lock at BEGIN, so two writers wait (busy timeout) instead
 * of failing half-way with SQLITE_BUSY on upgrade. */
int store_begin(struct store *st)
{
	return store_exec(st, "BEGIN IMMEDIATE", "cannot start a transaction");
}

int store_commit(struct store *st)
{
	return store_exec(st, "COMMIT", "cannot commit");
}

void store_rollback(struct store *st)
{
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

static int store_user_version(struct store *st, int *v)
{
	sqlite3_stmt *s = store_prepare(st, "PRAGMA user_version");
	if (!s)
		return -1;
	int rc = sqlite3_step(s);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : store_fail(st, "cannot read the schema version");
}

/* The version lives in PRAGMA user_version and, for people reading the file
 * with other tools, in a one-row table schema_version. */
static int store_migrate(struct store *st)
{
	int v;
	if (store_begin(st) < 0)
		return -1;
	if (store_user_version(st, &v) < 0)
		goto rollback;
	if (v < 0) {
		vmr_err("%s: not a vmregress results file (schema version %d)", st->path, v);
		goto rollback;
	}
	if (v > (int)ARRAY_SIZE(store_migrations)) {
		vmr_err("%s: schema version %d is newer than this vmregress knows (%d)", st->path, v,
			(int)ARRAY_SIZE(store_migrations));
		goto rollback;
	}
	if (v == 0 && store_exec(st, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
				 "DELETE FROM schema_version; INSERT INTO schema_version VALUES (0)",
				 "cannot create the schema") < 0)
		goto rollback;
	for (; v < (int)ARRAY_SIZE(store_migrations); v++) {
		if (store_exec(st, store_migrations[v], "cannot migrate the schema") < 0)
			goto rollback;
		char *sql = xasprintf("PRAGMA user_version = %d; UPDATE schema_version SET version = %d", v + 1, v + 1);
		int rc = store_exec(st, sql, "cannot record the schema version");
		free(sql);
		if (rc < 0)
			goto rollback;
	}
	return store_commit(st);
rollback:
	store_rollback(st);
	return -1;
}

/* A store opened read-only cannot be migrated: it must be at this
 * version already. */
static int store_version_check(struct store *st)
{
	int v;
	if (store_user_version(st, &v) < 0)
		return -1;
	if (v == (int)ARRAY_SIZE(store_migrations))
		return 0;
	if (v <= 0)
		return vmr_err("%s: not a vmregress results file (schema version %d)", st->path, v);
	if (v > (int)ARRAY_SIZE(store_migrations))
		return vmr_err("%s: schema version %d is newer than this vmregress knows (%d)", st->path, v,
			       (int)ARRAY_SIZE(store_migrations));
	return vmr_err("%s: schema version %d is older than this vmregress's (%d), and the file cannot be "
		       "written here to bring it up to date: copy it where it can be", st->path, v,
		       (int)ARRAY_SIZE(store_migrations));
}

/* The results file a path names, before SQLite opens it: a regular file,
 * or absent when create (then its directory is made); reached through a
 * symbolic link only as core/path.h allows.  SQLite would open a device
 * or a FIFO and leave "<device>-journal" beside it.  The file to open
 * (the link resolved), or NULL after a message. */
static char *sqlite_file(const char *path, bool create)
{
	char *file, *failed = NULL;
	struct stat sb = { 0 };
	int r = path_resolve_last(path, &file, &sb);
	if (r == 0 && !S_ISREG(sb.st_mode))
		r = S_ISDIR(sb.st_mode) ? -EISDIR : -EINVAL;
	if (r < 0)
		vmr_err("%s: cannot use as a results file: %s", path, path_strerror(-r));
	else if (r == 1 && !create)
		vmr_err("%s: no such results file (nothing stored there yet? see --db)", path);
	else if (r == 1 && vmr_mkdir_parent(path, &failed) < 0)
		vmr_errno("cannot create %s", failed);
	else
		return file;
	free(failed);
	free(file);
	return NULL;
}

/* How long a writer waits for another's lock (SQLite's busy timeout). */
#define STORE_BUSY_MS 10000
/* A run is refused when the results file's file system has less room
 * than this: its first iterations would fail to be stored. */
#define STORE_ROOM_MIN (1u << 20)

/* The directory of file, where SQLite keeps "-wal" and "-shm".  Malloc'd. */
static char *sqlite_dir(const char *file)
{
	const char *slash = strrchr(file, '/');
	return slash == file ? xstrdup("/") : slash ? xasprintf("%.*s", (int)(slash - file), file) : xstrdup(".");
}

/* Whether the results file (or, absent, its directory) can be written,
 * and its directory too: 0, or -errno.  As root only a read-only file
 * system (EROFS) or an immutable or append-only file (EPERM) says no. */
static int sqlite_writable(const char *file)
{
	char *dir = sqlite_dir(file);
	int e = (access(file, W_OK) < 0 && errno != ENOENT) || access(dir, W_OK) < 0 ? -errno : 0;
	free(dir);
	return e;
}

static const char *sqlite_unwritable_why(int e)
{
	return e == -EPERM ? "it is immutable or append-only (lsattr shows it; chattr -i -a lifts it)" : strerror(-e);
}

/* Refuse to begin a run that could not be stored: its file system full. */
static int sqlite_room(const char *path, const char *file)
{
	char *dir = sqlite_dir(file);
	struct statvfs vfs = { 0 };
	int rc = statvfs(dir, &vfs);
	free(dir);
	uint64_t room = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (rc == 0 && room < STORE_ROOM_MIN)
		return vmr_err("%s: no room to store a run: %llu kB free on its file system, under %u kB", path,
			       (unsigned long long)(room >> 10), STORE_ROOM_MIN >> 10);
	return 0;
}

/* Below this much room, SQLite cannot make the "-shm" (32 kB) a reader of
 * a WAL store needs. */
#define STORE_READ_ROOM_MIN (64u << 10)

/* Whether the file system of file is too full to open it read-write: no
 * room for "-shm", or no inode left for it. */
static bool sqlite_full(const char *file)
{
	char *dir = sqlite_dir(file);
	struct statvfs vfs = { 0 };
	int rc = statvfs(dir, &vfs);
	free(dir);
	return rc == 0 && ((uint64_t)vfs.f_bavail * vfs.f_frsize < STORE_READ_ROOM_MIN || (vfs.f_files && !vfs.f_favail));
}

/* "file:PATH?immutable=1": a file that nothing can change (a read-only
 * file system, an immutable file), read without the locks, "-wal" and
 * "-shm" files SQLite would otherwise need (and could not make, or would
 * leave behind).  Malloc'd. */
static char *sqlite_immutable_uri(const char *file)
{
	static const char hex[] = "0123456789ABCDEF";
	char *uri = xmalloc(3 * strlen(file) + 32), *o = uri;
	o += sprintf(o, "file:");
	for (const unsigned char *p = (const unsigned char *)file; *p; p++) {
		if (isalnum(*p) || strchr("/._-~", *p)) {
			*o++ = (char)*p;
		} else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	strcpy(o, "?immutable=1");
	return uri;
}

/* WAL: readers never block the writer.  Changing a new file's journal mode
 * needs it to itself, and while another process creates the schema (its
 * BEGIN IMMEDIATE) SQLite answers SQLITE_BUSY at once, without calling the
 * busy handler (waiting there could deadlock): so two runs creating one
 * store at once would lose one.  Wait here as for any writer's lock. */
static int sqlite_wal(struct store *st)
{
	uint64_t t0 = vmr_now_ns();
	for (;;) {
		int rc = sqlite3_exec(st->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL) & 0xff;
		if (rc == SQLITE_OK)
			return 0;
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || vmr_now_ns() - t0 > STORE_BUSY_MS * 1000000ull)
			return store_fail(st, "cannot open the results file");
		usleep(10 * 1000);
	}
}

/* A store to read is opened read-write where it can be written (SQLite's
 * last connection then removes its "-wal" and "-shm"; a read-only one
 * cannot, and leaves them), read-only where it cannot, and as immutable
 * where nothing can write it or its file system is too full for "-shm"
 * (then what a writer has not yet moved from its "-wal" is not seen).  A store to write is refused before SQLite
 * opens it (which would leave empty "-wal" and "-shm" files) when it
 * cannot be written, and when there is no room for a run. */
int sqlite_open(struct store **out, const char *path, enum store_mode mode)
{
	const char *why = NULL;
	if (lazylib_load(&sqlitelib_lib, &why) < 0)
		return vmr_err("%s: %s", path, why);
	bool create = mode == STORE_CREATE;
	char *file = sqlite_file(path, create), *uri = NULL;
	if (!file)
		return -2;
	int unwritable = sqlite_writable(file);
	bool full = mode == STORE_READ && unwritable == 0 && sqlite_full(file);
	bool readonly = mode == STORE_READ && (unwritable < 0 || full);
	if (mode != STORE_READ && unwritable < 0) {
		vmr_err("%s: cannot write to the results file: %s", path, sqlite_unwritable_why(unwritable));
		free(file);
		return -1;
	}
	if (create && sqlite_room(path, file) < 0) {
		free(file);
		return -1;
	}
	struct store *st = xcalloc(1, sizeof(*st));
	st->path = file;
	st->lockfd = -1;
	/* NOFOLLOW: a link put there since the check above is not followed. */
	int flags = SQLITE_OPEN_NOFOLLOW |
		    (readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0));
	static bool full_said;   /* once: a command may open its store more than once */
	if (full && !full_said) {
		full_said = true;
		vmr_warn("%s: its file system is full: read as it is on disk, so a run being written now may "
			 "lack its newest rows", path);
	}
	if (readonly && (full || unwritable == -EROFS || unwritable == -EPERM)) {
		uri = sqlite_immutable_uri(file);
		flags |= SQLITE_OPEN_URI;
	}
	if (sqlite3_open_v2(uri ? uri : file, &st->db, flags, NULL) != SQLITE_OK) {
		if (st->db)
			store_fail(st, "cannot open the results file");
		else
			vmr_err("%s: cannot open the results file: out of memory", path);
		goto close_db;
	}
	sqlite3_busy_timeout(st->db, STORE_BUSY_MS);
	if (readonly) {
		if (store_version_check(st) < 0)
			goto close_db;
	} else if (sqlite_wal(st) < 0 ||
		   /* synchronous=NORMAL keeps every committed iteration across
		    * a crash of the process (not of the host) */
		   store_exec(st, "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON",
			      "cannot open the results file") < 0 ||
		   store_migrate(st) < 0) {
		goto close_db;
	}
	free(uri);
	*out = st;
	return 0;
close_db:
	sqlite3_close(st->db);
	free(uri);
	free(st->path);
	free(st);
	return -1;
}

void sqlite_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	sqlite_lockfile_tidy(st);
	free(st->path);
	free(st);
}
