#include "core/options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "core/suggest.h"

static void opt_bad(const char *where, const char *value, const char *why)
{
	vmr_err("%s: '%s' %s", where, value, why);
}

/* Whether an option's value names a file or a directory (by its metavar:
 * FILE, DIR, PATH). */
static bool opt_names_file(const struct opt *o)
{
	static const char *const kinds[] = { "FILE", "DIR", "PATH" };
	for (size_t i = 0; o->metavar && i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(o->metavar, kinds[i]))
			return true;
	return false;
}

const struct opt *opt_find(const struct opt *opts, const char *name)
{
	for (const struct opt *o = opts; o && o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

static int opt_enum_index(const char *choices, const char *value)
{
	const char *p = choices;
	size_t vlen = strlen(value);
	for (int i = 0; p && *p; i++) {
		size_t n = strcspn(p, "|");
		if (n == vlen && !strncmp(p, value, n))
			return i;
		p += n;
		if (*p == '|')
			p++;
	}
	return -1;
}

static int opt_range(const struct opt *o, double v, const char *where, const char *value)
{
	if (o->min == 0 && o->max == 0)
		return 0;
	if (v < o->min || v > o->max) {
		char why[160] = "", a[32], b[32];
		if (o->type == OPT_SIZE || o->type == OPT_RSIZE) {
			units_format_size(a, sizeof(a), (uint64_t)o->min);
			units_format_size(b, sizeof(b), (uint64_t)o->max);
		} else if (o->type == OPT_TIME) {
			units_format_time(a, sizeof(a), (uint64_t)o->min);
			units_format_time(b, sizeof(b), (uint64_t)o->max);
		} else {
			/* whole numbers in full: 4294967295, not 4.29497e+09 */
			snprintf(a, sizeof(a), o->min == (double)(long long)o->min ? "%.0f" : "%g", o->min);
			snprintf(b, sizeof(b), o->max == (double)(long long)o->max ? "%.0f" : "%g", o->max);
		}
		snprintf(why, sizeof(why), "is out of range (%s to %s)", a, b);
		opt_bad(where, value, why);
		return -1;
	}
	return 0;
}

static int opt_parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

static int opt_set_number(const struct opt *o, void *obj, const char *value, const char *where)
{
	char *end;
	errno = 0;
	if (o->type == OPT_INT) {
		long v = strtol(value, &end, 10);
		if (!*value || *end || errno) {
			opt_bad(where, value, errno ? "is too large" : "is not a whole number");
			return -1;
		}
		if (opt_range(o, (double)v, where, value) < 0)
			return -1;
		*OPT_FIELD(obj, o, long) = v;
		return 0;
	}
	double v = strtod(value, &end);
	if (!*value || *end || errno || !isfinite(v)) {
		opt_bad(where, value, "is not a number");
		return -1;
	}
	if (opt_range(o, v, where, value) < 0)
		return -1;
	*OPT_FIELD(obj, o, double) = v;
	return 0;
}

int opt_set(const struct opt *o, void *obj, const char *value, const char *where)
{
	const char *why;
	char whybuf[200];
	switch (o->type) {
	case OPT_FLAG: {
		bool b;
		if (opt_parse_bool(value, &b) < 0) {
			opt_bad(where, value, "is not a yes/no value");
			return -1;
		}
		*OPT_FIELD(obj, o, bool) = b;
		return 0;
	}
	case OPT_INT:
	case OPT_DOUBLE:
		return opt_set_number(o, obj, value, where);
	case OPT_SIZE: {
		uint64_t b;
		if (units_parse_size(value, &b, &why) < 0) {
			snprintf(whybuf, sizeof(whybuf), "is not a size: %s", why);
			opt_bad(where, value, whybuf);
			return -1;
		}
		if (opt_range(o, (double)b, where, value) < 0)
			return -1;
		*OPT_FIELD(obj, o, uint64_t) = b;
		return 0;
	}
	case OPT_RSIZE: {
		struct vmr_rsize r = { 0 };
		if (units_parse_rsize(value, &r, &why) < 0) {
			snprintf(whybuf, sizeof(whybuf), "is not a size: %s", why);
			opt_bad(where, value, whybuf);
			return -1;
		}
		if (!r.factor && opt_range(o, (double)r.bytes, where, value) < 0)
			return -1;
		*OPT_FIELD(obj, o, struct vmr_rsize) = r;
		return 0;
	}
	case OPT_TIME: {
		uint64_t ns;
		if (units_parse_time(value, &ns, &why) < 0) {
			snprintf(whybuf, sizeof(whybuf), "is not a time: %s", why);
			opt_bad(where, value, whybuf);
			return -1;
		}
		if (opt_range(o, (double)ns, where, value) < 0)
			return -1;
		*OPT_FIELD(obj, o, uint64_t) = ns;
		return 0;
	}
	case OPT_STR: {
		char **p = OPT_FIELD(obj, o, char *);
		/* an empty name of a file or directory names nothing: say so
		 * here, not "cannot create directory :" later */
		if (!*value && opt_names_file(o)) {
			snprintf(whybuf, sizeof(whybuf), "is empty: give the %s to use", o->metavar);
			opt_bad(where, value, whybuf);
			return -1;
		}
		free(*p);
		*p = xstrdup(value);
		return 0;
	}
	case OPT_ENUM: {
		int i = opt_enum_index(o->choices, value);
		if (i < 0) {
			snprintf(whybuf, sizeof(whybuf), "is not one of %s", o->choices);
			opt_bad(where, value, whybuf);
			return -1;
		}
		*OPT_FIELD(obj, o, int) = i;
		return 0;
	}
	case OPT_LIST:
		strlist_add(OPT_FIELD(obj, o, struct strlist), value);
		return 0;
	}
	return -1;
}

static size_t opt_field_size(enum opt_type type)
{
	switch (type) {
	case OPT_FLAG:
		return sizeof(bool);
	case OPT_INT:
		return sizeof(long);
	case OPT_DOUBLE:
		return sizeof(double);
	case OPT_SIZE:
	case OPT_TIME:
		return sizeof(uint64_t);
	case OPT_RSIZE:
		return sizeof(struct vmr_rsize);
	case OPT_STR:
		return sizeof(char *);
	case OPT_ENUM:
		return sizeof(int);
	case OPT_LIST:
		return sizeof(struct strlist);
	}
	return 0;
}

void opt_defaults(const struct opt *opts, void *obj, size_t size)
{
	memset(obj, 0, size);
	for (const struct opt *o = opts; o && o->name; o++)
		if (o->off + opt_field_size(o->type) > size)
			abort(); /* the table is bound to a smaller struct: a bug */
	for (const struct opt *o = opts; o && o->name; o++) {
		if (!o->def)
			continue;
		char where[80];
		snprintf(where, sizeof(where), "default of --%s", o->name);
		if (opt_set(o, obj, o->def, where) < 0)
			abort(); /* a bad default is a bug in the table */
	}
}

void opt_free(const struct opt *opts, void *obj)
{
	for (const struct opt *o = opts; o && o->name; o++) {
		if (o->type == OPT_STR) {
			char **p = OPT_FIELD(obj, o, char *);
			free(*p);
			*p = NULL;
		} else if (o->type == OPT_LIST) {
			strlist_free(OPT_FIELD(obj, o, struct strlist));
		}
	}
}

static const struct opt *opt_lookup(struct optset *sets, size_t nsets, const char *name,
				    size_t namelen, char short_name, void **obj)
{
	for (size_t i = 0; i < nsets; i++) {
		for (const struct opt *o = sets[i].opts; o && o->name; o++) {
			bool hit = short_name ? o->short_name == short_name
					      : strlen(o->name) == namelen && !strncmp(o->name, name, namelen);
			if (hit) {
				*obj = sets[i].obj;
				return o;
			}
		}
	}
	return NULL;
}

/* "unknown option", with the option of these tables it was probably meant
 * to be (hidden ones are never offered). */
static void opt_unknown(const struct optset *sets, size_t nsets, const char *arg, const char *name,
			size_t namelen)
{
	char word[64];
	snprintf(word, sizeof(word), "%.*s", (int)namelen, name);
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	for (size_t i = 0; i < nsets; i++)
		for (const struct opt *o = sets[i].opts; o->name; o++) {
			if (o->flags & OPTF_HIDDEN)
				continue;
			const char *one[] = { o->name };
			if (!suggest(word, one, 1))
				continue;
			size_t d = suggest_distance(word, o->name);
			if (d < best_d) {
				best = o->name;
				best_d = d;
			}
		}
	if (best)
		vmr_err("unknown option '%s'; did you mean '--%s'? (see --help)", arg, best);
	else
		vmr_err("unknown option '%s' (see --help)", arg);
}

int opt_parse(struct optset *sets, size_t nsets, int argc, char **argv,
	      char **pos, int *npos, bool *help)
{
	*npos = 0;
	for (int i = 0; i < argc; i++) {
		char *a = argv[i];
		if (!strcmp(a, "--")) {
			while (++i < argc)
				pos[(*npos)++] = argv[i];
			break;
		}
		if (a[0] != '-' || !a[1]) {
			pos[(*npos)++] = a;
			continue;
		}
		if (help && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
			*help = true;
			continue;
		}
		bool is_long = a[1] == '-';
		const char *name = a + (is_long ? 2 : 1);
		const char *eq = is_long ? strchr(name, '=') : NULL;
		size_t namelen = eq ? (size_t)(eq - name) : strlen(name);
		if (!is_long && namelen != 1) {
			/* "-5M" given where an option was expected: say so plainly */
			vmr_err("unknown option '%s'", a);
			return -1;
		}
		void *obj;
		const struct opt *o = opt_lookup(sets, nsets, name, namelen, is_long ? 0 : name[0], &obj);
		if (!o) {
			opt_unknown(sets, nsets, a, name, namelen);
			return -1;
		}
		char where[96];
		snprintf(where, sizeof(where), "--%s", o->name);
		if (o->type == OPT_FLAG) {
			if (eq) {
				if (opt_set(o, obj, eq + 1, where) < 0)
					return -1;
			} else {
				*OPT_FIELD(obj, o, bool) = true;
			}
			continue;
		}
		const char *value = eq ? eq + 1 : NULL;
		if (!value) {
			if (i + 1 >= argc) {
				vmr_err("%s: needs a value (%s)", where, o->metavar ? o->metavar : "VALUE");
				return -1;
			}
			value = argv[++i];
		}
		if (opt_set(o, obj, value, where) < 0)
			return -1;
	}
	return 0;
}

char *opt_value_str(const struct opt *o, const void *obj, char *buf, size_t len)
{
	void *p = (char *)obj + o->off;
	switch (o->type) {
	case OPT_FLAG:
		snprintf(buf, len, "%s", *(bool *)p ? "yes" : "no");
		break;
	case OPT_INT:
		snprintf(buf, len, "%ld", *(long *)p);
		break;
	case OPT_DOUBLE:
		snprintf(buf, len, "%g", *(double *)p);
		break;
	case OPT_SIZE:
		units_format_size(buf, len, *(uint64_t *)p);
		break;
	case OPT_RSIZE:
		units_format_rsize(buf, len, (struct vmr_rsize *)p);
		break;
	case OPT_TIME:
		units_format_time(buf, len, *(uint64_t *)p);
		break;
	case OPT_STR:
		snprintf(buf, len, "%s", *(char **)p ? *(char **)p : "");
		break;
	case OPT_ENUM: {
		int idx = *(int *)p;
		const char *c = o->choices;
		for (int i = 0; i < idx && c; i++) {
			c = strchr(c, '|');
			if (c)
				c++;
		}
		size_t n = c ? strcspn(c, "|") : 0;
		snprintf(buf, len, "%.*s", (int)n, c ? c : "");
		break;
	}
	case OPT_LIST: {
		const struct strlist *l = p;
		buf[0] = '\0';
		for (size_t i = 0; i < l->n; i++) {
			if (i)
				strncat(buf, ",", len - strlen(buf) - 1);
			strncat(buf, l->v[i], len - strlen(buf) - 1);
		}
		break;
	}
	}
	return buf;
}

json_t *opt_echo(const struct opt *opts, const void *obj)
{
	json_t *j = json_object();
	for (const struct opt *o = opts; o && o->name; o++) {
		if (o->flags & OPTF_NO_ECHO)
			continue;
		const void *p = (const char *)obj + o->off;
		char buf[512];
		switch (o->type) {
		case OPT_FLAG:
			json_object_set_new(j, o->name, json_boolean(*(const bool *)p));
			break;
		case OPT_INT:
			json_object_set_new(j, o->name, json_integer(*(const long *)p));
			break;
		case OPT_DOUBLE:
			json_object_set_new(j, o->name, json_real(*(const double *)p));
			break;
		case OPT_SIZE:
		case OPT_TIME:
			json_object_set_new(j, o->name, json_integer((json_int_t)*(const uint64_t *)p));
			break;
		case OPT_LIST: {
			const struct strlist *l = p;
			json_t *a = json_array();
			for (size_t i = 0; i < l->n; i++)
				json_array_append_new(a, json_string(l->v[i]));
			json_object_set_new(j, o->name, a);
			break;
		}
		case OPT_STR:
			if (!*(char *const *)p) {
				json_object_set_new(j, o->name, json_null());
				break;
			}
			/* fall through */
		default:
			json_object_set_new(j, o->name, json_string(opt_value_str(o, obj, buf, sizeof(buf))));
		}
	}
	return j;
}

static void opt_usage_word(const struct opt *o, char *buf, size_t len)
{
	if (o->type == OPT_FLAG)
		snprintf(buf, len, "--%s", o->name);
	else if (o->type == OPT_ENUM)
		snprintf(buf, len, "--%s %s", o->name, o->choices);
	else
		snprintf(buf, len, "--%s %s", o->name, o->metavar ? o->metavar : "VALUE");
}

/* Columns to wrap help at: the terminal's width when f is one, else 80. */
static size_t opt_help_width(FILE *f)
{
	struct winsize ws = { 0 };
	int fd = fileno(f);
	if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col;
	return 80;
}

/* Print text from column `col`, wrapped at width with later lines indented
 * to `indent`; a word longer than a line stands alone. */
static void opt_help_wrap(FILE *f, const char *text, size_t col, size_t indent, size_t width)
{
	const char *p = text;
	bool first = true;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t wl = strcspn(p, " ");
		if (!wl)
			break;
		if (!first && col + 1 + wl > width) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, wl, f);
		col += wl;
		p += wl;
		first = false;
	}
}

void opt_help(FILE *f, const struct opt *opts)
{
	size_t width = opt_help_width(f);
	for (const struct opt *o = opts; o && o->name; o++) {
		if (o->flags & OPTF_HIDDEN)
			continue;
		char word[128], full[140], *text = NULL;
		opt_usage_word(o, word, sizeof(word));
		if (o->short_name)
			snprintf(full, sizeof(full), "-%c, %s", o->short_name, word);
		else
			snprintf(full, sizeof(full), "%s", word);
		int col = fprintf(f, "  %-30s ", full);
		if (o->def && o->type != OPT_FLAG)
			text = xasprintf("%s (default %s)", o->help ? o->help : "", o->def);
		else
			text = xstrdup(o->help ? o->help : "");
		opt_help_wrap(f, text, col > 0 ? (size_t)col : 0, 33, width);
		free(text);
		fputc('\n', f);
	}
}

static void man_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void opt_man(FILE *f, const struct opt *opts)
{
	for (const struct opt *o = opts; o && o->name; o++) {
		if (o->flags & OPTF_HIDDEN)
			continue;
		char word[128];
		opt_usage_word(o, word, sizeof(word));
		fputs(".TP\n.B ", f);
		man_escape(f, word);
		fputc('\n', f);
		man_escape(f, o->help);
		if (o->def && o->type != OPT_FLAG) {
			fputs(" (default ", f);
			man_escape(f, o->def);
			fputc(')', f);
		}
		fputc('\n', f);
	}
}
