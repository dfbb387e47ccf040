#include "harness/pin.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* One "N" or "N-M" of a list; the end of the item in *end. */
static int pin_range(const char *s, char **end, long *lo, long *hi)
{
	errno = 0;
	*lo = strtol(s, end, 10);
	if (*end == s || errno || *lo < 0)
		return -1;
	*hi = *lo;
	if (**end == '-') {
		const char *t = *end + 1;
		*hi = strtol(t, end, 10);
		if (*end == t || errno || *hi < *lo)
			return -1;
	}
	return 0;
}

int pin_parse(const char *list, struct pin *p, const char **why)
{
	cpu_set_t allowed;
	CPU_ZERO(&allowed);
	CPU_ZERO(&p->work);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
		*why = "cannot read this process's CPUs";
		return -1;
	}
	const char *s = list;
	do {
		char *end = NULL;
		long lo, hi;
		if (pin_range(s, &end, &lo, &hi) < 0 || (*end && *end != ',') || hi >= CPU_SETSIZE) {
			*why = "not a CPU list (0,2-3)";
			return -1;
		}
		for (long c = lo; c <= hi; c++) {
			if (!CPU_ISSET(c, &allowed)) {
				*why = "no such CPU here (see /sys/devices/system/cpu/online)";
				return -1;
			}
			CPU_SET(c, &p->work);
		}
		s = *end ? end + 1 : end;
	} while (*s);
	if (list[0] == '\0' || list[strlen(list) - 1] == ',') {
		*why = "not a CPU list (0,2-3)";
		return -1;
	}
	CPU_XOR(&p->rest, &allowed, &p->work);
	p->any_rest = CPU_COUNT(&p->rest) > 0;
	return 0;
}

static int pin_hook_start(void *ctx, pid_t child, struct sandbox *sb)
{
	struct pin *p = ctx;
	(void)sb;
	return sched_setaffinity(child, sizeof(p->work), &p->work);  /* -1 with errno */
}

static void pin_hook_stop(void *ctx, struct result *r)
{
	(void)ctx;
	(void)r;
}

struct runner_hook pin_hook(struct pin *p)
{
	return (struct runner_hook){ .name = "cpu pin", .start = pin_hook_start, .stop = pin_hook_stop, .ctx = p };
}
