/* Pressure stall information parsing. */
#include "fixture.h"
#include "probe/pressure.h"
#include "t.h"

static void bad_file(const char *name, const char *buf, size_t len, void *arg)
{
	struct pressure p = { 0 };
	char err[PROBE_ERR_MAX] = "";
	CHECK(pressure_parse(&p, buf, len, err) == -1, "%s is rejected", name);
	CHECK(err[0] != '\0', "%s: the reason is given (%s)", name, err);
}

int main(void)
{
	size_t len;
	struct pressure p = { 0 };
	char err[PROBE_ERR_MAX] = "";
	char *buf = fixture_read("pressure", "linux-6.18-busy.txt", &len);
	CHECK(pressure_parse(&p, buf, len, err) == 0, "a busy memory pressure file parses (%s)", err);
	CHECK_NEAR(p.some.avg10, 12.34, 1e-9, "some avg10");
	CHECK_NEAR(p.some.avg60, 5.01, 1e-9, "some avg60");
	CHECK_EQ_U(p.some.total_us, 123456789, "some total");
	CHECK(p.have_full, "full is there");
	CHECK_NEAR(p.full.avg10, 100.0, 1e-9, "full avg10 may be 100");
	CHECK_NEAR(p.full.avg300, 0.05, 1e-9, "full avg300");
	CHECK_EQ_U(p.full.total_us, 9876543, "full total");
	free(buf);
	buf = fixture_read("pressure", "linux-5.4-cpu-some-only.txt", &len);
	CHECK(pressure_parse(&p, buf, len, err) == 0 && !p.have_full, "a 'some' line alone parses");
	free(buf);
	buf = fixture_read("pressure", "bad-over-100.txt", &len);
	pressure_parse(&p, buf, len, err);
	CHECK(strstr(err, "line 1:") != NULL, "a value over 100%% names the line (%s)", err);
	free(buf);
	CHECK(fixture_each("pressure", "bad-*", bad_file, NULL) >= 6, "bad fixtures exist");
	if (pressure_available())
		CHECK(pressure_read(&p, NULL, err) == 0, "the running kernel's memory pressure parses (%s)", err);
	else
		SKIP("no PSI on this kernel");
	T_DONE();
}
