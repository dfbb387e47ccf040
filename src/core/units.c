#include "core/units.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"

struct unit {
	const char *suffix;
	double scale;   /* 0: pages */
};

static const struct unit size_units[] = {
	{ "", 1 }, { "B", 1 },
	{ "K", 1024.0 }, { "KB", 1024.0 }, { "KiB", 1024.0 }, { "k", 1024.0 },
	{ "M", 1048576.0 }, { "MB", 1048576.0 }, { "MiB", 1048576.0 },
	{ "G", 1073741824.0 }, { "GB", 1073741824.0 }, { "GiB", 1073741824.0 },
	{ "T", 1099511627776.0 }, { "TB", 1099511627776.0 }, { "TiB", 1099511627776.0 },
	{ "P", 1125899906842624.0 }, { "PB", 1125899906842624.0 }, { "PiB", 1125899906842624.0 },
	{ "p", 0 },
};

/* Printing uses these, largest first. */
static const struct unit size_print[] = {
	{ "P", 1125899906842624.0 }, { "T", 1099511627776.0 }, { "G", 1073741824.0 },
	{ "M", 1048576.0 }, { "K", 1024.0 },
};

static const struct unit time_units[] = {
	{ "", 1e9 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	{ "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
};

/* Split "1.5G" into a non-negative decimal and a suffix.  Strict: digits,
 * at most one dot, at least one digit. */
static int units_number(const char *s, double *val, const char **suffix, const char **why)
{
	const char *p = s;
	int digits = 0, dots = 0;
	if (!s || !*s) {
		*why = "empty";
		return -1;
	}
	if (*p == '-') {
		*why = "negative";
		return -1;
	}
	if (*p == '+')
		p++;
	const char *start = p;
	for (; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.')
			dots++;
		else
			break;
	}
	if (!digits) {
		*why = "not a number";
		return -1;
	}
	if (dots > 1) {
		*why = "more than one decimal point";
		return -1;
	}
	char tmp[64];
	size_t n = (size_t)(p - start);
	if (n >= sizeof(tmp)) {
		*why = "too long";
		return -1;
	}
	memcpy(tmp, start, n);
	tmp[n] = '\0';
	*val = strtod(tmp, NULL);
	*suffix = p;
	return 0;
}

static const struct unit *units_find(const struct unit *t, size_t n, const char *suffix)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i].suffix, suffix))
			return &t[i];
	return NULL;
}

int units_parse_size(const char *s, uint64_t *bytes, const char **why)
{
	double v;
	const char *suffix;
	if (units_number(s, &v, &suffix, why) < 0)
		return -1;
	const struct unit *u = units_find(size_units, ARRAY_SIZE(size_units), suffix);
	if (!u) {
		*why = "unknown unit (use K, M, G, T, P or p for pages)";
		return -1;
	}
	double scale = u->scale ? u->scale : (double)vmr_page_size();
	double b = v * scale;
	if (!isfinite(b) || b >= 18446744073709551615.0) {
		*why = "too large";
		return -1;
	}
	if (b != floor(b) && scale == 1) {
		*why = "not a whole number of bytes";
		return -1;
	}
	*bytes = (uint64_t)b;
	return 0;
}

int units_parse_rsize(const char *s, struct vmr_rsize *out, const char **why)
{
	size_t n = s ? strlen(s) : 0;
	if (n > 1 && s[n - 1] == 'x') {
		double v;
		const char *suffix;
		if (units_number(s, &v, &suffix, why) < 0)
			return -1;
		if (strcmp(suffix, "x")) {
			*why = "a relative size is a number then x, like 1.5x";
			return -1;
		}
		if (v <= 0 || v > 1e6) {
			*why = v <= 0 ? "must be more than 0x" : "too large";
			return -1;
		}
		out->factor = v;
		out->bytes = 0;
		return 0;
	}
	out->factor = 0;
	return units_parse_size(s, &out->bytes, why);
}

uint64_t units_rsize_bytes(const struct vmr_rsize *r, uint64_t base)
{
	if (!r->factor)
		return r->bytes;
	uint64_t ps = vmr_page_size();
	double b = r->factor * (double)base;
	return (uint64_t)(b / ps) * ps;
}

int units_parse_time(const char *s, uint64_t *ns, const char **why)
{
	double v;
	const char *suffix;
	if (units_number(s, &v, &suffix, why) < 0)
		return -1;
	const struct unit *u = units_find(time_units, ARRAY_SIZE(time_units), suffix);
	if (!u) {
		*why = "unknown unit (use ns, us, ms, s, m or h)";
		return -1;
	}
	double t = v * u->scale;
	if (!isfinite(t) || t >= 1.8e19) {
		*why = "too large";
		return -1;
	}
	*ns = (uint64_t)llround(t);
	return 0;
}

char *units_format_size(char *buf, size_t len, uint64_t bytes)
{
	for (size_t i = 0; i < ARRAY_SIZE(size_print); i++) {
		double v = (double)bytes / size_print[i].scale;
		if (v < 1)
			continue;
		/* Exact multiples print as integers; others with two decimals,
		 * trailing zeros trimmed. */
		if (bytes % (uint64_t)size_print[i].scale == 0) {
			snprintf(buf, len, "%llu%s", (unsigned long long)(bytes / (uint64_t)size_print[i].scale),
				 size_print[i].suffix);
		} else {
			snprintf(buf, len, "%.2f", v);
			char *e = buf + strlen(buf) - 1;
			while (*e == '0')
				*e-- = '\0';
			if (*e == '.')
				*e = '\0';
			strncat(buf, size_print[i].suffix, len - strlen(buf) - 1);
		}
		return buf;
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

char *units_format_time(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3gus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3gms", ns / 1e6);
	else if (ns % 1000000000 == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000));
	else
		snprintf(buf, len, "%.4gs", ns / 1e9);
	return buf;
}

char *units_format_rsize(char *buf, size_t len, const struct vmr_rsize *r)
{
	if (r->factor) {
		snprintf(buf, len, "%gx", r->factor);
		return buf;
	}
	return units_format_size(buf, len, r->bytes);
}

/* ---- figures for people ---- */

struct unit_steps {
	const char *unit;
	double step;
	const char *const names[6];  /* NULL-terminated */
	bool prefix;                 /* names are prefixes of the number, before the unit */
};

static const struct unit_steps human_units[] = {
	{ "ns", 1000, { "ns", "us", "ms", "s", NULL }, false },
	{ "bytes", 1024, { "B", "KiB", "MiB", "GiB", "TiB", NULL }, false },
	{ "bytes/s", 1024, { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s", NULL }, false },
};
static const struct unit_steps count_steps = { "", 1000, { "", "k", "M", "G", "T", NULL }, true };
static const char *const unscaled_units[] = { "%", "x", "ratio" };

static const struct unit_steps *units_steps(const char *unit, bool *scaled)
{
	size_t n = strlen(unit);
	*scaled = true;
	for (size_t i = 0; i < ARRAY_SIZE(unscaled_units); i++)
		if (!strcmp(unit, unscaled_units[i]))
			*scaled = false;
	if (n > 3 && !strcmp(unit + n - 3, "_ns"))
		return &human_units[0];
	for (size_t i = 0; i < ARRAY_SIZE(human_units); i++)
		if (!strcmp(unit, human_units[i].unit))
			return &human_units[i];
	return &count_steps;
}

static size_t units_nsteps(const struct unit_steps *u)
{
	size_t k = 0;
	while (u->names[k])
		k++;
	return k;
}

/* The label of step k: "ms", or "k pages/s" for prefixed steps. */
static void units_label(char *buf, size_t len, const struct unit_steps *u, size_t k, const char *unit)
{
	if (!u->prefix)
		snprintf(buf, len, "%s", u->names[k]);
	else
		snprintf(buf, len, "%s%s%s", u->names[k], *u->names[k] && *unit ? " " : "", unit);
}

double units_axis(double max_abs, const char *unit, char *label, size_t len)
{
	bool scaled;
	const struct unit_steps *u = units_steps(unit ? unit : "", &scaled);
	size_t k = 0, n = units_nsteps(u);
	double div = 1;
	max_abs = fabs(max_abs);
	while (scaled && isfinite(max_abs) && k + 1 < n && max_abs >= div * u->step)
		div *= u->step, k++;
	if (!scaled)
		snprintf(label, len, "%s", unit ? unit : "");
	else
		units_label(label, len, u, k, unit ? unit : "");
	return div;
}

char *units_format_value(char *buf, size_t len, double v, const char *unit)
{
	if (!unit)
		unit = "";
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%sinf%s%s", v < 0 ? "-" : "", *unit ? " " : "", unit);
		return buf;
	}
	bool scaled;
	const struct unit_steps *u = units_steps(unit, &scaled);
	size_t k = 0, n = units_nsteps(u);
	double a = fabs(v), div = 1;
	char num[40];
	/* Step up while the figure, rounded to four digits, reaches the
	 * next step: 999.96 rounds to 1000, which is 1.000 of the next. */
	while (scaled && k + 1 < n && strtod((snprintf(num, sizeof(num), "%.4g", a / div), num), NULL) >= u->step)
		div *= u->step, k++;
	double x = v / div;
	if (k == 0 && x == floor(x) && fabs(x) < 1e15)
		snprintf(num, sizeof(num), "%.0f", x);
	else if (fabs(x) >= 1000)
		snprintf(num, sizeof(num), "%.0f", x);
	else
		snprintf(num, sizeof(num), "%#.4g", x);
	if (!strcmp(num, "-0") || !strcmp(num, "-0.000"))
		memmove(num, num + 1, strlen(num));
	if (!scaled)
		snprintf(buf, len, "%s%s%s", num, *unit && strcmp(unit, "%") ? " " : "", unit);
	else if (u->prefix)
		snprintf(buf, len, "%s%s%s%s", num, u->names[k], *unit ? " " : "", unit);
	else
		snprintf(buf, len, "%s %s", num, u->names[k]);
	return buf;
}
