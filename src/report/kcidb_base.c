/* What every KCIDB object of a run is made of (report/kcidb_int.h): the
 * origin, the run's part of the ids, times, test path components and a
 * test's common fields.  kcidb.c and kcidb_kselftest.c build on it; it
 * calls neither. */
#include "report/kcidb_int.h"

#include "core/util.h"
#include "store/store.h"

#define KCIDB_ORIGIN_DEFAULT "vmregress"

const char *kcidb_origin(const struct kcidb_source *s)
{
	return s->origin ? s->origin : KCIDB_ORIGIN_DEFAULT;
}

/* The part of every id that names the run: its UUID, or its name for a run
 * read from a file that has none. */
const char *kcidb_run_key(const struct run *r)
{
	return r->info.uuid ? r->info.uuid : r->info.name;
}

/* A component of a test path: KCIDB's paths are dot-separated, so a dot (or
 * anything but letters, digits, '-' and '_') in a name becomes '_'. */
char *kcidb_path_part(const char *name)
{
	char *p = xstrdup(name && *name ? name : "unnamed");
	for (char *c = p; *c; c++)
		if (!(((*c | 32) >= 'a' && (*c | 32) <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_'))
			*c = '_';
	return p;
}

json_t *kcidb_time(double t)
{
	char buf[64];
	return json_string(store_format_time(buf, sizeof(buf), t));
}

/* Where the run ran, for every test of it. */
static json_t *kcidb_environment(const struct run *r)
{
	const struct run_info *i = &r->info;
	json_t *misc = json_pack("{ss* ss* ss* ss* ss*}", "host", i->host, "kernel", i->kernel, "run", i->name,
				 "group", i->group_name, "variant", i->variant);
	return json_pack("{s:s+ s:o}", "comment", "vmregress on ", i->host ? i->host : "an unnamed host", "misc", misc);
}

json_t *kcidb_test_base(const struct run *r, const struct kcidb_source *s, const char *id_tail, const char *path)
{
	const char *o = kcidb_origin(s);
	json_t *t = json_object();
	json_object_set_new(t, "id", json_sprintf("%s:%s:%s", o, kcidb_run_key(r), id_tail));
	json_object_set_new(t, "build_id", json_sprintf("%s:%s", o, kcidb_run_key(r)));
	json_object_set_new(t, "origin", json_string(o));
	json_object_set_new(t, "path", json_string(path));
	json_object_set_new(t, "environment", kcidb_environment(r));
	if (r->info.started > 0)
		json_object_set_new(t, "start_time", kcidb_time(r->info.started));
	return t;
}
