/* A run's environment as the host's own: the knobs another live vmregress
 * has set for its run are recorded at the value they had before it, which
 * its journal keeps (sandbox/journal.h), not at the value in force while
 * the fingerprint was taken. */
#ifndef VMR_HOSTENV_H
#define VMR_HOSTENV_H

#include <jansson.h>

/* Put back, in env (system_fingerprint's), the host's own value of every
 * knob that another live vmregress process changed, where env records it
 * (vm.* under "sysctl"; thp.* under "thp", a size's under "thp.sizes"),
 * and list every such knob under env["others_knobs"] as {knob: {"host":
 * the host's own value, "in_force": what the other run set}}.  Nothing is
 * done without root or without such a process. */
void hostenv_own_values(json_t *env);

#endif
