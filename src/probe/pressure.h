/* Pressure stall information: /proc/pressure/memory (and a cgroup's
 * memory.pressure, same format):
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=0
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
 * PSI arrived in 4.20 and may be disabled (psi=0 on the cmdline, then
 * reading fails with EOPNOTSUPP).  "full" for cpu only since 5.13; for
 * memory it is always there, but it is optional here. */
#ifndef VMR_PROBE_PRESSURE_H
#define VMR_PROBE_PRESSURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

struct pressure_line {
	double avg10, avg60, avg300;    /* percent of time stalled */
	uint64_t total_us;              /* total stall time, microseconds */
};

struct pressure {
	struct pressure_line some, full;
	bool have_full;
};

int pressure_parse(struct pressure *p, const char *buf, size_t len, char *err);
/* Read and parse (NULL: /proc/pressure/memory).  0 or -1 with err, errno. */
int pressure_read(struct pressure *p, const char *path, char *err);
/* True when the running kernel offers PSI for memory. */
bool pressure_available(void);

#endif
