/* Figures for people: every unit's steps, the rounding carried across a
 * step's boundary, signs, zero and what is not a number. */
#include <math.h>

#include "core/units.h"
#include "t.h"

static void fmt_is(double v, const char *unit, const char *want)
{
	char buf[64];
	units_format_value(buf, sizeof(buf), v, unit);
	CHECK(!strcmp(buf, want), "%.17g %s prints as '%s' (got '%s')", v, unit, want, buf);
}

static void axis_is(double max, const char *unit, double div_want, const char *label_want)
{
	char label[64];
	double div = units_axis(max, unit, label, sizeof(label));
	CHECK(div == div_want && !strcmp(label, label_want), "axis up to %g %s is /%g '%s' (got /%g '%s')", max,
	      unit, div_want, label_want, div, label);
}

int main(void)
{
	/* times: ns, us, ms, s; whole ns as they are */
	fmt_is(0, "ns", "0 ns");
	fmt_is(74, "ns", "74 ns");
	fmt_is(999.9, "ns", "999.9 ns");
	fmt_is(999.96, "ns", "1.000 us");  /* rounds into the next step */
	fmt_is(1000, "ns", "1.000 us");
	fmt_is(72447.5, "ns", "72.45 us");
	fmt_is(1.10833e7, "ns", "11.08 ms");
	fmt_is(1.72242e8, "ns", "172.2 ms");
	fmt_is(5.92232e9, "ns", "5.922 s");
	fmt_is(3.6e12, "ns", "3600 s");     /* no step past seconds */
	fmt_is(-1.5e6, "ns", "-1.500 ms");
	fmt_is(2295.5, "time_ns", "2.296 us");
	/* bytes: powers of 1024 */
	fmt_is(512, "bytes", "512 B");
	fmt_is(1023.99, "bytes", "1.000 KiB");
	fmt_is(3.93216e6, "bytes", "3.750 MiB");
	fmt_is(7.11721e7, "bytes", "67.88 MiB");
	fmt_is(64.0 * 1073741824.0, "bytes", "64.00 GiB");
	fmt_is(2.5 * 1048576, "bytes/s", "2.500 MiB/s");
	/* counts and rates: k, M, G on the number */
	fmt_is(2904, "faults", "2.904k faults");
	fmt_is(999, "faults", "999 faults");
	fmt_is(56072, "events", "56.07k events");
	fmt_is(2225.31, "pages/s", "2.225k pages/s");
	fmt_is(1.2345678e7, "faults/s", "12.35M faults/s");
	fmt_is(0.25, "pages", "0.2500 pages");
	fmt_is(-56072, "pages", "-56.07k pages");
	fmt_is(12, "", "12");
	fmt_is(12345, "", "12.35k");
	/* not scaled */
	fmt_is(11.3943, "%", "11.39%");
	fmt_is(0, "%", "0%");
	fmt_is(1.05, "x", "1.050 x");
	fmt_is(2500, "ratio", "2500 ratio");
	/* not numbers */
	fmt_is(NAN, "ns", "-");
	fmt_is(INFINITY, "ns", "inf ns");
	fmt_is(-INFINITY, "", "-inf");
	fmt_is(-0.0, "ns", "0 ns");
	char small[6];
	units_format_value(small, sizeof(small), 1.10833e7, "ns");
	CHECK(strlen(small) == 5, "a short buffer is cut, not overrun ('%s')", small);

	/* axes: the step of the largest value */
	axis_is(1.2e9, "ns", 1e9, "s");
	axis_is(8e8, "ns", 1e6, "ms");
	axis_is(999, "ns", 1, "ns");
	axis_is(2.5e10, "bytes", 1073741824.0, "GiB");
	axis_is(6.7e7, "bytes", 1048576.0, "MiB");
	axis_is(3e5, "pages/s", 1e3, "k pages/s");
	axis_is(30, "pages", 1, "pages");
	axis_is(5e4, "%", 1, "%");
	axis_is(NAN, "ns", 1, "ns");
	T_DONE();
}
