/* Placeholder until the 'plot-map' command lands. */
#include "cmd/cmd.h"
#include "core/util.h"

const struct opt plot_map_cmd_opts[] = { OPT_END };

int cmd_plot_map(int argc, char **argv)
{
	vmr_err("plot-map: not available in this build");
	return VMR_EXIT_CANNOT;
}
