/* /proc/stat's aggregate CPU line (cpustat.h). */
#include "probe/cpustat.h"

#include <stdlib.h>
#include <string.h>

int cpustat_parse(struct cpustat *c, const char *buf, size_t len, char *err)
{
	struct probe_lines l = { 0 };
	const char *line = NULL;
	size_t ll = 0;
	memset(c, 0, sizeof(*c));
	probe_lines_init(&l, buf, len);
	if (len == 0 || !probe_lines_next(&l, &line, &ll)) {
		probe_err(err, 0, "empty");
		return -1;
	}
	const char *p = line, *end = line + ll;
	if (!probe_lit(&p, end, "cpu ")) {
		probe_err(err, 1, "expected the 'cpu' line first");
		return -1;
	}
	/* user nice system idle: always; iowait irq softirq steal: 2.6.x */
	size_t n = 0;
	for (; n < 8; n++) {
		uint64_t v = 0;
		probe_skip_space(&p, end);
		if (p == end)
			break;
		if (probe_u64(&p, end, &v) < 0 || (p < end && *p != ' ')) {
			probe_err(err, 1, "field %zu is not a number", n + 1);
			return -1;
		}
		if (v > UINT64_MAX - c->total) {
			probe_err(err, 1, "the fields' sum overflows");
			return -1;
		}
		c->total += v;
		if (n == 7)
			c->steal = v;
	}
	if (n < 4) {
		probe_err(err, 1, "expected at least 4 fields, got %zu", n);
		return -1;
	}
	return 0;
}

int cpustat_read(struct cpustat *c, const char *path, char *err)
{
	char *buf;
	size_t len;
	if (probe_read_file(path ? path : "/proc/stat", &buf, &len, err) < 0)
		return -1;
	int r = cpustat_parse(c, buf, len, err);
	free(buf);
	return r;
}
