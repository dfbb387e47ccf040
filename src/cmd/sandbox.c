/* Placeholder until the 'sandbox' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt sandbox_cmd_opts[] = { OPT_END };

int cmd_sandbox(int argc, char **argv)
{
	vmr_err("sandbox: not available in this build");
	return VMR_EXIT_CANNOT;
}
