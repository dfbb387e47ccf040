/* vmregress suites: the built-in suites, with their descriptions. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "harness/suite.h"
#include "report/suite_list.h"

struct suites_cmd {
	bool json;
};

const struct opt suites_cmd_opts[] = {
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct suites_cmd, json),
	  .help = "print the suites as JSON (name, path, description, cases)", .flags = OPTF_NO_ECHO },
	OPT_END,
};

/* One suite as JSON, or NULL with a one-line error when it does not load. */
static json_t *suites_one(const char *name)
{
	struct suite s = { 0 };
	if (suite_load(&s, name) < 0)
		return NULL;
	json_t *cases = json_array();
	for (size_t i = 0; i < s.ncases; i++)
		json_array_append_new(cases, json_string(s.cases[i].name));
	json_t *j = json_pack("{s:s, s:s, s:s?, s:o}", "name", name, "path", s.path, "description",
			      s.global.description, "cases", cases);
	suite_free(&s);
	return j;
}

int cmd_suites(int argc, char **argv)
{
	struct suites_cmd o = { 0 };
	struct optset sets[] = { { suites_cmd_opts, &o, "Options" } };
	char **pos = NULL;
	int npos = 0, rc = VMR_EXIT_USAGE;
	int p = cmd_parse("suites", sets, 1, argc, argv, &pos, &npos);
	if (p) {
		rc = p > 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
		goto free_pos;
	}
	if (npos) {
		vmr_err("suites: '%s' is not an argument of suites", pos[0]);
		goto free_pos;
	}
	char **names = NULL;
	size_t n = suite_builtins(&names);
	json_t *all = json_array();
	rc = VMR_EXIT_OK;
	for (size_t i = 0; i < n; i++) {
		json_t *j = suites_one(names[i]);
		if (j)
			json_array_append_new(all, j);
		else
			rc = VMR_EXIT_USAGE;
	}
	suite_builtins_free(names, n);
	if (o.json) {
		int r = cmd_print_json(all);
		if (r)
			rc = r;
	} else {
		suite_list_text(all);
		json_decref(all);
	}
free_pos:
	free(pos);
	return rc;
}
