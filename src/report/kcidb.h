/* Stored runs and comparisons as KernelCI's KCIDB I/O documents, schema
 * v5.3 (kernelci/kcidb-io): what KernelCI's dashboards read.
 *
 * Per run: a checkout (the kernel under test: its version string always,
 * its tree, repository, commit and branch when given), a build (its
 * architecture), and tests: one per case (path "vmregress.SUITE.CASE",
 * status PASS, FAIL, SKIP or ERROR from its iterations' outcomes, the first
 * reason in misc) and one per headline metric of a case (status DONE, the
 * mean over passing iterations as `number`, with its unit in base units and
 * the prefix to scale it by: "metric", or "binary" for bytes).  Every id is
 * "ORIGIN:" followed by the run's UUID (and the case and metric), so that
 * submitting a run again updates it in KCIDB instead of adding a copy.
 *
 * A comparison adds, for each headline metric that regressed in a run
 * against the base, an issue (culprit: the code under test; its comment the
 * change, interval and q-value) and an incident linking the issue to the
 * run's test of that metric.  Improvements and unchanged metrics add none.
 * Nothing here prints. */
#ifndef VMR_KCIDB_H
#define VMR_KCIDB_H

#include <jansson.h>
#include <stddef.h>

#include "core/options.h"
#include "core/run.h"
#include "stats/compare.h"

#define KCIDB_VERSION_MAJOR 5
#define KCIDB_VERSION_MINOR 3

/* What the runs' checkout was made from, as the user says (NULL: unknown),
 * and the origin of every object: the name of the CI system submitting. */
struct kcidb_source {
	char *origin;         /* ^[a-z0-9_]+$; NULL: "vmregress" */
	char *tree;           /* tree_name: "mainline", "mm-unstable" */
	char *git_url;        /* git_repository_url: https:// or git:// */
	char *commit;         /* git_commit_hash: 40 hex digits */
	char *branch;         /* git_repository_branch */
};

/* The options that fill a struct kcidb_source, for the option table of a
 * command whose struct T holds one as member M. */
#define KCIDB_SOURCE_OPTS(T, M)                                                                              \
	{ .name = "origin", .type = OPT_STR, .off = offsetof(T, M.origin), .metavar = "NAME",                  \
	  .help = "--format kcidb: the submitting CI system's name, [a-z0-9_] (default vmregress)" },         \
	{ .name = "tree", .type = OPT_STR, .off = offsetof(T, M.tree), .metavar = "NAME",                      \
	  .help = "--format kcidb: the kernel tree's name (mainline, mm-unstable...)" },                     \
	{ .name = "git-url", .type = OPT_STR, .off = offsetof(T, M.git_url), .metavar = "URL",                 \
	  .help = "--format kcidb: the kernel's git repository (https:// or git://)" },                      \
	{ .name = "commit", .type = OPT_STR, .off = offsetof(T, M.commit), .metavar = "SHA",                   \
	  .help = "--format kcidb: the kernel's commit, 40 hex digits" },                                    \
	{ .name = "branch", .type = OPT_STR, .off = offsetof(T, M.branch), .metavar = "B",                     \
	  .help = "--format kcidb: the kernel's branch" }

/* NULL when the source's fields are acceptable to KCIDB, else a static
 * sentence saying which is not and why. */
const char *kcidb_source_invalid(const struct kcidb_source *s);

/* The document for runs (each with its checkout, build and tests). */
json_t *kcidb_runs(const struct run *const *runs, size_t n, const struct kcidb_source *s);
/* The document for a comparison: its runs as kcidb_runs writes them (with
 * a metric test for every headline row of the comparison), an issue and an
 * incident per regression. */
json_t *kcidb_compare(const struct comparison *cmp, const struct kcidb_source *s);

#endif
