/* The built-in suites as `vmregress suites` shows them: the array of
 * {name, path, description, cases} that cmd/suites.c builds (its --json
 * output), as a table with the line that says how to run one. */
#ifndef VMR_REPORT_SUITE_LIST_H
#define VMR_REPORT_SUITE_LIST_H

#include <jansson.h>

void suite_list_text(json_t *all);

#endif
