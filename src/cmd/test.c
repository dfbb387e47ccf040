/* Placeholder until the 'test' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt test_cmd_opts[] = { OPT_END };

int cmd_test(int argc, char **argv)
{
	vmr_err("test: not available in this build");
	return VMR_EXIT_CANNOT;
}
