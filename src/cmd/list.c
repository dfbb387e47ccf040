/* Placeholder until the 'list' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt list_cmd_opts[] = { OPT_END };

int cmd_list(int argc, char **argv)
{
	vmr_err("list: not available in this build");
	return VMR_EXIT_CANNOT;
}
