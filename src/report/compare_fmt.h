/* Formatters of a comparison: text in the layout of mmtests'
 * compare-kernels (one column per run, rows per statistic of each metric),
 * JSON, CSV (one line per metric and run) and Markdown (for mail and
 * issue trackers).  Each takes a finished struct comparison and writes one
 * format; none computes anything. */
#ifndef VMR_COMPARE_FMT_H
#define VMR_COMPARE_FMT_H

#include <jansson.h>
#include <stdio.h>

#include "stats/compare.h"
#include "stats/functional.h"

enum cmp_format { CMP_FMT_TEXT, CMP_FMT_JSON, CMP_FMT_CSV, CMP_FMT_MARKDOWN, CMP_FMT_JUNIT, CMP_FMT_TAP, CMP_FMT_KCIDB };

/* The choices string for an OPT_ENUM, in enum order. */
#define CMP_FORMAT_CHOICES "text|json|csv|markdown|junit|tap|kcidb"

/* The verdict in words (compare_verdict.c, which calls no other file of
 * these formatters; they call it). */

/* The verdict's first line: "N regressions, M improvements, K unchanged,
 * U unstable (FDR 5%, noise floor max(1%, CV))".  Returns buf. */
char *compare_verdict_line(char *buf, size_t len, const struct comparison *cmp);
/* The verdict as plain lines, in the order text output leads with: the
 * verdict line, environment flags, one line per headline metric and run
 * (findings first), then the explanations.  Appended to out. */
void compare_verdict_lines(const struct comparison *cmp, struct strlist *out);
/* A trust warning as one line for people (malloc'd): "Caution: b was not
 * interleaved with the base: ...". */
char *compare_trust_text(const struct cmp_trust *t);
/* What was left out, as a sentence for people (malloc'd): "case 'x' is
 * only in b, not in the base"; a long list of zero metrics is cut at six. */
char *compare_left_text(const struct cmp_left *l);
/* A value in units people read: 1.230 s, 12.50 MiB, 301.0k faults/s
 * (units_format_value). */
char *cmp_fmt_scaled(char *buf, size_t len, double v, const char *unit);

/* The text for people without the table: the verdict lines and trust
 * warnings, and when nothing was compared what was left out; a pointer to
 * --all for the rest. */
void compare_write_brief(FILE *f, const struct comparison *cmp);
/* JUnit and TAP: each headline metric of each run a test case, and each
 * kernel selftest case of each run (fn, which may be NULL). */
void compare_write_junit(FILE *f, const struct comparison *cmp, const struct functional *fn);
void compare_write_tap(FILE *f, const struct comparison *cmp, const struct functional *fn);

json_t *compare_to_json(const struct comparison *cmp);
void compare_write_text(FILE *f, const struct comparison *cmp);
void compare_write_csv(FILE *f, const struct comparison *cmp);
void compare_write_markdown(FILE *f, const struct comparison *cmp);

/* The statistic rows shown per metric, shared with the HTML report. */
enum cmp_stat { CMP_STAT_MIN, CMP_STAT_MEAN, CMP_STAT_STDDEV, CMP_STAT_CV, CMP_STAT_MAX, CMP_NSTATS };
/* "Min", "Amean"/"Hmean" (by combine rule), "Stddev", "CoeffVar", "Max". */
const char *cmp_stat_name(enum cmp_stat s, enum combine c);
/* The statistic's value for a cell; CoeffVar is in percent. */
double cmp_stat_value(const struct cmp_cell *cell, enum cmp_stat s);
/* Change of a statistic against the base cell in percent, run / base - 1. */
double cmp_stat_change(const struct cmp_row *row, size_t run, enum cmp_stat s);
/* A number as the tables print it: two decimals, or 4 significant digits
 * for tiny values, "-" for NAN.  Returns buf. */
char *cmp_fmt_num(char *buf, size_t len, double v);
/* A cell's statistic in units people read (CoeffVar in percent). */
char *cmp_fmt_stat(char *buf, size_t len, const struct cmp_row *row, const struct cmp_cell *cell, enum cmp_stat s);
/* The marker pair around a change: "()" plain, "**" significant, "??" too
 * few iterations to say. */
void cmp_markers(const struct cmp_cell *cell, enum cmp_stat s, char *open, char *close);
/* The legend, one paragraph of lines. */
extern const char *const cmp_legend[];

#endif
