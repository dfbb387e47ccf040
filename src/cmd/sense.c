/* Placeholder until the 'sense' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt sense_cmd_opts[] = { OPT_END };

int cmd_sense(int argc, char **argv)
{
	vmr_err("sense: not available in this build");
	return VMR_EXIT_CANNOT;
}
