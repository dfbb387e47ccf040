/* The kernel's selftests as text: what a build holds (`kselftest build`,
 * `kselftest list`) and a kselftest result (`test kselftest`): a line per
 * selftest with its cases' counts, the reasons of its skips, and each
 * failed case by name. */
#ifndef VMR_KSELFTEST_TEXT_H
#define VMR_KSELFTEST_TEXT_H

#include <jansson.h>
#include <stdio.h>

#include "core/result.h"

void kselftest_build_text(FILE *f, const json_t *build, const char *dir);
void kselftest_result_text(FILE *f, const struct result *r);

#endif
