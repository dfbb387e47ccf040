/* Fuzz the /proc/vmstat parser, reusing one snapshot as monitors do. */
#include <stdlib.h>
#include <string.h>

#include "probe/vmstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vmstat prev, s;
	static int ready;
	char err[PROBE_ERR_MAX] = "";
	if (!ready) {
		vmstat_init(&prev);
		vmstat_init(&s);
		ready = 1;
	}
	if (vmstat_parse(&s, (const char *)data, size, err) < 0) {
		if (!err[0])
			abort();
		return 0;
	}
	int64_t *d = malloc((s.n + 1) * sizeof(*d));
	vmstat_delta(&prev, &s, d);
	for (size_t i = 0; i < s.n; i++) {
		uint64_t v;
		if (!s.items[i].name[0] || strpbrk(s.items[i].name, " \t\n") || vmstat_get(&s, s.items[i].name, &v) < 0)
			abort();
	}
	free(d);
	struct vmstat t = prev;
	prev = s;
	s = t;
	return 0;
}
