/* Placeholder until the 'show' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt show_cmd_opts[] = { OPT_END };

int cmd_show(int argc, char **argv)
{
	vmr_err("show: not available in this build");
	return VMR_EXIT_CANNOT;
}
