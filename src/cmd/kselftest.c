/* vmregress kselftest build|list [--source 6.12|6.1|DIR] [--force] [--json]:
 * the kernel's own mm and cgroup selftests, built from source into the
 * cache (vm/selftests.h) for the kselftest workload. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "report/kselftest_text.h"
#include "vm/selftests.h"

struct kselftest_cmd {
	char *source;
	bool force, json;
};

const struct opt kselftest_cmd_opts[] = {
	{ .name = "source", .type = OPT_STR, .off = offsetof(struct kselftest_cmd, source), .def = "6.12",
	  .metavar = "6.12|6.1|DIR", .help = "a Debian linux-source version (fetched with apt-get download, "
	  "never installed), or a kernel source tree" },
	{ .name = "force", .type = OPT_FLAG, .off = offsetof(struct kselftest_cmd, force),
	  .help = "build again even when the cache holds a build of the same version" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct kselftest_cmd, json),
	  .help = "print the build's record as JSON", .flags = OPTF_NO_ECHO },
	OPT_END,
};

const char kselftest_cmd_details[] =
	"build fetches and builds the selftests of tools/testing/selftests/mm and cgroup, statically "
	"linked, into the cache (once per source version: a later build of the same version does "
	"nothing), and says which tests did not build and why; list says what a build holds. The "
	"kselftest workload runs them: vmregress test kselftest --tests cow,madv_populate, or the "
	"kselftest-mm suite.";

int cmd_kselftest(int argc, char **argv)
{
	struct kselftest_cmd o = { 0 };
	char **pos = NULL;
	int npos = 0, rc = VMR_EXIT_USAGE;
	OPT_DEFAULTS(kselftest_cmd_opts, &o);
	struct optset sets[] = { { kselftest_cmd_opts, &o, "Options" } };
	int p = cmd_parse("kselftest", sets, ARRAY_SIZE(sets), argc, argv, &pos, &npos);
	if (p != 0) {
		rc = p > 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
		goto out;
	}
	if (npos != 1 || (strcmp(pos[0], "build") && strcmp(pos[0], "list"))) {
		vmr_err("kselftest: say 'build' or 'list'%s%s", npos ? ", not " : "", npos ? pos[0] : "");
		goto out;
	}
	json_t *j = NULL;
	if (!strcmp(pos[0], "build")) {
		if (!vmr_is_root()) {
			vmr_err("kselftest build: needs root (apt-get download, and a build the workload runs as root)");
			rc = VMR_EXIT_CANNOT;
			goto out;
		}
		j = selftests_build(o.source, o.force, &rc);
	} else {
		char *dir = selftests_dir(o.source), *bj = xasprintf("%s/build.json", dir);
		json_error_t e;
		j = json_load_file(bj, 0, &e);
		if (!j) {
			vmr_err("kselftest list: the selftests of %s are not built (vmregress kselftest build "
				"--source %s)", o.source, o.source);
			rc = VMR_EXIT_CANNOT;
		}
		free(bj);
		free(dir);
	}
	if (j) {
		char *dir = selftests_dir(o.source);
		rc = o.json ? cmd_print_json(json_incref(j)) : VMR_EXIT_OK;
		if (!o.json)
			kselftest_build_text(stdout, j, dir);
		free(dir);
		json_decref(j);
	}
out:
	free(pos);
	opt_free(kselftest_cmd_opts, &o);
	return rc;
}
