/* Placeholder until the 'compare' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt compare_cmd_opts[] = { OPT_END };

int cmd_compare(int argc, char **argv)
{
	vmr_err("compare: not available in this build");
	return VMR_EXIT_CANNOT;
}
