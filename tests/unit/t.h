/* A tiny unit-test helper: each check prints "ok - NAME" or "not ok - NAME";
 * tests/run-all counts the lines.  A test binary that crashes counts as a
 * failure even if it printed nothing. */
#ifndef VMR_T_H
#define VMR_T_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int t_failures;
static int t_checks;

static inline void t_report(int ok, const char *file, int line, const char *expr, const char *fmt, ...)
{
	va_list ap;
	t_checks++;
	printf("%s - ", ok ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok) {
		printf("  (%s:%d: %s)", file, line, expr);
		t_failures++;
	}
	putchar('\n');
	fflush(stdout);
}

#define CHECK(cond, ...) t_report(!!(cond), __FILE__, __LINE__, #cond, __VA_ARGS__)
#define CHECK_EQ_U(a, b, ...) do { unsigned long long a_ = (a), b_ = (b); \
	t_report(a_ == b_, __FILE__, __LINE__, #a " == " #b, __VA_ARGS__); \
	if (a_ != b_) printf("    got %llu, want %llu\n", a_, b_); } while (0)
#define CHECK_STR(a, b, ...) do { const char *a_ = (a), *b_ = (b); \
	int ok_ = a_ && b_ && !strcmp(a_, b_); t_report(ok_, __FILE__, __LINE__, #a " == " #b, __VA_ARGS__); \
	if (!ok_) printf("    got '%s', want '%s'\n", a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } while (0)
#define CHECK_NEAR(a, b, tol, ...) do { double a_ = (a), b_ = (b); \
	int ok_ = fabs(a_ - b_) <= (tol); t_report(ok_, __FILE__, __LINE__, #a " ~ " #b, __VA_ARGS__); \
	if (!ok_) printf("    got %.12g, want %.12g\n", a_, b_); } while (0)
#define SKIP(...) do { t_checks++; printf("ok - "); printf(__VA_ARGS__); printf(" # SKIP\n"); } while (0)
/* SKIP_WHY(NAME, FMT, ...): the check NAME is skipped, FMT saying why
 * ("ok - NAME # SKIP why"): a missing feature, never a pass. */
#define SKIP_WHY(name, ...) do { t_checks++; printf("ok - %s # SKIP ", name); printf(__VA_ARGS__); putchar('\n'); \
	fflush(stdout); } while (0)
/* T_DONE(): the end of every test's main.  It prints the plan ("1..N", N the
 * checks printed), so that a test which stops early is seen to have stopped. */
#define T_DONE() do { printf("1..%d\n", t_checks); fflush(stdout); return t_failures ? 1 : 0; } while (0)

#endif
