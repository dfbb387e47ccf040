#include "harness/suite.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/suggest.h"
#include "core/util.h"

#ifndef VMR_SUITE_DIR
#define VMR_SUITE_DIR "/usr/local/share/vmregress/suites"
#endif

const struct opt suite_opts[] = {
	{ .name = "iterations", .type = OPT_INT, .off = offsetof(struct suite_settings, iterations), .def = "1",
	  .min = 1, .max = 10000, .metavar = "N", .help = "run each case N times" },
	{ .name = "monitor-interval", .type = OPT_TIME, .off = offsetof(struct suite_settings, monitor_interval_ns),
	  .def = "1s", .min = 50e6, .max = 3600e9, .metavar = "TIME",
	  .help = "sample /proc/vmstat, meminfo, pressure and the sandbox's stats this often" },
	{ .name = "probe-period", .type = OPT_TIME, .off = offsetof(struct suite_settings, probe_period_ns),
	  .def = "10ms", .min = 1e6, .max = 1e9, .metavar = "TIME",
	  .help = "the latency probe wakes this often and records how late it woke" },
	{ .name = "no-monitor", .type = OPT_FLAG, .off = offsetof(struct suite_settings, no_monitor),
	  .help = "do not sample monitors while cases run" },
	{ .name = "no-probe", .type = OPT_FLAG, .off = offsetof(struct suite_settings, no_probe),
	  .help = "do not run the latency probe beside cases" },
	{ .name = "refs-generate", .type = OPT_STR, .off = offsetof(struct suite_settings, refs_generate),
	  .metavar = "ARGS", .help = "generate the case's reference trace with these 'vmregress refs generate' "
	  "arguments (--pages N --references M --pattern P --seed S)" },
	{ .name = "order", .type = OPT_ENUM, .off = offsetof(struct suite_settings, order), .def = "abba",
	  .choices = PLAN_ORDER_CHOICES, .metavar = "ORDER", .help = "how the iterations of variants interleave: "
	  "abba (blocks of one iteration each, every block the reverse of the last) or random (each block a "
	  "seeded random permutation)" },
	{ .name = "seed", .type = OPT_INT, .off = offsetof(struct suite_settings, seed), .def = "-1", .min = -1,
	  .max = 9007199254740991.0, .metavar = "N", .help = "the seed of order = random (default: drawn, and "
	  "stored with the runs)" },
	{ .name = "precision", .type = OPT_STR, .off = offsetof(struct suite_settings, precision), .def = "2%",
	  .metavar = "P", .help = "with iterations = auto: the 95% confidence interval's half-width, relative to "
	  "the mean, every headline metric must reach (2% or 0.02)" },
	{ .name = "effect", .type = OPT_STR, .off = offsetof(struct suite_settings, effect), .metavar = "E",
	  .help = "with iterations = auto, instead of precision: run each case until compare's test could see a "
	  "change of E (5% or 0.05) in every headline metric with 80% power, as `vmregress plan` counts" },
	{ .name = "budget", .type = OPT_TIME, .off = offsetof(struct suite_settings, budget_ns), .def = "2m",
	  .min = 1e9, .max = 7 * 86400e9, .metavar = "TIME",
	  .help = "with iterations = auto: the most time the run's cases may take, shared evenly between them" },
	{ .name = "warmup", .type = OPT_INT, .off = offsetof(struct suite_settings, warmup), .def = "0",
	  .min = 0, .max = 100, .metavar = "N", .help = "run N warm-up iterations of each case (and variant) "
	  "first: stored as skipped, not counted" },
	{ .name = "cpu", .type = OPT_STR, .off = offsetof(struct suite_settings, cpu), .metavar = "LIST",
	  .help = "pin the workload to these CPUs (0,2-3) and the latency probe to the others" },
	{ .name = "reset-between", .type = OPT_FLAG, .off = offsetof(struct suite_settings, reset_between),
	  .help = "before every iteration, reclaim all of the sandbox's memory and turn its swap off and on, so "
	  "that each starts alike" },
	{ .name = "description", .type = OPT_STR, .off = offsetof(struct suite_settings, description),
	  .metavar = "TEXT", .help = "what the suite or case is for", .flags = OPTF_NO_ECHO },
	OPT_END,
};

struct suite_section {
	char *name;
	unsigned line;
};

struct suite_pair {
	size_t section;
	char *key, *value;
	unsigned line;
	bool used;
};

struct suite_parser {
	const char *file;
	const char *pos;            /* next unread byte of the text */
	unsigned lineno;            /* the line last handed to inih */
	bool failed;                /* an error was printed */
	long cur;                   /* current section, -1 before the first */
	size_t nsections, npairs;
	struct suite_section *sections;
	struct suite_pair *pairs;
};

static void suite_parser_free(struct suite_parser *p)
{
	for (size_t i = 0; i < p->nsections; i++)
		free(p->sections[i].name);
	for (size_t i = 0; i < p->npairs; i++) {
		free(p->pairs[i].key);
		free(p->pairs[i].value);
	}
	free(p->sections);
	free(p->pairs);
}

static void suite_fail(struct suite_parser *p, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void suite_fail(struct suite_parser *p, unsigned line, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	char msg[512] = "";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		vmr_err("%s:%u: %s", p->file, line, msg);
	else
		vmr_err("%s: %s", p->file, msg);
}

static bool suite_name_ok(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_.:+", s[i]))
			return false;
	return true;
}

/* Section headers are tracked here, where every line passes, because inih
 * tells the handler nothing about a section without keys. */
static void suite_scan_header(struct suite_parser *p, const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line != '[')
		return;
	const char *end = strchr(line, ']');
	if (!end)
		return; /* inih reports it */
	size_t n = (size_t)(end - line - 1);
	char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)(n < 120 ? n : 120), line + 1);
	if (!suite_name_ok(line + 1, n)) {
		suite_fail(p, p->lineno, "bad section name [%s] (letters, digits and -_.:+ only)", name);
		return;
	}
	for (size_t i = 0; i < p->nsections; i++) {
		if (!strcmp(p->sections[i].name, name)) {
			suite_fail(p, p->lineno, "duplicate section [%s] (first at line %u)", name, p->sections[i].line);
			return;
		}
	}
	p->sections = xrealloc(p->sections, (p->nsections + 1) * sizeof(*p->sections));
	p->sections[p->nsections].name = xstrdup(name);
	p->sections[p->nsections].line = p->lineno;
	p->cur = (long)p->nsections++;
}

static char *suite_reader(char *str, int num, void *stream)
{
	struct suite_parser *p = stream;
	if (p->failed || !*p->pos)
		return NULL;
	const char *nl = strchr(p->pos, '\n');
	size_t len = nl ? (size_t)(nl - p->pos) + 1 : strlen(p->pos);
	p->lineno++;
	if (len > (size_t)num - 1) {
		suite_fail(p, p->lineno, "line too long (at most %d characters)", num - 2);
		return NULL;
	}
	memcpy(str, p->pos, len);
	str[len] = '\0';
	p->pos += len;
	suite_scan_header(p, str);
	return str;
}

static int suite_handler(void *user, const char *section, const char *name, const char *value)
{
	struct suite_parser *p = user;
	if (p->failed)
		return 0;
	if (p->cur < 0) {
		suite_fail(p, p->lineno, "'%s' is outside a section (start with [global] or [CASE])", name);
		return 0;
	}
	p->pairs = xrealloc(p->pairs, (p->npairs + 1) * sizeof(*p->pairs));
	struct suite_pair *kv = &p->pairs[p->npairs++];
	kv->section = (size_t)p->cur;
	kv->key = xstrdup(name);
	kv->value = xstrdup(value);
	kv->line = p->lineno;
	kv->used = false;
	return 1;
}

static bool suite_is_global(const struct suite_parser *p, size_t section)
{
	return !strcmp(p->sections[section].name, "global");
}

static bool suite_is_variants(const struct suite_parser *p, size_t section)
{
	return !strcmp(p->sections[section].name, "variants");
}

/* Settings of the whole run, which a case cannot change. */
static bool suite_key_global_only(const char *key)
{
	return !strcmp(key, "order") || !strcmp(key, "seed") || !strcmp(key, "precision") || !strcmp(key, "effect") ||
	       !strcmp(key, "budget");
}

/* opt_set, and `iterations = auto` (a whole run's: global says whether
 * obj is the suite's [global] settings). */
static int suite_set(const struct opt *o, void *obj, const char *value, const char *where, bool global)
{
	if (o != &suite_opts[0])
		return opt_set(o, obj, value, where);
	((struct suite_settings *)obj)->iterations_auto = false;
	if (strcmp(value, "auto"))
		return opt_set(o, obj, value, where);
	if (!global) {
		vmr_err("%s: 'iterations = auto' is the whole run's: set it in [global] or with --iterations auto",
			where);
		return -1;
	}
	((struct suite_settings *)obj)->iterations_auto = true;
	return 0;
}

/* Apply one section's pairs to a case in file order.  A key goes to the
 * first table that has it: the suite's settings, the sandbox's, then the
 * workload's.  A global key the workload lacks is left for other cases. */
static int suite_apply(struct suite_parser *p, size_t section, struct suite_case *c)
{
	for (size_t i = 0; i < p->npairs && !p->failed; i++) {
		struct suite_pair *kv = &p->pairs[i];
		if (kv->section != section || !strcmp(kv->key, "workload"))
			continue;
		if (!suite_is_global(p, section) && suite_key_global_only(kv->key)) {
			suite_fail(p, kv->line, "'%s' is the whole run's: set it in [global]", kv->key);
			return -1;
		}
		const struct opt *o;
		void *obj;
		if ((o = opt_find(suite_opts, kv->key)))
			obj = &c->set;
		else if ((o = opt_find(sandbox_opts, kv->key)))
			obj = &c->sandbox;
		else if ((o = opt_find(trace_opts, kv->key)))
			obj = &c->trace;
		else if ((o = opt_find(c->w->opts, kv->key)))
			obj = c->wopts;
		else
			continue;
		char where[PATH_MAX + 128];
		snprintf(where, sizeof(where), "%s:%u: %s", p->file, kv->line, kv->key);
		if ((obj == &c->set ? suite_set(o, obj, kv->value, where, suite_is_global(p, section))
				    : opt_set(o, obj, kv->value, where)) < 0) {
			p->failed = true;
			return -1;
		}
		kv->used = true;
	}
	return p->failed ? -1 : 0;
}

static const struct suite_pair *suite_lookup(const struct suite_parser *p, size_t section, const char *key)
{
	const struct suite_pair *hit = NULL;
	for (size_t i = 0; i < p->npairs; i++)
		if (p->pairs[i].section == section && !strcmp(p->pairs[i].key, key))
			hit = &p->pairs[i];
	return hit;
}

/* A key of a case section that no table knows. */
static int suite_check_case_keys(struct suite_parser *p, size_t section, const struct workload *w)
{
	for (size_t i = 0; i < p->npairs; i++) {
		const struct suite_pair *kv = &p->pairs[i];
		if (kv->section != section || !strcmp(kv->key, "workload"))
			continue;
		if (!opt_find(suite_opts, kv->key) && !opt_find(sandbox_opts, kv->key) && !opt_find(trace_opts, kv->key) &&
		    !opt_find(w->opts, kv->key)) {
			suite_fail(p, kv->line, "unknown option '%s' for workload %s (see vmregress test %s --help)", kv->key,
				   w->name, w->name);
			return -1;
		}
	}
	return 0;
}

static int suite_case_workload(struct suite_parser *p, size_t section, long global, const struct workload **w)
{
	const struct suite_pair *kv = suite_lookup(p, section, "workload");
	if (!kv && global >= 0)
		kv = suite_lookup(p, (size_t)global, "workload");
	if (!kv) {
		suite_fail(p, p->sections[section].line, "[%s] names no workload (add workload = NAME)",
			   p->sections[section].name);
		return -1;
	}
	*w = workload_find(kv->value);
	if (!*w) {
		const char *near = workload_suggest(kv->value);
		if (near)
			suite_fail(p, kv->line, "workload '%s' is not in this build; did you mean '%s'?", kv->value, near);
		else
			suite_fail(p, kv->line, "workload '%s' is not in this build (see vmregress test --list)",
				   kv->value);
		return -1;
	}
	return 0;
}

/* refs-generate feeds a workload's refs option: from [global] it is for
 * the cases that have one, in a case without one it is a mistake. */
static int suite_check_refs(struct suite_parser *p, size_t section, struct suite_case *c)
{
	if (!c->set.refs_generate || opt_find(c->w->opts, "refs"))
		return 0;
	const struct suite_pair *kv = suite_lookup(p, section, "refs-generate");
	if (kv) {
		suite_fail(p, kv->line, "refs-generate: workload %s takes no reference trace", c->w->name);
		return -1;
	}
	free(c->set.refs_generate);
	c->set.refs_generate = NULL;
	return 0;
}

static int suite_resolve_case(struct suite_parser *p, size_t section, long global, struct suite_case *c)
{
	c->name = xstrdup(p->sections[section].name);
	c->line = p->sections[section].line;
	OPT_DEFAULTS(suite_opts, &c->set);
	OPT_DEFAULTS(sandbox_opts, &c->sandbox);
	OPT_DEFAULTS(trace_opts, &c->trace);
	if (suite_case_workload(p, section, global, &c->w) < 0)
		return -1;
	c->wopts = xcalloc(1, c->w->opts_size ? c->w->opts_size : 1);
	opt_defaults(c->w->opts, c->wopts, c->w->opts_size);
	if (suite_check_case_keys(p, section, c->w) < 0)
		return -1;
	if (global >= 0 && suite_apply(p, (size_t)global, c) < 0)
		return -1;
	if (suite_apply(p, section, c) < 0)
		return -1;
	workload_holds(c->w, &c->sandbox.hold);
	return suite_check_refs(p, section, c);
}

static void suite_case_free(struct suite_case *c)
{
	free(c->name);
	if (c->w) {
		opt_free(c->w->opts, c->wopts);
		free(c->wopts);
	}
	opt_free(sandbox_opts, &c->sandbox);
	opt_free(trace_opts, &c->trace);
	opt_free(suite_opts, &c->set);
}

void suite_free(struct suite *s)
{
	for (size_t i = 0; i < s->ncases; i++)
		suite_case_free(&s->cases[i]);
	free(s->cases);
	for (size_t i = 0; i < s->nvariants; i++)
		variant_free(&s->variants[i]);
	free(s->variants);
	free(s->name);
	free(s->path);
	free(s->text);
	opt_free(suite_opts, &s->global);
	memset(s, 0, sizeof(*s));
}

/* A global key used by no case is a typo, not a setting. */
static int suite_check_global(struct suite_parser *p, long global)
{
	for (size_t i = 0; global >= 0 && i < p->npairs; i++) {
		const struct suite_pair *kv = &p->pairs[i];
		if ((long)kv->section == global && !kv->used && strcmp(kv->key, "workload")) {
			suite_fail(p, kv->line, "unknown option '%s' (not a suite or sandbox option, nor an option "
				   "of any case's workload)", kv->key);
			return -1;
		}
	}
	return 0;
}

/* [variants]: one variant a line, NAME = SETTINGS (harness/variant.h). */
static int suite_build_variants(struct suite *s, struct suite_parser *p, size_t section)
{
	unsigned first = 0;
	for (size_t i = 0; i < p->npairs; i++) {
		struct suite_pair *kv = &p->pairs[i];
		if (kv->section != section)
			continue;
		char where[PATH_MAX + 64];
		snprintf(where, sizeof(where), "%s:%u: variant", p->file, kv->line);
		s->variants = xrealloc(s->variants, (s->nvariants + 1) * sizeof(*s->variants));
		if (variant_parse_settings(&s->variants[s->nvariants], kv->key, kv->value, where) < 0) {
			p->failed = true;
			return -1;
		}
		s->variants[s->nvariants++].line = kv->line;
		first = first ? first : kv->line;
	}
	char where[PATH_MAX + 64];
	snprintf(where, sizeof(where), "%s:%u: [variants]", p->file, first ? first : p->sections[section].line);
	if (!s->nvariants)
		vmr_err("%s: no variants (add lines NAME = SETTINGS, or remove the section)", where);
	if (!s->nvariants || variants_check(s->variants, s->nvariants, where) < 0) {
		p->failed = true;
		return -1;
	}
	return 0;
}

static int suite_build(struct suite *s, struct suite_parser *p)
{
	long global = -1;
	for (size_t i = 0; i < p->nsections; i++)
		if (suite_is_global(p, i))
			global = (long)i;
	for (size_t i = 0; i < p->nsections; i++)
		if (suite_is_variants(p, i) && suite_build_variants(s, p, i) < 0)
			return -1;
	OPT_DEFAULTS(suite_opts, &s->global);
	for (size_t i = 0; global >= 0 && i < p->npairs; i++) {
		struct suite_pair *kv = &p->pairs[i];
		const struct opt *o = opt_find(suite_opts, kv->key);
		if ((long)kv->section != global || !o)
			continue;
		char where[PATH_MAX + 128];
		snprintf(where, sizeof(where), "%s:%u: %s", p->file, kv->line, kv->key);
		if (suite_set(o, &s->global, kv->value, where, true) < 0)
			return -1;
		kv->used = true;
	}
	s->cases = xcalloc(p->nsections ? p->nsections : 1, sizeof(*s->cases));
	for (size_t i = 0; i < p->nsections; i++) {
		if ((long)i == global || suite_is_variants(p, i))
			continue;
		if (suite_resolve_case(p, i, global, &s->cases[s->ncases++]) < 0)
			return -1;
	}
	if (suite_check_global(p, global) < 0)
		return -1;
	if (!s->ncases) {
		suite_fail(p, 0, "no cases (add a section [NAME] with workload = NAME)");
		return -1;
	}
	return 0;
}

int suite_parse(struct suite *s, const char *file, const char *text)
{
	struct suite_parser p = { .file = file, .pos = text, .cur = -1 };
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(file);
	s->name = xstrdup(file);
	s->text = xstrdup(text);
	/* An indented line is a line of its own, not the continuation of the
	 * value above it; the first error ends the parse. */
	ini_allow_multiline = false;
	ini_stop_on_first_error = true;
	int rc = ini_parse_stream(suite_reader, &p, suite_handler, &p);
	if (!p.failed && rc > 0)
		suite_fail(&p, (unsigned)rc, "expected 'key = value', [section] or a comment");
	else if (!p.failed && rc < 0)
		suite_fail(&p, 0, "cannot parse (out of memory)");
	if (!p.failed && suite_build(s, &p) < 0)
		p.failed = true;
	suite_parser_free(&p);
	if (p.failed) {
		suite_free(s);
		return -1;
	}
	return 0;
}

/* Directories holding built-in suites: $VMR_SUITE_DIR when set, ./suites
 * beside the binary (or its parent, for build/ binaries in the source
 * tree), PREFIX/share/vmregress/suites for a binary in PREFIX/bin (so an
 * install under another PREFIX than the build's still finds them), then
 * the directory the build was configured with. */
size_t suite_dirs(char dirs[SUITE_DIRS][PATH_MAX])
{
	char exe[PATH_MAX];
	size_t n = 0;
	const char *env = getenv("VMR_SUITE_DIR");
	if (env && *env)
		snprintf(dirs[n++], PATH_MAX, "%s", env);
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(dirs[n++], PATH_MAX, "%.*s/suites", PATH_MAX - 8, exe);
			slash = strrchr(exe, '/');
			if (slash) {
				*slash = '\0';
				snprintf(dirs[n++], PATH_MAX, "%.*s/suites", PATH_MAX - 8, exe[0] ? exe : "");
				snprintf(dirs[n++], PATH_MAX, "%.*s/share/vmregress/suites", PATH_MAX - 32, exe);
			}
		}
	}
	snprintf(dirs[n++], PATH_MAX, "%s", VMR_SUITE_DIR);
	return n;
}

static int suite_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void suite_builtins_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

size_t suite_builtins(char ***names)
{
	char dirs[SUITE_DIRS][PATH_MAX];
	size_t nd = suite_dirs(dirs), n = 0, cap = 0;
	*names = NULL;
	for (size_t i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;
		if (!d)
			continue;
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			if (len <= 4 || strcmp(e->d_name + len - 4, ".ini") || !suite_name_ok(e->d_name, len - 4))
				continue;
			char *name = xasprintf("%.*s", (int)(len - 4), e->d_name);
			bool seen = false;
			for (size_t k = 0; k < n && !seen; k++)
				seen = !strcmp((*names)[k], name);
			if (seen) {
				free(name);
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 8;
				*names = xrealloc(*names, cap * sizeof(**names));
			}
			(*names)[n++] = name;
		}
		closedir(d);
	}
	if (n)
		qsort(*names, n, sizeof(**names), suite_name_cmp);
	return n;
}

char *suite_find(const char *spec)
{
	size_t len = strlen(spec);
	bool is_path = strchr(spec, '/') || (len > 4 && !strcmp(spec + len - 4, ".ini"));
	if (is_path || access(spec, F_OK) == 0) {
		if (access(spec, R_OK) < 0) {
			vmr_errno("%s: cannot read suite", spec);
			return NULL;
		}
		return xstrdup(spec);
	}
	if (!suite_name_ok(spec, len)) {
		vmr_err("%s: not a suite name or file", spec);
		return NULL;
	}
	char dirs[SUITE_DIRS][PATH_MAX];
	size_t n = suite_dirs(dirs);
	for (size_t i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s.ini", dirs[i], spec);
		if (access(path, R_OK) == 0)
			return path;
		free(path);
	}
	char **names = NULL;
	size_t nn = suite_builtins(&names);
	const char *near = suggest(spec, (const char *const *)names, nn);
	if (near)
		vmr_err("%s: no such suite; did you mean '%s'? (vmregress suites lists them)", spec, near);
	else
		vmr_err("%s: no such suite file, nor a built-in suite (vmregress suites lists them)", spec);
	suite_builtins_free(names, nn);
	return NULL;
}

/* A suite is a few kilobytes of text; the built-in "full" is under 10. */
#define SUITE_MAX_BYTES (1024 * 1024)

int suite_load(struct suite *s, const char *spec)
{
	char *path = suite_find(spec), *text = NULL;
	size_t len;
	int rc = -1;
	if (!path)
		return -1;
	int e = vmr_read_file_max(path, SUITE_MAX_BYTES, &text, &len);
	if (e == -EFBIG) {
		vmr_err("%s: too large for a suite file (more than %d KiB)", path, SUITE_MAX_BYTES / 1024);
		goto free_path;
	}
	if (e < 0) {
		errno = -e;
		vmr_errno("%s: cannot read suite", path);
		goto free_path;
	}
	if (strlen(text) != len) {
		vmr_err("%s: not a text file (holds a NUL byte)", path);
		goto free_text;
	}
	rc = suite_parse(s, path, text);
	if (rc == 0 && !strchr(spec, '/') && strcmp(spec, path)) {
		free(s->name);
		s->name = xstrdup(spec);
	}
free_text:
	free(text);
free_path:
	free(path);
	return rc;
}

int suite_override(struct suite *s, const struct opt *table, const char *key, const char *value,
		   const char *where)
{
	const struct opt *o = opt_find(table, key);
	if (!o) {
		vmr_err("%s: unknown setting '%s'", where, key);
		return -1;
	}
	for (size_t i = 0; i < s->ncases; i++) {
		struct suite_case *c = &s->cases[i];
		void *obj = table == suite_opts ? (void *)&c->set : table == sandbox_opts ? (void *)&c->sandbox
			  : table == trace_opts ? (void *)&c->trace : c->wopts;
		if ((table == suite_opts ? suite_set(o, obj, value, where, true) : opt_set(o, obj, value, where)) < 0)
			return -1;
	}
	if (table == suite_opts && suite_set(o, &s->global, value, where, true) < 0)
		return -1;
	return 0;
}

json_t *suite_case_json(const struct suite_case *c)
{
	json_t *j = json_pack("{ss so so sI sI sI sb sb}", "workload", c->w->name, "options", opt_echo(c->w->opts, c->wopts),
			 "sandbox", opt_echo(sandbox_opts, &c->sandbox), "iterations", (json_int_t)c->set.iterations,
			 "monitor-interval", (json_int_t)c->set.monitor_interval_ns, "probe-period",
			 (json_int_t)c->set.probe_period_ns, "monitor", !c->set.no_monitor, "probe", !c->set.no_probe);
	if (c->trace.trace || c->trace.profile)
		json_object_set_new(j, "trace", opt_echo(trace_opts, &c->trace));
	if (c->set.refs_generate)
		json_object_set_new(j, "refs-generate", json_string(c->set.refs_generate));
	/* how the iterations ran, only when not as always, so runs made before
	 * these existed compare alike */
	if (c->set.warmup)
		json_object_set_new(j, "warmup", json_integer(c->set.warmup));
	if (c->set.cpu)
		json_object_set_new(j, "cpu", json_string(c->set.cpu));
	if (c->set.reset_between)
		json_object_set_new(j, "reset-between", json_true());
	return j;
}
