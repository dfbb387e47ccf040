/* vmregress cleanup: undo what killed vmregress processes left behind. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "report/outcome_text.h"
#include "trace/trace.h"
#include "sandbox/sandbox.h"

struct cleanup_cmd {
	bool json;
};

const struct opt cleanup_cmd_opts[] = {
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct cleanup_cmd, json),
	  .help = "print what was done as one JSON document", .flags = OPTF_NO_ECHO },
	OPT_END,
};

int cmd_cleanup(int argc, char **argv)
{
	struct cleanup_cmd o = { 0 };
	struct optset sets[] = { { cleanup_cmd_opts, &o, "Options" } };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	int npos = 0, rc = VMR_EXIT_USAGE;
	bool help = false;
	if (opt_parse(sets, 1, argc - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_pos;
	if (help) {
		cmd_help(stdout, cmd_find("cleanup"));
		rc = VMR_EXIT_OK;
		goto free_pos;
	}
	if (npos) {
		vmr_err("cleanup: '%s' is not an argument of cleanup", pos[0]);
		goto free_pos;
	}
	json_t *actions = json_array();
	int r = sandbox_cleanup_report(actions);
	if (trace_cleanup_report(actions) < 0 && r >= 0)
		r = -1;
	rc = r == -2 ? VMR_EXIT_CANNOT : r < 0 ? VMR_EXIT_FAIL : VMR_EXIT_OK;
	if (r == -2 && !json_array_size(actions)) {
		json_decref(actions);
		goto free_pos;
	}
	if (o.json) {
		json_t *doc = json_object();
		json_object_set_new(doc, "actions", actions);
		json_object_set_new(doc, "clean", json_boolean(r >= 0));
		if (cmd_print_json(doc) != VMR_EXIT_OK)
			rc = VMR_EXIT_CANNOT;
	} else {
		outcome_cleanup(stdout, actions);
		json_decref(actions);
	}
free_pos:
	free(pos);
	return rc;
}
