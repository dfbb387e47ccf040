/* vmregress pull RUN... --from URL: copy runs from another store (a fleet's
 * shared database) into this machine's, keyed by UUID like push (see
 * push.c, which does the copying for both). */
#include "cmd/cmd.h"

const struct opt pull_cmd_opts[] = {
	{ .name = "from", .type = OPT_STR, .off = offsetof(struct transfer_opts, remote), .metavar = "URL",
	  .help = "the store to copy from: postgresql://USER@HOST/DB, a file, or sqlite:FILE (required)" },
	{ .name = "db", .type = OPT_STR, .off = offsetof(struct transfer_opts, db), .metavar = "PATH",
	  .help = "the store to copy into (" CMD_DB_DEFAULT ")" },
	{ .name = "all", .type = OPT_FLAG, .off = offsetof(struct transfer_opts, all),
	  .help = "copy every stored run (those still being written are left for a later pull)" },
	{ .name = "json", .type = OPT_FLAG, .off = offsetof(struct transfer_opts, json),
	  .help = "print what was copied as JSON" },
	OPT_END,
};

int cmd_pull(int argc, char **argv)
{
	return cmd_transfer("pull", pull_cmd_opts, false, argc, argv);
}
