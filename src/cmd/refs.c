/* Placeholder until the 'refs' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt refs_cmd_opts[] = { OPT_END };

int cmd_refs(int argc, char **argv)
{
	vmr_err("refs: not available in this build");
	return VMR_EXIT_CANNOT;
}
