/* The formatters of `vmregress sandbox`: see sandbox_text.h. */
#include "report/sandbox_text.h"

#include <stdio.h>

#include "core/units.h"

static const char *sandbox_owner(json_t *o, char *buf, size_t len)
{
	json_t *pid = json_object_get(o, "owner_pid");
	if (!pid)
		return "owner unknown";
	snprintf(buf, len, "pid %d, %s", (int)json_integer_value(pid),
		 json_is_true(json_object_get(o, "owner_alive")) ? "running" : "gone: 'vmregress cleanup' undoes it");
	return buf;
}

static const char *sandbox_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

void sandbox_status_text(json_t *st)
{
	char own[160], a[32], b[32];
	size_t i, j;
	json_t *x, *c;
	printf("state directory: %s\n", sandbox_str(st, "state_dir"));
	if (!json_is_true(json_object_get(st, "changed"))) {
		puts("nothing on this host is changed by vmregress");
		return;
	}
	json_array_foreach(json_object_get(st, "journals"), i, x) {
		printf("journal %s (%s)\n", sandbox_str(x, "path"), sandbox_owner(x, own, sizeof(own)));
		if (json_object_get(x, "error"))
			printf("  unreadable: %s\n", sandbox_str(x, "error"));
		json_array_foreach(json_object_get(x, "changes"), j, c) {
			printf("  %s %s", sandbox_str(c, "what"), sandbox_str(c, "path"));
			if (json_object_get(c, "old_value"))
				printf(" (was %s, now %s)", sandbox_str(c, "old_value"), sandbox_str(c, "value"));
			putchar('\n');
		}
	}
	json_array_foreach(json_object_get(st, "cgroups"), i, x)
		printf("cgroup %s (%s)\n", sandbox_str(x, "path"), sandbox_owner(x, own, sizeof(own)));
	json_array_foreach(json_object_get(st, "swaps"), i, x)
		printf("swap %s (%s): %s, %s used, priority %d\n", sandbox_str(x, "path"), sandbox_owner(x, own, sizeof(own)),
		       units_format_size(a, sizeof(a), (uint64_t)json_integer_value(json_object_get(x, "size_bytes"))),
		       units_format_size(b, sizeof(b), (uint64_t)json_integer_value(json_object_get(x, "used_bytes"))),
		       (int)json_integer_value(json_object_get(x, "priority")));
	json_array_foreach(json_object_get(st, "zram"), i, x)
		printf("zram %s (%s): %s\n", sandbox_str(x, "path"), sandbox_owner(x, own, sizeof(own)),
		       units_format_size(a, sizeof(a), (uint64_t)json_integer_value(json_object_get(x, "disksize_bytes"))));
}

void sandbox_exec_text(FILE *f, char *const argv[], const struct exec_result *r)
{
	char a[32];
	double cpu = r->elapsed_s > 0 ? 100.0 * (r->user_s + r->system_s) / r->elapsed_s : 0;
	int el_min = (int)(r->elapsed_s / 60);
	fputs("\tCommand being timed: \"", f);
	for (int i = 0; argv[i]; i++)
		fprintf(f, "%s%s", i ? " " : "", argv[i]);
	fputs("\"\n", f);
	fprintf(f, "\tUser time (seconds): %.2f\n", r->user_s);
	fprintf(f, "\tSystem time (seconds): %.2f\n", r->system_s);
	fprintf(f, "\tPercent of CPU this job got: %.0f%%\n", cpu);
	fprintf(f, "\tElapsed (wall clock) time (h:mm:ss or m:ss): %d:%05.2f\n", el_min, r->elapsed_s - 60.0 * el_min);
	fprintf(f, "\tMaximum resident set size (kbytes): %llu\n", (unsigned long long)r->max_rss_kb);
	fprintf(f, "\tMajor (requiring I/O) page faults: %llu\n", (unsigned long long)r->major_faults);
	fprintf(f, "\tMinor (reclaiming a frame) page faults: %llu\n", (unsigned long long)r->minor_faults);
	fprintf(f, "\tVoluntary context switches: %llu\n", (unsigned long long)r->voluntary_switches);
	fprintf(f, "\tInvoluntary context switches: %llu\n", (unsigned long long)r->involuntary_switches);
	fprintf(f, "\tSwap-ins (pages, /proc/vmstat pswpin): %llu\n", (unsigned long long)r->pswpin);
	fprintf(f, "\tSwap-outs (pages, /proc/vmstat pswpout): %llu\n", (unsigned long long)r->pswpout);
	fprintf(f, "\tSandbox swap in use, peak: %s\n", units_format_size(a, sizeof(a), r->swap_peak_bytes));
	fprintf(f, "\tSandbox OOM kills: %llu\n", (unsigned long long)r->oom_kills);
	if (r->oom_gist[0])
		fprintf(f, "\tAt the OOM kill (kernel log): %s\n", r->oom_gist);
	fprintf(f, "\tOutcome: %s\n", exec_outcome_name(r->outcome));
	if (r->outcome == EXEC_EXITED)
		fprintf(f, "\tExit status: %d\n", r->exit_status);
	else if (r->signal)
		fprintf(f, "\tCommand terminated by signal %d\n", r->signal);
}

json_t *exec_result_json(const struct exec_result *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "outcome", json_string(exec_outcome_name(r->outcome)));
	if (r->outcome == EXEC_EXITED)
		json_object_set_new(o, "exit_status", json_integer(r->exit_status));
	if (r->signal)
		json_object_set_new(o, "signal", json_integer(r->signal));
	double cpu = r->elapsed_s > 0 ? 100.0 * (r->user_s + r->system_s) / r->elapsed_s : 0;
	json_object_set_new(o, "user_s", json_real(r->user_s));
	json_object_set_new(o, "system_s", json_real(r->system_s));
	json_object_set_new(o, "elapsed_s", json_real(r->elapsed_s));
	json_object_set_new(o, "cpu_percent", json_real(cpu));
	json_object_set_new(o, "max_rss_kb", json_integer((json_int_t)r->max_rss_kb));
	json_object_set_new(o, "major_faults", json_integer((json_int_t)r->major_faults));
	json_object_set_new(o, "minor_faults", json_integer((json_int_t)r->minor_faults));
	json_object_set_new(o, "voluntary_switches", json_integer((json_int_t)r->voluntary_switches));
	json_object_set_new(o, "involuntary_switches", json_integer((json_int_t)r->involuntary_switches));
	json_object_set_new(o, "pswpin", json_integer((json_int_t)r->pswpin));
	json_object_set_new(o, "pswpout", json_integer((json_int_t)r->pswpout));
	json_object_set_new(o, "swap_peak_bytes", json_integer((json_int_t)r->swap_peak_bytes));
	json_object_set_new(o, "oom_kills", json_integer((json_int_t)r->oom_kills));
	if (r->oom_report)
		json_object_set_new(o, "oom_report", json_incref(r->oom_report));
	return o;
}
