/* /proc/stat's CPU line: the host's CPU time and the hypervisor's steal. */
#include "fixture.h"
#include "probe/cpustat.h"
#include "t.h"

static void bad_file(const char *name, const char *buf, size_t len, void *arg)
{
	struct cpustat c = { 0 };
	char err[PROBE_ERR_MAX] = "";
	(void)arg;
	CHECK(cpustat_parse(&c, buf, len, err) == -1, "%s is rejected", name);
	CHECK(err[0] != '\0', "%s: the reason is given (%s)", name, err);
}

int main(void)
{
	size_t len;
	struct cpustat c = { 0 };
	char err[PROBE_ERR_MAX] = "";
	char *buf = fixture_read("cpustat", "linux-6.18-vm.txt", &len);
	CHECK(cpustat_parse(&c, buf, len, err) == 0, "a guest's /proc/stat parses (%s)", err);
	CHECK_EQ_U(c.steal, 111565, "its steal");
	CHECK_EQ_U(c.total, 2059065ull + 11652 + 646239 + 426356 + 36324 + 0 + 26009 + 111565,
		   "its total: the eight fields, guest time left out (in user already)");
	free(buf);
	buf = fixture_read("cpustat", "linux-2.4-four-fields.txt", &len);
	CHECK(cpustat_parse(&c, buf, len, err) == 0 && c.steal == 0 && c.total == 1150,
	      "four fields (before iowait and steal) parse, steal 0");
	free(buf);
	buf = fixture_read("cpustat", "bad-not-first.txt", &len);
	cpustat_parse(&c, buf, len, err);
	CHECK(strstr(err, "line 1:") != NULL, "a first line that is not 'cpu' is named (%s)", err);
	free(buf);
	CHECK(fixture_each("cpustat", "bad-*", bad_file, NULL) >= 4, "bad fixtures exist");
	err[0] = '\0';
	CHECK(cpustat_read(&c, NULL, err) == 0 && c.total > 0 && c.steal <= c.total,
	      "the running kernel's /proc/stat parses (%s)", err);
	T_DONE();
}
