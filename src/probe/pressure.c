/* Pressure stall information: "some|full avg10=X avg60=X avg300=X total=N". */
#include "probe/pressure.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static int pressure_field(const char **p, const char *end, const char *key, double *out)
{
	probe_skip_space(p, end);
	return probe_lit(p, end, key) && probe_double(p, end, out) == 0 ? 0 : -1;
}

static int pressure_line_parse(struct pressure_line *pl, const char *p, const char *end)
{
	if (pressure_field(&p, end, "avg10=", &pl->avg10) < 0 ||
	    pressure_field(&p, end, "avg60=", &pl->avg60) < 0 ||
	    pressure_field(&p, end, "avg300=", &pl->avg300) < 0)
		return -1;
	probe_skip_space(&p, end);
	if (!probe_lit(&p, end, "total=") || probe_u64(&p, end, &pl->total_us) < 0)
		return -1;
	probe_skip_space(&p, end);
	if (p != end || pl->avg10 > 100 || pl->avg60 > 100 || pl->avg300 > 100)
		return -1;
	return 0;
}

int pressure_parse(struct pressure *pr, const char *buf, size_t len, char *err)
{
	struct probe_lines l = { 0 };
	const char *line;
	size_t ll;
	bool have_some = false;
	memset(pr, 0, sizeof(*pr));
	if (len == 0) {
		probe_err(err, 0, "empty");
		return -1;
	}
	probe_lines_init(&l, buf, len);
	while (probe_lines_next(&l, &line, &ll)) {
		const char *p = line, *end = line + ll;
		struct pressure_line *pl;
		if (l.p == l.end && buf[len - 1] != '\n') {
			probe_err(err, l.lineno, "truncated (no newline at the end)");
			return -1;
		}
		if (probe_lit(&p, end, "some ") && !have_some) {
			pl = &pr->some;
			have_some = true;
		} else if (probe_lit(&p, end, "full ") && !pr->have_full) {
			pl = &pr->full;
			pr->have_full = true;
		} else {
			probe_err(err, l.lineno, "expected one 'some' and at most one 'full' line");
			return -1;
		}
		if (pressure_line_parse(pl, p, end) < 0) {
			probe_err(err, l.lineno, "expected 'avg10=N.NN avg60=N.NN avg300=N.NN total=N'");
			return -1;
		}
	}
	if (!have_some) {
		probe_err(err, 0, "no 'some' line");
		return -1;
	}
	return 0;
}

int pressure_read(struct pressure *p, const char *path, char *err)
{
	char *buf;
	size_t len;
	if (probe_read_file(path ? path : "/proc/pressure/memory", &buf, &len, err) < 0)
		return -1;
	int r = pressure_parse(p, buf, len, err);
	free(buf);
	return r;
}

bool pressure_available(void)
{
	struct pressure p = { 0 };
	char err[PROBE_ERR_MAX] = "";
	return pressure_read(&p, NULL, err) == 0;
}
