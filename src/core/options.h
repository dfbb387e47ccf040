/* Option tables.  One table describes a set of options (a command's, a
 * workload's, the sandbox's): name, type, where the value lives (offsetof
 * into a plain struct), default, range and help.  Parsing argv, parsing a
 * suite file's key=value, range checks, --help, the man page and the echo of
 * settings stored with every result all come from the same table. */
#ifndef VMR_OPTIONS_H
#define VMR_OPTIONS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/units.h"
#include "core/util.h"

enum opt_type {
	OPT_FLAG,    /* bool; "--x" sets, "--x=0|1|yes|no|true|false" in files */
	OPT_INT,     /* long */
	OPT_DOUBLE,  /* double */
	OPT_SIZE,    /* uint64_t bytes (units.h) */
	OPT_RSIZE,   /* struct vmr_rsize: a size or "1.5x" */
	OPT_TIME,    /* uint64_t nanoseconds */
	OPT_STR,     /* char * (owned, free with opt_free) */
	OPT_ENUM,    /* int: index into choices "a|b|c" */
	OPT_LIST,    /* struct strlist, repeatable */
};

enum opt_flags {
	OPTF_HIDDEN = 1 << 0,   /* test-only: accepted, not in --help */
	OPTF_NO_ECHO = 1 << 1,  /* not echoed into results (e.g. --json) */
};

struct opt {
	const char *name;      /* long name, without "--" */
	enum opt_type type;
	size_t off;            /* offsetof into the options struct */
	const char *def;       /* default in the syntax a user types; NULL: zero */
	double min, max;       /* numeric range (bytes for sizes, ns for times);
				  both 0: unchecked */
	const char *choices;   /* OPT_ENUM: "fast|low|min|zero" */
	const char *metavar;   /* shown in help: SIZE, N, PATH */
	const char *help;
	unsigned flags;
	char short_name;       /* optional one-letter alias */
};

#define OPT_END { .name = NULL }

/* A table bound to the struct it fills. */
struct optset {
	const struct opt *opts;
	void *obj;
	const char *title;     /* heading in --help: "Sandbox options" */
};

/* Zero the size bytes at obj, then fill in the table's defaults.  The
 * object is zeroed here, not by the caller, because OPT_STR and OPT_LIST
 * values are freed or appended to when set: a default applied over stack
 * garbage frees a wild pointer.  Aborts when an option of the table lies
 * beyond size (a table bound to the wrong struct).  Use OPT_DEFAULTS for a
 * typed object; the size form is for a block such as a workload's options
 * (w->opts_size). */
void opt_defaults(const struct opt *opts, void *obj, size_t size);
/* The same for a pointer to a typed object: OPT_DEFAULTS(sandbox_opts,
 * &cfg).  A void * does not compile (its size is not the object's). */
#define OPT_DEFAULTS(opts, obj)                                                          \
	do {                                                                             \
		_Static_assert(!__builtin_types_compatible_p(__typeof__(*(obj)), void),  \
			       "OPT_DEFAULTS needs a typed object; use opt_defaults(opts, p, size)"); \
		opt_defaults((opts), (obj), sizeof(*(obj)));                             \
	} while (0)
/* Free strings and lists held by obj. */
void opt_free(const struct opt *opts, void *obj);

/* Find an option by name in a table. */
const struct opt *opt_find(const struct opt *opts, const char *name);

/* Set one option from text.  `where` names the source in errors: "--mem" on
 * the command line, "suite.ini:12: mem" in a file.  Prints
 * "vmregress: <where>: '<value>' <why>" and returns -1 on bad input. */
int opt_set(const struct opt *o, void *obj, const char *value, const char *where);

/* Parse argv against several tables.  Words that are not options are
 * collected in order into pos (which must have room for argc entries);
 * "--" ends option parsing.  "-h"/"--help" sets *help when help != NULL.
 * Returns 0, or -1 after printing a one-line error. */
int opt_parse(struct optset *sets, size_t nsets, int argc, char **argv,
	      char **pos, int *npos, bool *help);

/* Print the options of a table as help text. */
void opt_help(FILE *f, const struct opt *opts);
/* The same, as man page (roff) lines. */
void opt_man(FILE *f, const struct opt *opts);
/* A JSON object of every option's value (the echo stored with results). */
json_t *opt_echo(const struct opt *opts, const void *obj);
/* One option's value as text, in the syntax it parses from.  Returns buf. */
char *opt_value_str(const struct opt *o, const void *obj, char *buf, size_t len);

/* Accessors for code that reads a value by type. */
#define OPT_FIELD(obj, o, T) ((T *)((char *)(obj) + (o)->off))

#endif
