/* What one workload iteration produced.  Workloads, the runner, monitors and
 * probes fill it; formatters and the store read it.  Nothing here prints.
 *
 * A result is generic on purpose: named metrics, tables (e.g. the fault
 * test's pass table), histograms, maps (present/swapped per page) and time
 * series.  The store, compare and report handle every workload through these
 * without knowing what the workload was.  result_to_json/result_from_json
 * are the one serialisation: the child process hands its result to the
 * runner with it, the store keeps it, and a guest sends it home with it. */
#ifndef VMR_RESULT_H
#define VMR_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/hist.h"

enum outcome {
	OUTCOME_PASS,
	OUTCOME_FAIL,   /* ran, and the kernel got something wrong (bad data) */
	OUTCOME_SKIP,   /* cannot run here; reason says why */
	OUTCOME_ERROR,  /* the harness or set-up failed */
	OUTCOME_OOM,    /* killed by the OOM killer inside the sandbox */
};

enum better {
	BETTER_NONE,    /* informational */
	BETTER_LOWER,   /* times, faults */
	BETTER_HIGHER,  /* rates */
};

enum combine {
	COMBINE_AMEAN,  /* times and sizes */
	COMBINE_HMEAN,  /* rates */
};

/* Static description of a metric, in a workload's table. */
struct metric_def {
	const char *name;     /* "time-pass1", "faults-per-sec" */
	const char *unit;     /* "ns", "pages", "faults/s" */
	enum better better;
	enum combine combine;
	const char *help;
	bool headline;        /* one of the one to three figures a user would quote:
			       * compare's verdict is on these */
};

struct metric {
	char *name, *unit;
	enum better better;
	enum combine combine;
	double value;
};

struct table {
	char *name;           /* "passes" */
	size_t ncols, nrows;
	char **cols;          /* column names: "pass","refd","present","time_ns" */
	double *cells;        /* nrows * ncols, row-major */
};

struct named_hist {
	char *name;           /* "fault-latency" (values in ns) */
	char *unit;
	struct hist *h;
};

/* One character per page: '#' present, 's' swapped, '.' neither. */
struct map {
	char *name;           /* "pass0" */
	char *pages;
};

struct series {
	char *name, *unit;    /* "pswpout", "pages" */
	size_t n, cap;
	double *t;            /* seconds since the case started */
	double *v;
};

struct result {
	char *workload;
	enum outcome outcome;
	char *reason;         /* why not pass; NULL on pass */
	json_t *options;      /* resolved options echo */
	json_t *info;         /* facts for reports: mapped address, starting free pages... */
	size_t nmetrics, ntables, nhists, nmaps, nseries;
	struct metric *metrics;
	struct table *tables;
	struct named_hist *hists;
	struct map *maps;
	struct series *series;
};

void result_init(struct result *r, const char *workload);
void result_free(struct result *r);
const char *outcome_name(enum outcome o);
int outcome_parse(const char *s, enum outcome *o);
/* Set the outcome once: the first non-pass outcome wins. */
void result_set_outcome(struct result *r, enum outcome o, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Add or replace a metric. */
/* The words of the JSON and the store for a metric's direction ("none",
 * "lower", "higher") and its combine rule ("amean", "hmean"): the one
 * table of each; a value out of range reads as the first. */
const char *better_name(enum better b);
const char *combine_name(enum combine c);

void result_metric(struct result *r, const char *name, const char *unit, enum better b,
		   enum combine c, double value);
/* Add a metric described by a workload's table entry. */
void result_metric_def(struct result *r, const struct metric_def *d, double value);
const struct metric *result_find_metric(const struct result *r, const char *name);

/* Tables: create with column names, then append rows of ncols values. */
struct table *result_table(struct result *r, const char *name, size_t ncols, const char *const *cols);
void table_add_row(struct table *t, const double *row);
/* The table named name (the last, if several), or NULL.  Readers take a
 * table's columns by name, never by position: a workload may add or
 * reorder columns, and stored results keep the order of their day. */
const struct table *result_find_table(const struct result *r, const char *name);
/* The index of column name, or -1. */
long table_col(const struct table *t, const char *name);
/* Row row's value of column name; NaN when t is NULL or has no such
 * column. */
double table_get(const struct table *t, size_t row, const char *name);
/* Histograms: the result takes ownership of h. */
void result_hist(struct result *r, const char *name, const char *unit, struct hist *h);
const struct named_hist *result_find_hist(const struct result *r, const char *name);
/* Maps: the result takes a copy of pages[0..n). */
void result_map(struct result *r, const char *name, const char *pages, size_t n);
struct series *result_series(struct result *r, const char *name, const char *unit);
void series_add(struct series *s, double t, double v);
/* info: result_info_set(r, "key", json_integer(5)) (steals the reference) */
void result_info_set(struct result *r, const char *key, json_t *v);

json_t *result_to_json(const struct result *r);
/* Returns 0, or -1 with *why set (static string) on malformed input. */
int result_from_json(const json_t *j, struct result *r, const char **why);

/* The parts of a result a reader may ask for.  A stored result is mostly
 * its maps, series and histograms (hundreds of KB an iteration in memory);
 * statistics need its metrics alone (workload, outcome, reason and
 * metrics), and a few of its info.  A result read without RESULT_INFO has
 * options and info NULL; without a detail part, that part empty. */
enum result_part {
	RESULT_METRICS = 1,
	RESULT_INFO = 2,      /* options and info */
	RESULT_TABLES = 4,
	RESULT_HISTS = 8,
	RESULT_MAPS = 16,
	RESULT_SERIES = 32,
	RESULT_ALL = 63,
	RESULT_HEAD = RESULT_METRICS | RESULT_INFO,
	RESULT_DETAIL = RESULT_ALL & ~RESULT_HEAD,
};
/* result_from_json of parts alone (RESULT_METRICS always): the JSON
 * members of the parts not asked for need not be there, and are not read. */
int result_from_json_parts(const json_t *j, unsigned parts, struct result *r, const char **why);
/* Free the detail parts of r named and leave them empty. */
void result_drop(struct result *r, unsigned parts);
/* Pick from the text of a result (result_to_json's, as stored) the members
 * of parts, without parsing the others: a JSON object holding just those
 * (*out), or NULL.  text[0..len) may be a prefix of the whole text: 1 when
 * it held every member asked for (or the whole object), 0 when more of the
 * text is needed, -1 when it is not a JSON object. */
int result_pick_text(const char *text, size_t len, unsigned parts, json_t **out);
/* result_from_json_parts of the members of parts picked from text (as
 * result_pick_text picks them), the metrics, tables, series and histograms
 * read straight from their text rather than through JSON values
 * (result_text.c):
 * a table is mostly numbers (thousands of rows an iteration), and JSON
 * values of them cost most of a report's reading.  The same result as
 * JSON values give, any shape the text readers do not take read through
 * them.  Without RESULT_METRICS in parts, its head is left empty (workload
 * "", a pass, no metrics), unread: for detail to move into a result held
 * already.  1, 0 or -1 as result_pick_text; on -1, *why says what was
 * malformed. */
int result_from_text_parts(const char *text, size_t len, unsigned parts, struct result *r, const char **why);
/* The tables (series, histograms, metrics) of a result's "tables"
 * ("series", "hists", "metrics") member,
 * text[0..len), added to r as result_from_json adds them: 0, or -1 when
 * the text is not in result_to_json's shape (r then holds some of them). */
int result_tables_from_text(const char *text, size_t len, struct result *r);
int result_series_from_text(const char *text, size_t len, struct result *r);
int result_hists_from_text(const char *text, size_t len, struct result *r);
int result_metrics_from_text(const char *text, size_t len, struct result *r);
/* A metric as stored, its better and combine by name and its name and
 * unit in today's spelling (core/spelling.h), added to r: 0, or -1 for an
 * unknown better or combine. */
int result_metric_spelled(struct result *r, const char *name, const char *unit, const char *better,
			  const char *combine, double v);

#endif
