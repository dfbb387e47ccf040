/* Placeholder until the 'delete' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt delete_cmd_opts[] = { OPT_END };

int cmd_delete(int argc, char **argv)
{
	vmr_err("delete: not available in this build");
	return VMR_EXIT_CANNOT;
}
