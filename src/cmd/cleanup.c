/* Placeholder until the 'cleanup' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt cleanup_cmd_opts[] = { OPT_END };

int cmd_cleanup(int argc, char **argv)
{
	vmr_err("cleanup: not available in this build");
	return VMR_EXIT_CANNOT;
}
