/* Placeholder until the 'report' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt report_cmd_opts[] = { OPT_END };

int cmd_report(int argc, char **argv)
{
	vmr_err("report: not available in this build");
	return VMR_EXIT_CANNOT;
}
