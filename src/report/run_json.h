/* A stored run as one JSON document, and back.  This is the shape of
 * `vmregress show RUN --json` and of files that `compare` and `report`
 * accept in place of a stored run (runs exported from another machine):
 *
 *   { "id": 3, "uuid": "...", "name": "pc0", "suite": "seeds",
 *     "status": "complete", "kernel": "6.1.0-13-amd64", "host": "box",
 *     "started": 1700000000.0, "ended": 1700000100.0, "tag": null,
 *     "env": { ...environment fingerprint... }, "suite_text": "...",
 *     "cases": [ { "name": "fault-zero", "workload": "fault",
 *                  "options": {...}, "iterations": [ RESULT, ... ] } ] }
 *
 * where RESULT is result_to_json's object.  A document {"run": {...}} is
 * accepted too, and times may be ISO 8601 strings as run_info_to_json
 * writes them.  Free a loaded run with run_free. */
#ifndef VMR_RUN_JSON_H
#define VMR_RUN_JSON_H

#include <jansson.h>

#include "store/store.h"

json_t *run_to_json(const struct run *r);
/* A run's summary as JSON: id, uuid, name, suite, status, kernel, host,
 * started, ended (ISO 8601 UTC; ended null while unfinished), running, tag,
 * cases, iterations; and for a run of a group, group: {uuid, name, variant,
 * index}. */
json_t *run_info_to_json(const struct run_info *ri);
struct case_summary;
/* `show --json`: {"run": run_info_to_json, "cases": [...]} (and "env" with
 * with_env), each case with its summaries s[i] (summary_build), outcomes,
 * reasons and, for a run of a group, its iterations' places in the
 * group's order. */
json_t *run_summary_json(const struct run *r, const struct case_summary *s, bool with_env);
/* Returns a new run, or NULL with *why set (static string). */
struct run *run_from_json(const json_t *j, const char **why);
/* Read a run from a JSON file; NULL after a one-line error naming it. */
struct run *run_json_load(const char *path);

#endif
