/* Kernel knobs a sandbox may set for its lifetime: an allow-list mapping a
 * short name to its file under /proc/sys/vm, /sys/kernel/mm or
 * /sys/module/zswap/parameters.  Nothing else can be named: a name holding
 * '/' or ".." never reaches a path. */
#ifndef VMR_KNOBS_H
#define VMR_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

struct knob {
	const char *name;   /* "vm.swappiness" */
	const char *path;   /* "/proc/sys/vm/swappiness" */
	const char *help;
};

/* The allow-list, ending with a NULL name. */
extern const struct knob knobs[];

/* The knob of that name, or NULL. */
const struct knob *knob_find(const char *name);

/* Check "NAME=VALUE" from --set.  Returns the knob and sets *value to the
 * text after '=', or NULL with *why set to a static reason. */
const struct knob *knob_parse_set(const char *arg, const char **value, const char **why);

/* The value in force, normalized: for files listing choices ("always
 * [madvise] never") the bracketed one.  0 or -errno. */
int knob_read(const struct knob *k, char *buf, size_t len);
/* Normalize a knob file's text in place (trailing newline, [choice]). */
void knob_normalize(char *text);

/* Write a value with open/write/close only (async-signal-safe).  0 or -errno. */
int knob_write(const char *path, const char *value);

#endif
