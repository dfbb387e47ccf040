/* The store's front: picks a back end from the location, forwards each call
 * to it, and holds what both back ends share (UUIDs, names, run structs,
 * masking credentials in URLs, copying runs between stores). */
#include "store/backend.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <ctype.h>
#include <errno.h>
#include <unistd.h>

#include "core/spelling.h"
#include "core/util.h"

static bool store_is_pg_url(const char *loc)
{
	return !strncmp(loc, "postgresql://", 13) || !strncmp(loc, "postgres://", 11);
}

/* The length of loc's URL scheme ("mysql" in "mysql://x/y"), or 0 when
 * loc does not begin with SCHEME:// (RFC 3986: a letter, then letters,
 * digits, '+', '-' or '.'). */
static size_t store_url_scheme(const char *loc)
{
	size_t n = isalpha((unsigned char)loc[0]) ? strspn(loc, "abcdefghijklmnopqrstuvwxyz"
						     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.") : 0;
	return n && !strncmp(loc + n, "://", 3) ? n : 0;
}

/* The back end a location names, and the location that back end opens;
 * NULL for a URL of a scheme no back end reads (not a file "mysql:/x/y"). */
static const struct store_backend *store_pick(const char *loc, const char **where)
{
	*where = loc;
	if (store_is_pg_url(loc))
		return &store_pg_backend;
	if (!strncmp(loc, "sqlite:", 7)) {
		*where = loc + 7;
		return &store_sqlite_backend;
	}
	return store_url_scheme(loc) ? NULL : &store_sqlite_backend;
}

char *store_default_path(void)
{
	const char *env = getenv("VMREGRESS_DB");
	if (env && *env)
		return xstrdup(env);
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg && *xdg == '/')
		return xasprintf("%s/vmregress/results.db", xdg);
	const char *home = getenv("HOME");
	return xasprintf("%s/.local/share/vmregress/results.db", home && *home ? home : "/root");
}

int store_open(struct store **st, const char *path, enum store_mode mode)
{
	const char *where;
	const struct store_backend *be = store_pick(path, &where);
	*st = NULL;
	if (!be) {
		char *masked = store_mask_url(path);
		vmr_err("%s: unknown store URL scheme '%.*s' (a file, sqlite:FILE or postgresql://...)", masked,
			(int)store_url_scheme(path), path);
		free(masked);
		return -2;
	}
	int rc = be->open(st, where, mode);
	if (rc < 0)
		return rc;
	(*st)->be = be;
	(*st)->mode = mode;
	return 0;
}

/* A store opened to read is not written through, even where its back end
 * could (SQLite opens a writable file read-write to read it): the write
 * would bypass what opening to write checks (room, a writable medium). */
static int store_writing(struct store *st, const char *what)
{
	if (st->mode != STORE_READ)
		return 0;
	return vmr_err("%s: cannot %s: the store was opened only to read", st->path, what);
}

void store_close(struct store *st)
{
	if (st)
		st->be->close(st);
}

const char *store_path(const struct store *st)
{
	return st->path;
}

const char *store_backend_name(const struct store *st)
{
	return st->be->name;
}

/* The length of the UTF-8 sequence at s that is one printable character
 * (not a C0 or C1 control, not DEL), or 0. */
static size_t store_name_char(const unsigned char *s)
{
	if (*s >= 0x20 && *s < 0x7f)
		return 1;
	size_t n = *s >= 0xc2 && *s <= 0xdf ? 2 : *s >= 0xe0 && *s <= 0xef ? 3 : *s >= 0xf0 && *s <= 0xf4 ? 4 : 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 2 && *s == 0xc2 && s[1] < 0xa0)
		return 0; /* C1 controls */
	if ((n == 3 && *s == 0xe0 && s[1] < 0xa0) || (n == 3 && *s == 0xed && s[1] >= 0xa0) ||
	    (n == 4 && *s == 0xf0 && s[1] < 0x90) || (n == 4 && *s == 0xf4 && s[1] >= 0x90))
		return 0; /* overlong, surrogates, beyond U+10FFFF */
	return n;
}

const char *store_name_invalid(const char *name)
{
	size_t len = strlen(name);
	if (!len)
		return "a run's name cannot be empty";
	if (len > STORE_NAME_MAX)
		return "a run's name is at most " STORE_NAME_MAX_TEXT " bytes";
	for (const unsigned char *p = (const unsigned char *)name; *p;) {
		size_t n = store_name_char(p);
		if (!n)
			return "a run's name is printable UTF-8 text, without control characters";
		p += n;
	}
	if (!strcmp(name, "last") || strspn(name, "0123456789") == len)
		return "a run's name cannot be \"last\" or a number: RUN would mean another run";
	return NULL;
}

/* VMREGRESS_HOST names the host in a run's fingerprint instead of the real
 * one, so tests can play several machines on one.  Hidden: not for users. */
static json_t *store_env_for_run(json_t *env)
{
	const char *host = getenv("VMREGRESS_HOST");
	if (!host || !*host)
		return json_incref(env);
	json_t *e = env ? json_deep_copy(env) : json_object();
	json_object_set_new(e, "hostname", json_string(host));
	return e;
}

/* A run about to begin: a fresh UUID, now, and the kernel and host the
 * environment names (else this machine's). */
static struct run *store_new_run(const char *name, const char *suite, const char *suite_text, json_t *env,
				 const char *tag, const struct store_group *g)
{
	struct run *r = xcalloc(1, sizeof(*r));
	struct run_info *ri = &r->info;
	char uuid[40];
	struct utsname u = { 0 };
	uname(&u);
	store_uuid(uuid, sizeof(uuid));
	r->env = store_env_for_run(env);
	const char *kernel = store_env_kernel(r->env), *host = store_env_host(r->env);
	ri->started = vmr_wall_s();
	ri->uuid = xstrdup(uuid);
	ri->name = name ? xstrdup(name) : store_default_name(suite, ri->started);
	ri->suite = suite ? xstrdup(suite) : NULL;
	ri->status = xstrdup("incomplete");
	ri->kernel = xstrdup(kernel ? kernel : u.release);
	ri->host = xstrdup(host ? host : u.nodename);
	ri->tag = tag ? xstrdup(tag) : NULL;
	r->suite_text = suite_text ? xstrdup(suite_text) : NULL;
	if (g) {
		ri->group_uuid = xstrdup(g->uuid);
		ri->group_name = xstrdup(g->name);
		ri->variant = xstrdup(g->variant);
		ri->variant_index = g->index;
		r->group_plan = json_incref(g->plan);
	}
	return r;
}

int store_run_begin(struct store *st, const char *name, const char *suite, const char *suite_text, json_t *env,
		    const char *tag, int64_t *run_id)
{
	return store_run_begin_group(st, name, suite, suite_text, env, tag, NULL, run_id);
}

int store_run_begin_group(struct store *st, const char *name, const char *suite, const char *suite_text,
			  json_t *env, const char *tag, const struct store_group *group, int64_t *run_id)
{
	const struct store_backend *be = st->be;
	if (store_writing(st, "begin a run") < 0)
		return -1;
	struct run *r = store_new_run(name, suite, suite_text, env, tag, group);
	bool held = false;
	const char *why = store_name_invalid(r->info.name);
	if (why) {
		vmr_err("%s: cannot begin the run: %s", st->path, why);
		run_free(r);
		return -1;
	}
	/* The row and its writer's lock appear together: no one sees the run
	 * before it is running. */
	int rc = be->begin(st, true);
	if (rc == 0 && (rc = be->run_insert(st, r, run_id)) > 0) {
		vmr_err("%s: a run with UUID %s is stored already", st->path, r->info.uuid);
		rc = -1;
	}
	if (rc == 0)
		held = (rc = be->hold(st, *run_id, true)) == 0;
	if (rc == 0)
		rc = be->commit(st);
	else
		be->rollback(st);
	if (rc < 0 && held)
		be->hold(st, *run_id, false);
	run_free(r);
	return rc;
}

int store_case_add(struct store *st, int64_t run_id, const char *case_name, const char *workload, json_t *options,
		   int64_t *case_id)
{
	if (store_writing(st, "add a case") < 0)
		return -1;
	return st->be->case_add(st, run_id, case_name, workload, options, case_id);
}

int store_result_add(struct store *st, int64_t case_id, int iteration, const struct result *r)
{
	return store_result_add_seq(st, case_id, iteration, -1, r);
}

int store_result_add_seq(struct store *st, int64_t case_id, int iteration, int64_t seq, const struct result *r)
{
	if (store_writing(st, "add an iteration") < 0 || st->be->begin(st, true) < 0)
		return -1;
	if (st->be->iteration_insert(st, case_id, iteration, seq, r) < 0) {
		st->be->rollback(st);
		return -1;
	}
	return st->be->commit(st);
}

int store_run_end(struct store *st, int64_t run_id, const char *status)
{
	if (store_writing(st, "end a run") < 0)
		return -1;
	int rc = st->be->run_end(st, run_id, status);
	if (st->be->hold(st, run_id, false) < 0)
		rc = -1;
	return rc;
}

int store_run_env_set(struct store *st, int64_t run_id, const json_t *env)
{
	if (store_writing(st, "set a run's environment") < 0)
		return -1;
	return st->be->env_set(st, run_id, env);
}

int store_list(struct store *st, struct run_info **runs, size_t *n)
{
	return st->be->list(st, runs, n);
}

/* RUN is "last", an id, or a unique name or UUID; each back end answers
 * the lookups, the rules and the messages are here once. */
static int store_resolve_spec(struct store *st, const char *spec, int64_t *run_id, bool quiet)
{
	int64_t ids[2];
	int n;
	if (!strcmp(spec, "last")) {
		if (st->be->match(st, STORE_BY_LAST, NULL, ids, &n) < 0)
			return -1;
		if (!n) {
			if (!quiet)
				vmr_err("last: no runs stored in %s", st->path);
			return -1;
		}
		*run_id = ids[0];
		return 0;
	}
	char *end;
	errno = 0;
	long long id = strtoll(spec, &end, 10);
	if (*spec && !*end && !errno) {
		if (st->be->match(st, STORE_BY_ID, spec, ids, &n) < 0)
			return -1;
		if (n) {
			*run_id = id;
			return 0;
		}
	}
	if (st->be->match(st, STORE_BY_NAME, spec, ids, &n) < 0)
		return -1;
	if (n == 1) {
		*run_id = ids[0];
		return 0;
	}
	if (quiet)
		return -1;
	if (n > 1)
		vmr_err("%s: more than one run has this name (use its id; see vmregress list)", spec);
	else
		vmr_err("%s: no such run in %s (see vmregress list)", spec, st->path);
	return -1;
}

int store_resolve(struct store *st, const char *spec, int64_t *run_id)
{
	return store_resolve_spec(st, spec, run_id, false);
}

int store_resolve_quiet(struct store *st, const char *spec, int64_t *run_id)
{
	return store_resolve_spec(st, spec, run_id, true);
}

/* A group spec's UUID: "last-group", else a name or UUID that one group
 * has.  0, or -1 (after a message unless quiet). */
static int store_group_uuid(struct store *st, const char *spec, char **uuid, bool quiet)
{
	bool last = !strcmp(spec, "last-group");
	int n = 0;
	*uuid = NULL;
	if (st->be->group_find(st, last ? NULL : spec, uuid, &n) < 0)
		return -1;
	if (n == 1)
		return 0;
	free(*uuid);
	*uuid = NULL;
	if (quiet)
		return n > 1 ? -2 : -1;
	if (last)
		vmr_err("last-group: no group of runs stored in %s (run a suite with --variant to make one)", st->path);
	else if (n > 1)
		vmr_err("%s: more than one group has this name (use its UUID; see vmregress list --json)", spec);
	else
		vmr_err("%s: no such group in %s (see vmregress list)", spec, st->path);
	return -1;
}

static int store_resolve_group_spec(struct store *st, const char *spec, int64_t **ids, size_t *n, bool quiet)
{
	char *uuid;
	*ids = NULL;
	*n = 0;
	int rc = store_group_uuid(st, spec, &uuid, quiet);
	if (rc < 0)
		return rc;
	rc = st->be->group_runs(st, uuid, ids, n);
	free(uuid);
	return rc;
}

int store_resolve_group(struct store *st, const char *spec, int64_t **ids, size_t *n)
{
	return store_resolve_group_spec(st, spec, ids, n, false);
}

int store_resolve_group_quiet(struct store *st, const char *spec, int64_t **ids, size_t *n)
{
	return store_resolve_group_spec(st, spec, ids, n, true);
}

char *store_plan_text(const struct run *run)
{
	return run->group_plan ? store_json_text(run->group_plan, true) : NULL;
}

json_t *store_plan_parse(const char *text)
{
	return text ? json_loads(text, 0, NULL) : NULL;
}

char *store_json_text(const json_t *j, bool sorted)
{
	char *text = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17) | (sorted ? JSON_SORT_KEYS : 0)) : NULL;
	return text ? text : xstrdup("{}");
}

char *store_result_text(struct store *st, const struct result *r)
{
	json_t *j = result_to_json(r);
	char *text = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(17));
	json_decref(j);
	if (!text)
		vmr_err("%s: cannot serialise a result", st->path);
	return text;
}

int store_delete_run(struct store *st, int64_t run_id)
{
	if (store_writing(st, "delete a run") < 0)
		return -1;
	return st->be->delete_run(st, run_id);
}

int store_find_uuid(struct store *st, const char *uuid, int64_t *run_id)
{
	return st->be->find_uuid(st, uuid, run_id);
}

bool store_run_ended(const struct run_info *ri)
{
	return ri->ended > 0 || (ri->status && strcmp(ri->status, "incomplete"));
}

const char *run_info_state(const struct run_info *ri)
{
	if (ri->running)
		return "running";
	return store_run_ended(ri) ? ri->status : "interrupted";
}

/* Whether copy a of a run is further along than copy b.  A run only grows
 * (iterations are added, then it ends), so this orders its copies. */
static bool store_run_newer(const struct run_info *a, const struct run_info *b)
{
	if (a->niterations != b->niterations)
		return a->niterations > b->niterations;
	return store_run_ended(a) && !store_run_ended(b);
}

/* Inside the import's transaction, with the destination's row locked: 1
 * when its copy of the run should be replaced by run, 0 if not, -1. */
static int store_import_replaces(struct store *st, const struct run *run, int64_t run_id)
{
	struct run *have = xcalloc(1, sizeof(*have));
	int rc = st->be->info(st, run_id, have) < 0 ? -1 :
		 !have->info.running && store_run_newer(&run->info, &have->info);
	run_free(have);
	return rc;
}

/* One iteration read from the source store into the destination's
 * transaction (store_copy_loaded through store_case_each). */
struct store_copy_case {
	struct store *to;
	const struct run_case *c;
	int64_t case_id;
};

static int store_copy_iteration(void *ctx, size_t i, const struct result *res)
{
	const struct store_copy_case *k = ctx;
	return k->to->be->iteration_insert(k->to, k->case_id, k->c->iter_no ? k->c->iter_no[i] : (int)i,
					   k->c->iter_seq ? k->c->iter_seq[i] : -1, res);
}

/* The cases of run with their iterations: those run holds, or with from
 * set each read from there one at a time as it is written. */
static int store_import_cases(struct store *st, int64_t run_id, const struct run *run, struct store *from)
{
	for (size_t i = 0; i < run->ncases; i++) {
		const struct run_case *c = &run->cases[i];
		struct store_copy_case k = { .to = st, .c = c };
		if (st->be->case_add(st, run_id, c->name, c->workload, c->options, &k.case_id) < 0)
			return -1;
		if (from) {
			if (c->niter && store_case_each(from, run, c, RESULT_ALL, store_copy_iteration, &k) < 0)
				return -1;
			continue;
		}
		for (size_t n = 0; n < c->niter; n++)
			if (store_copy_iteration(&k, n, &c->iters[n]) < 0)
				return -1;
	}
	return 0;
}

static int store_import(struct store *st, const struct run *run, struct store *from, int64_t *run_id)
{
	const struct store_backend *be = st->be;
	if (store_writing(st, "copy a run in") < 0 || be->begin(st, true) < 0)
		return -1;
	int rc = be->run_insert(st, run, run_id);
	if (rc == 1) {
		int replace = store_import_replaces(st, run, *run_id);
		if (replace <= 0) {
			be->rollback(st);
			return replace < 0 ? -1 : 1;
		}
		if (be->run_replace(st, *run_id, run) < 0)
			goto rollback;
		rc = 2;
	}
	if (rc < 0 || store_import_cases(st, *run_id, run, from) < 0)
		goto rollback;
	return be->commit(st) < 0 ? -1 : rc;
rollback:
	be->rollback(st);
	return -1;
}

int store_import_run(struct store *st, const struct run *run, int64_t *run_id)
{
	return store_import(st, run, NULL, run_id);
}

int store_copy_loaded(struct store *from, const struct run *r, struct store *to, int64_t *to_id)
{
	return store_import(to, r, from, to_id);
}

int store_copy_run(struct store *from, int64_t run_id, struct store *to, int64_t *to_id)
{
	struct run *r = NULL;
	/* the run's rows, with each iteration's metrics alone: the whole
	 * results are read one at a time as they are written */
	if (store_load_run_parts(from, run_id, RESULT_METRICS, &r) < 0)
		return -1;
	int rc = store_copy_loaded(from, r, to, to_id);
	run_free(r);
	return rc;
}

void store_uuid(char *buf, size_t len)
{
	unsigned char b[16];
	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		uint64_t t = vmr_now_ns() ^ (uint64_t)getpid() << 32;
		for (size_t i = 0; i < sizeof(b); i++, t = t * 6364136223846793005ull + 1442695040888963407ull)
			b[i] = (unsigned char)(t >> 56);
	}
	b[6] = (b[6] & 0x0f) | 0x40; /* version 4 */
	b[8] = (b[8] & 0x3f) | 0x80; /* RFC 4122 variant */
	snprintf(buf, len, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
		 b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

const char *store_env_kernel(const json_t *env)
{
	json_t *k = json_object_get(env, "kernel");
	if (json_is_string(k))
		return json_string_value(k);
	if (json_is_object(k) && json_is_string(json_object_get(k, "release")))
		return json_string_value(json_object_get(k, "release"));
	json_t *u = json_object_get(env, "uname");
	if (json_is_string(json_object_get(u, "release")))
		return json_string_value(json_object_get(u, "release"));
	return NULL;
}

const char *store_env_host(const json_t *env)
{
	static const char *const keys[] = { "host", "hostname", "nodename" };
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (json_is_string(json_object_get(env, keys[i])))
			return json_string_value(json_object_get(env, keys[i]));
	json_t *u = json_object_get(env, "uname");
	if (json_is_string(json_object_get(u, "nodename")))
		return json_string_value(json_object_get(u, "nodename"));
	return NULL;
}

char *store_format_time(char *buf, size_t len, double t)
{
	/* a damaged store may hold any number: only years 0 to 9999 convert */
	bool ok = t > -62167219200.0 && t < 253402300800.0;
	time_t s = ok ? (time_t)t : 0;
	struct tm tm = { 0 };
	if (!ok || !gmtime_r(&s, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "invalid");
	return buf;
}

char *store_default_name(const char *suite, double now)
{
	time_t s = (time_t)now;
	struct tm tm = { 0 };
	char when[32];
	localtime_r(&s, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	const char *base = suite ? strrchr(suite, '/') : NULL;
	base = base ? base + 1 : suite ? suite : "run";
	size_t n = strcspn(base, ".");
	/* the process too: two runs begun in the same second are told apart */
	return xasprintf("%.*s-%s-%ld", (int)(n ? n : strlen(base)), base, when, (long)getpid());
}
