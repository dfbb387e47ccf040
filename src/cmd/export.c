/* Placeholder until the 'export' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt export_cmd_opts[] = { OPT_END };

int cmd_export(int argc, char **argv)
{
	vmr_err("export: not available in this build");
	return VMR_EXIT_CANNOT;
}
