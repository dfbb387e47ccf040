/* Option tables: parse, range checks, help and echo all from one table. */
#include <stdlib.h>

#include "core/options.h"
#include "t.h"

struct o {
	long n;
	uint64_t size;
	struct vmr_rsize rsize;
	uint64_t t;
	bool flag;
	int level;
	char *path;
	struct strlist set;
	double alpha;
};

static const struct opt tab[] = {
	{ .name = "n", .type = OPT_INT, .off = offsetof(struct o, n), .def = "5", .min = 1, .max = 100, .help = "count" },
	{ .name = "mem", .type = OPT_SIZE, .off = offsetof(struct o, size), .def = "256M", .min = 4096, .max = 1ull << 40, .help = "limit" },
	{ .name = "size", .type = OPT_RSIZE, .off = offsetof(struct o, rsize), .def = "1.5x", .help = "size" },
	{ .name = "sleep", .type = OPT_TIME, .off = offsetof(struct o, t), .def = "5s", .help = "sleep" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct o, flag), .help = "json", .flags = OPTF_NO_ECHO },
	{ .name = "level", .type = OPT_ENUM, .off = offsetof(struct o, level), .def = "fast", .choices = "fast|low|min|zero", .help = "level" },
	{ .name = "file", .type = OPT_STR, .off = offsetof(struct o, path), .help = "path", .short_name = 'f' },
	{ .name = "set", .type = OPT_LIST, .off = offsetof(struct o, set), .help = "knob" },
	{ .name = "alpha", .type = OPT_DOUBLE, .off = offsetof(struct o, alpha), .def = "0.05", .min = 0, .max = 1, .help = "alpha" },
	OPT_END,
};

int main(void)
{
	struct o v = { 0 };
	OPT_DEFAULTS(tab, &v);
	CHECK(v.n == 5 && v.size == 256ull << 20 && v.rsize.factor == 1.5 && v.t == 5000000000ull && v.level == 0 &&
	      v.alpha == 0.05, "defaults applied");

	char *argv[] = { "--n", "7", "--mem=64M", "pos1", "--json", "--level", "zero", "-f", "/tmp/x",
			 "--set", "a=1", "--set", "b=2", "--", "--not-an-option" };
	char *pos[16];
	int npos;
	struct optset set = { tab, &v, NULL };
	CHECK(opt_parse(&set, 1, (int)ARRAY_SIZE(argv), argv, pos, &npos, NULL) == 0, "argv parses");
	CHECK(v.n == 7 && v.size == 64ull << 20 && v.flag && v.level == 3, "values set");
	CHECK_STR(v.path, "/tmp/x", "short option sets string");
	CHECK(v.set.n == 2 && !strcmp(v.set.v[1], "b=2"), "list option repeats");
	CHECK(npos == 2 && !strcmp(pos[0], "pos1") && !strcmp(pos[1], "--not-an-option"), "positionals kept, -- ends options");

	char *bad1[] = { "--n", "0" };
	CHECK(opt_parse(&set, 1, 2, bad1, pos, &npos, NULL) < 0, "out of range refused");
	char *bad2[] = { "--mem", "-5M" };
	CHECK(opt_parse(&set, 1, 2, bad2, pos, &npos, NULL) < 0, "negative size refused");
	char *bad3[] = { "--level", "medium" };
	CHECK(opt_parse(&set, 1, 2, bad3, pos, &npos, NULL) < 0, "bad enum refused");
	char *bad4[] = { "--nope" };
	CHECK(opt_parse(&set, 1, 1, bad4, pos, &npos, NULL) < 0, "unknown option refused");
	char *bad5[] = { "--n" };
	CHECK(opt_parse(&set, 1, 1, bad5, pos, &npos, NULL) < 0, "missing value refused");
	char *bad6[] = { "--n", "3x" };
	CHECK(opt_parse(&set, 1, 2, bad6, pos, &npos, NULL) < 0, "trailing junk in number refused");
	bool help = false;
	char *h[] = { "--help" };
	CHECK(opt_parse(&set, 1, 1, h, pos, &npos, &help) == 0 && help, "--help noticed");

	json_t *echo = opt_echo(tab, &v);
	CHECK(json_integer_value(json_object_get(echo, "n")) == 7, "echo has n");
	CHECK_STR(json_string_value(json_object_get(echo, "level")), "zero", "echo names the enum value");
	CHECK(!json_object_get(echo, "json"), "no-echo option not echoed");
	CHECK_STR(json_string_value(json_object_get(echo, "size")), "1.5x", "relative size echoed as typed");
	json_decref(echo);

	char buf[64];
	CHECK_STR(opt_value_str(opt_find(tab, "mem"), &v, buf, sizeof(buf)), "64M", "value string round-trips");

	FILE *f = tmpfile();
	opt_help(f, tab);
	long n = ftell(f);
	fclose(f);
	CHECK(n > 100, "help text written");
	opt_free(tab, &v);
	T_DONE();
}
