/* vmregress sandbox status | sandbox exec [sandbox options] -- CMD [ARGS...] */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "harness/exec.h"
#include "report/sandbox_text.h"
#include "sandbox/sandbox.h"

struct sandbox_cmd {
	bool json;
};

const struct opt sandbox_cmd_opts[] = {
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct sandbox_cmd, json),
	  .help = "print one JSON document on standard output (exec: the command's own output goes to "
	  "standard error)", .flags = OPTF_NO_ECHO },
	OPT_END,
};

static void sandbox_cmd_help(void)
{
	cmd_help(stdout, cmd_find("sandbox"));
	fputs("\nSandbox options (exec):\n", stdout);
	opt_help(stdout, sandbox_opts);
}

static int sandbox_cmd_status(const struct sandbox_cmd *o)
{
	json_t *st;
	if (sandbox_status(&st) < 0)
		return VMR_EXIT_CANNOT;
	if (o->json)
		return cmd_print_json(st);
	sandbox_status_text(st);
	json_decref(st);
	return VMR_EXIT_OK;
}

/* The command's own exit status, as a shell would report it. */
static int sandbox_exec_status(const struct exec_result *r)
{
	if (r->outcome == EXEC_TIMEOUT)
		return 124;
	if (r->outcome == EXEC_EXITED)
		return r->exit_status;
	return 128 + r->signal;
}

static int sandbox_cmd_exec(const struct sandbox_cmd *o, struct sandbox_cfg *cfg, char **argv)
{
	struct sandbox *sb;
	struct exec_result r = { 0 };
	if (sandbox_cfg_check(cfg) < 0)
		return VMR_EXIT_USAGE;
	sandbox_install_signal_handlers();
	int e = sandbox_open(&sb, cfg);
	if (e < 0)
		return e == -1 ? VMR_EXIT_USAGE : VMR_EXIT_CANNOT;
	json_t *desc = sandbox_describe(sb);
	fflush(stdout);
	int saved_stdout = -1;
	if (o->json) {
		/* one JSON document on stdout: the command writes to stderr */
		saved_stdout = dup(STDOUT_FILENO);
		dup2(STDERR_FILENO, STDOUT_FILENO);
	}
	e = exec_run(sb, argv, cfg->timeout_ns, &r);
	if (saved_stdout >= 0) {
		dup2(saved_stdout, STDOUT_FILENO);
		close(saved_stdout);
	}
	sandbox_close(sb);
	if (e < 0) {
		vmr_err("%s", r.error);
		json_decref(desc);
		exec_result_free(&r);
		return e == -1 ? VMR_EXIT_USAGE : VMR_EXIT_CANNOT;
	}
	int rc = sandbox_exec_status(&r);
	if (o->json) {
		json_t *j = exec_result_json(&r);
		json_t *cmd = json_array();
		for (int i = 0; argv[i]; i++)
			json_array_append_new(cmd, json_string(argv[i]));
		json_object_set_new(j, "command", cmd);
		json_object_set_new(j, "sandbox", desc);
		json_object_set(j, "before", r.before);
		json_object_set(j, "after", r.after);
		if (cmd_print_json(j) != VMR_EXIT_OK)
			rc = VMR_EXIT_CANNOT;
	} else {
		json_decref(desc);
		sandbox_exec_text(stderr, argv, &r);
	}
	exec_result_free(&r);
	return rc;
}

int cmd_sandbox(int argc, char **argv)
{
	struct sandbox_cmd o = { 0 };
	struct sandbox_cfg cfg = { 0 };
	int dd = argc, npos = 0, rc = VMR_EXIT_USAGE;
	bool help = false;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dd = i;
			break;
		}
	OPT_DEFAULTS(sandbox_opts, &cfg);
	struct optset sets[] = { { sandbox_cmd_opts, &o, "Options" }, { sandbox_opts, &cfg, "Sandbox options" } };
	char **pos = xcalloc((size_t)argc + 1, sizeof(char *));
	if (opt_parse(sets, ARRAY_SIZE(sets), dd - 1, argv + 1, pos, &npos, &help) < 0)
		goto free_pos;
	if (help) {
		sandbox_cmd_help();
		rc = VMR_EXIT_OK;
		goto free_pos;
	}
	if (npos == 0) {
		vmr_err("sandbox: say 'status' or 'exec -- CMD [ARGS...]'");
		goto free_pos;
	}
	if (!strcmp(pos[0], "status")) {
		if (npos > 1 || dd < argc || cfg.set.n) {
			vmr_err("sandbox status: '%s' is not an option of status", npos > 1 ? pos[1] : "--");
			goto free_pos;
		}
		rc = sandbox_cmd_status(&o);
	} else if (!strcmp(pos[0], "exec")) {
		/* the command: after "--", or the words after "exec" */
		char **cmdv = dd < argc ? argv + dd + 1 : pos + 1;
		if (dd < argc && npos > 1) {
			vmr_err("sandbox exec: '%s' before '--' is not an option", pos[1]);
			goto free_pos;
		}
		if (!cmdv[0]) {
			vmr_err("sandbox exec: no command given (sandbox exec [options] -- CMD [ARGS...])");
			goto free_pos;
		}
		rc = sandbox_cmd_exec(&o, &cfg, cmdv);
	} else {
		vmr_err("sandbox: unknown subcommand '%s' (status or exec)", pos[0]);
	}
free_pos:
	free(pos);
	opt_free(sandbox_opts, &cfg);
	return rc;
}
