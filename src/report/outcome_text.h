/* What a command did, for people, a line each: what cleanup undid, what
 * push and pull copied, the matrix's guests, where report wrote its page,
 * kcidb's submission, lava's job and import, where run stored its runs,
 * and test --list.  The commands do the work and hand in the outcome. */
#ifndef VMR_OUTCOME_TEXT_H
#define VMR_OUTCOME_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/run.h"
#include "workload/workload.h"

/* cleanup's actions (sandbox_cleanup_json's "actions"): "ACTION WHAT PATH
 * (left by pid N): ERROR", or "nothing to clean up". */
void outcome_cleanup(FILE *f, json_t *actions);

/* One run that push or pull handled: result is "copied", "updated",
 * "present" or "running"; to_id its id in the target store. */
void outcome_transfer(FILE *f, const char *result, const struct run_info *ri, long long to_id, bool interrupted);
/* The totals line of push and pull, into the store at path. */
void outcome_transfer_totals(FILE *f, size_t copied, size_t updated, size_t present, size_t running,
			     const char *path);

/* A guest of a matrix, as its table shows it. */
struct outcome_guest {
	const char *label, *status;
	long long run_id;      /* 0: stored no run */
	double elapsed_s;
	const char *detail;    /* the reason it failed, or its command line's additions */
};
/* The matrix's table: a heading, a line per guest, where the logs are. */
void outcome_matrix(FILE *f, const char *name, bool kvm, const struct outcome_guest *g, size_t n,
		    const char *log_dir);

/* "DIR/index.html (N graphs, SIZE)". */
void outcome_report(FILE *f, const char *path, size_t graphs, size_t bytes);
/* kcidb submit's line once the server took the submission. */
void outcome_kcidb(FILE *f, const char *file, size_t bytes, const char *url, long status, int attempts);
/* lava job's line once the job file is written. */
void outcome_lava_job(FILE *f, const char *output, const char *kernel, const char *ramdisk, const char *disk);
/* lava import's line for the run it read: stored, or already there. */
void outcome_lava_board_job(FILE *f, const char *output, const char *device_type, const char *boot_method);
void outcome_lava_import(FILE *f, const char *path, const struct run *r, bool stored, bool whole);

/* run: a variant's heading before its run's summary. */
void outcome_run_variant(FILE *f, const char *name, const char *settings, bool base);
/* run: where a run of one configuration was stored. */
void outcome_run_stored(FILE *f, long long id, const char *path);
/* run: where a group's runs were stored, and how to compare them. */
void outcome_run_group(FILE *f, const char *group, const char *path, const long long *ids, const char *const *names,
		       size_t n);

/* test --list: a workload a line. */
void outcome_workloads(FILE *f, const struct workload *const *w);

#endif
