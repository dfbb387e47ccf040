/* Placeholder until the 'matrix' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt matrix_cmd_opts[] = { OPT_END };

int cmd_matrix(int argc, char **argv)
{
	vmr_err("matrix: not available in this build");
	return VMR_EXIT_CANNOT;
}
