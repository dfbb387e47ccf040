/* Suite files: the plan of a run, in INI form like fio's job files.
 *
 *   ; comments start with ; or #
 *   [global]                  ; settings for every case
 *   iterations = 3
 *   mem = 128M                ; sandbox options (vmregress test --help)
 *   swap = zram:256M
 *   set = vm.page-cluster=3   ; repeatable
 *   passes = 5                ; a workload option: every case whose workload has it
 *
 *   [variants]                ; optional: run every case under each of these,
 *   pc0 = vm.page-cluster=0   ; interleaved (harness/plan.h); the first is the base
 *   pc5 = vm.page-cluster=5
 *
 *   [fault-zero]              ; one section per case, named by the section
 *   workload = fault
 *   level = zero
 *   iterations = 5            ; any global setting may be overridden
 *
 * Every key is checked against the tables it may belong to: the suite's own
 * settings (suite_opts: iterations, monitor-interval, probe-period,
 * no-monitor, no-probe, description, refs-generate, and in [global] only
 * order and seed), the sandbox's (sandbox_opts),
 * tracing's (trace_opts: trace, profile) and the case's workload's option
 * table.  The first bad line ends the parse with one error naming
 * "FILE:LINE".  A case resolves as: defaults, then [global] in file order,
 * then its own section in file order.
 *
 * refs-generate = --pages N --references M --pattern P --seed S names a
 * reference trace by how to make it, so that a suite needs no trace file: it
 * applies to cases whose workload has a `refs` option (in a case whose
 * workload has none it is an error). */
#ifndef VMR_SUITE_H
#define VMR_SUITE_H

#include <jansson.h>
#include <limits.h>
#include <stdint.h>

#include "core/options.h"
#include "harness/variant.h"
#include "harness/trace_hook.h"
#include "sandbox/sandbox.h"
#include "workload/workload.h"

/* Settings of the suite itself, global or per case. */
struct suite_settings {
	long iterations;            /* default 1 */
	uint64_t monitor_interval_ns;/* default 1s, at least 50ms */
	uint64_t probe_period_ns;   /* default 10ms */
	bool no_monitor, no_probe;
	char *description;
	/* `vmregress refs generate` arguments: run generates the trace once
	 * per distinct value and sets the workload's refs option to it */
	char *refs_generate;
	/* how the iterations of variants interleave (a whole run's: [global]
	 * or the command line only) */
	int order;                  /* enum plan_order, default abba */
	long seed;                  /* order = random; -1: draw one */
	/* iterations = auto: added a block at a time until every headline
	 * metric is within precision, or budget runs out (stats/precision.h);
	 * the whole run's */
	bool iterations_auto;
	char *precision;            /* "2%" or "0.02", checked by run */
	char *effect;               /* NULL, or the change auto runs until compare
				     * could see ("5%"): stats/precision.h */
	uint64_t budget_ns;         /* the whole run's, shared by its cases */
	long warmup;                /* iterations per variant run first and not counted */
	char *cpu;                  /* CPUs for the workload child ("0", "1-3"); NULL: any */
	bool reset_between;         /* sandbox_reset before every iteration */
};

extern const struct opt suite_opts[];

struct suite_case {
	char *name;                 /* the section's name */
	unsigned line;              /* line of its [section] header */
	const struct workload *w;
	void *wopts;                /* w->opts_size bytes, filled from w->opts */
	struct sandbox_cfg sandbox;
	struct suite_settings set;
	struct trace_cfg trace;     /* trace = ..., profile = yes (trace_opts) */
};

struct suite {
	char *name;                 /* built-in name ("quick") or the path given */
	char *path;                 /* the file read */
	char *text;                 /* its whole text, stored with the run */
	struct suite_settings global;
	size_t ncases;
	struct suite_case *cases;
	size_t nvariants;           /* [variants], in file order; 0: none */
	struct variant *variants;
};

/* Directories holding built-in suites, in the order suite_find looks:
 * $VMR_SUITE_DIR, ./suites beside the binary (or its parent), PREFIX/share/
 * vmregress/suites for a binary in PREFIX/bin, the configured directory.
 * Returns how many it wrote. */
#define SUITE_DIRS 5
size_t suite_dirs(char dirs[SUITE_DIRS][PATH_MAX]);

/* The names of the built-in suites found there (NAME.ini; the first
 * directory that has a name wins, as for suite_find), sorted.  Free with
 * suite_builtins_free(*names, n). */
size_t suite_builtins(char ***names);
void suite_builtins_free(char **names, size_t n);

/* Find a suite: a path (contains '/' or names an existing file), else a
 * built-in name looked up as NAME.ini in ./suites beside the binary, then in
 * VMR_SUITE_DIR.  Malloc'd path, or NULL after an error naming the places
 * looked in. */
char *suite_find(const char *spec);
/* Find, read and parse.  0, or -1 after one error line (exit code 2). */
int suite_load(struct suite *s, const char *spec);
/* Parse text; file names it in errors.  0, or -1 after one error line. */
int suite_parse(struct suite *s, const char *file, const char *text);
void suite_free(struct suite *s);

/* Apply a setting to every case after parsing (the command line's
 * overrides: --iterations, --set ...).  table is suite_opts or sandbox_opts;
 * where names the source in errors.  0 or -1. */
int suite_override(struct suite *s, const struct opt *table, const char *key, const char *value,
		   const char *where);

/* The resolved options of a case as stored with the run:
 * {"workload": name, "options": {...}, "sandbox": {...}, "iterations": N,
 *  "monitor-interval": ns, "probe-period": ns}. */
json_t *suite_case_json(const struct suite_case *c);

#endif
