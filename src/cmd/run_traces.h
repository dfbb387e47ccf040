/* The reference traces made for a run (refs-generate), one per distinct
 * argument string, in a directory removed when the run ends. */
#ifndef VMR_CMD_RUN_TRACES_H
#define VMR_CMD_RUN_TRACES_H

#include "core/strlist.h"

struct suite;

struct runcmd_traces {
	char *dir;
	struct strlist args, paths;
};

/* Make each case's trace and point its refs option at it: 0, or -1 after
 * one error. */
int runcmd_traces_make(struct suite *s, struct runcmd_traces *t);
void runcmd_traces_free(struct runcmd_traces *t);

#endif
