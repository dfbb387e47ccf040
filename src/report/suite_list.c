/* The table of `vmregress suites`: see suite_list.h. */
#include "report/suite_list.h"

#include <stdio.h>
#include <string.h>

void suite_list_text(json_t *all)
{
	size_t i;
	json_t *j;
	if (!json_array_size(all)) {
		puts("no built-in suites found");
		return;
	}
	int wn = 4, wd = 0;
	json_array_foreach(all, i, j) {
		const char *d = json_string_value(json_object_get(j, "description"));
		int ln = (int)strlen(json_string_value(json_object_get(j, "name")));
		int ld = d ? (int)strlen(d) : 0;
		wn = ln > wn ? ln : wn;
		wd = ld > wd ? ld : wd;
	}
	printf("%-*s  %-*s  %s\n", wn, "NAME", wd, "DESCRIPTION", "CASES");
	json_array_foreach(all, i, j) {
		const char *d = json_string_value(json_object_get(j, "description"));
		printf("%-*s  %-*s  %zu\n", wn, json_string_value(json_object_get(j, "name")), wd, d ? d : "",
		       json_array_size(json_object_get(j, "cases")));
	}
	puts("\nRun one with: vmregress run NAME (a suite file's path works too)");
}
