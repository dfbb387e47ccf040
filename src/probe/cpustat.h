/* The host's CPU time from /proc/stat's first line, the sum over CPUs in
 * USER_HZ ticks:
 *   cpu  user nice system idle iowait irq softirq steal guest guest_nice
 * steal (2.6.11+) is time a hypervisor ran something else while a CPU of
 * this guest wanted to run; older kernels have fewer fields, and those
 * missing read as 0.  guest and guest_nice are already in user and nice,
 * so the total leaves them out. */
#ifndef VMR_PROBE_CPUSTAT_H
#define VMR_PROBE_CPUSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

struct cpustat {
	uint64_t total;         /* user + nice + system + idle + iowait + irq + softirq + steal */
	uint64_t steal;
};

/* The "cpu " line, which must come first; the other lines are not read.
 * 0 or -1 with err naming the line. */
int cpustat_parse(struct cpustat *c, const char *buf, size_t len, char *err);
/* Read and parse (NULL: /proc/stat).  0 or -1 with err, errno. */
int cpustat_read(struct cpustat *c, const char *path, char *err);

#endif
