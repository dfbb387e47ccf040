/* What a command did, for people: see outcome_text.h. */
#include "report/outcome_text.h"

#include <string.h>

#include "core/units.h"

void outcome_cleanup(FILE *f, json_t *actions)
{
	size_t i;
	json_t *a;
	if (!json_array_size(actions)) {
		fputs("nothing to clean up\n", f);
		return;
	}
	json_array_foreach(actions, i, a) {
		const char *err = json_string_value(json_object_get(a, "error"));
		fprintf(f, "%s %s %s", json_string_value(json_object_get(a, "action")),
			json_string_value(json_object_get(a, "what")), json_string_value(json_object_get(a, "path")));
		if (json_object_get(a, "owner_pid"))
			fprintf(f, " (left by pid %d)", (int)json_integer_value(json_object_get(a, "owner_pid")));
		if (err)
			fprintf(f, ": %s", err);
		fputc('\n', f);
	}
}

void outcome_transfer(FILE *f, const char *result, const struct run_info *ri, long long to_id, bool interrupted)
{
	if (!strcmp(result, "running"))
		fprintf(f, "%-8s %s %s: still being written, not copied (push it again when it ends)\n", result, ri->uuid,
			ri->name);
	else
		fprintf(f, "%-8s %s %s as run %lld%s\n", result, ri->uuid, ri->name, to_id,
			interrupted ? " (interrupted: incomplete)" : "");
}

void outcome_transfer_totals(FILE *f, size_t copied, size_t updated, size_t present, size_t running,
			     const char *path)
{
	fprintf(f, "%zu copied, %zu updated, %zu already there", copied, updated, present);
	if (running)
		fprintf(f, ", %zu still being written (not copied)", running);
	fprintf(f, ", into %s\n", path);
}

void outcome_matrix(FILE *f, const char *name, bool kvm, const struct outcome_guest *g, size_t n,
		    const char *log_dir)
{
	fprintf(f, "matrix %s: %zu guest%s under %s\n", name, n, n == 1 ? "" : "s",
		kvm ? "kvm" : "tcg (emulated: compare counters, not times)");
	fprintf(f, "%-32s %-9s %6s %8s  %s\n", "guest", "status", "run", "time", "detail");
	for (size_t i = 0; i < n; i++) {
		char id[24] = "-";
		if (g[i].run_id)
			snprintf(id, sizeof(id), "%lld", g[i].run_id);
		fprintf(f, "%-32s %-9s %6s %7.1fs  %s\n", g[i].label, g[i].status, id, g[i].elapsed_s,
			g[i].detail ? g[i].detail : "");
	}
	fprintf(f, "console logs and guest output: %s\n", log_dir);
}

void outcome_report(FILE *f, const char *path, size_t graphs, size_t bytes)
{
	char size[32];
	fprintf(f, "%s (%zu graphs, %s)\n", path, graphs, units_format_size(size, sizeof(size), bytes));
}

void outcome_kcidb(FILE *f, const char *file, size_t bytes, const char *url, long status, int attempts)
{
	fprintf(f, "submitted %s (%zu bytes) to %s: HTTP %ld, attempt %d\n", strcmp(file, "-") ? file : "standard input",
		bytes, url, status, attempts);
}

void outcome_lava_job(FILE *f, const char *output, const char *kernel, const char *ramdisk, const char *disk)
{
	fprintf(f, "%s: a LAVA job for %s, with %s and %s\n", output, kernel, ramdisk, disk);
}

void outcome_lava_board_job(FILE *f, const char *output, const char *device_type, const char *boot_method)
{
	fprintf(f, "%s: a LAVA job for device type %s, booted by %s\n", output, device_type, boot_method);
}

void outcome_lava_import(FILE *f, const char *path, const struct run *r, bool stored, bool whole)
{
	fprintf(f, "%s: run %s (%s, %zu cases, %zu iterations) %s, %s\n", path, r->info.name, r->info.uuid,
		r->ncases, r->info.niterations, stored ? "stored" : "already in the store",
		whole ? "from the run's JSON in the log"
		      : "from LAVA's measurements (one iteration a case, each the device's mean)");
}

void outcome_run_variant(FILE *f, const char *name, const char *settings, bool base)
{
	fprintf(f, "%s== variant %s%s: %s ==\n\n", base ? "" : "\n", name, base ? " (the base)" : "",
		*settings ? settings : "the suite as it is");
}

void outcome_run_stored(FILE *f, long long id, const char *path)
{
	fprintf(f, "Stored as run %lld in %s\n", id, path);
}

void outcome_run_group(FILE *f, const char *group, const char *path, const long long *ids, const char *const *names,
		       size_t n)
{
	fprintf(f, "\nStored as group %s in %s:", group, path);
	for (size_t v = 0; v < n; v++)
		fprintf(f, " run %lld (%s)%s", ids[v], names[v], v + 1 < n ? "," : "\n");
	fprintf(f, "Compare them with: vmregress compare %s\n", group);
}

void outcome_workloads(FILE *f, const struct workload *const *w)
{
	for (size_t i = 0; w[i]; i++)
		fprintf(f, "  %-10s %s\n", w[i]->name, w[i]->summary);
}
