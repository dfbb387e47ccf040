/* Placeholder until the 'run' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt run_cmd_opts[] = { OPT_END };

int cmd_run(int argc, char **argv)
{
	vmr_err("run: not available in this build");
	return VMR_EXIT_CANNOT;
}
