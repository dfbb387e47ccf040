/* What every module uses: the exit codes and ARRAY_SIZE here, and the
 * headers of messages, allocation, file I/O, CSV quoting, the clock, the
 * machine's facts and string lists, so that one include brings them all. */
#ifndef VMR_UTIL_H
#define VMR_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/timer.h"

/* Exit codes of the vmregress binary. */
enum vmr_exit {
	VMR_EXIT_OK = 0,      /* everything ran and passed */
	VMR_EXIT_FAIL = 1,    /* a test ran and failed */
	VMR_EXIT_USAGE = 2,   /* bad command line or bad input file */
	VMR_EXIT_CANNOT = 3,  /* cannot run here: privilege or kernel feature */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#include "core/alloc.h"
#include "core/csv.h"
#include "core/fileio.h"
#include "core/host.h"
#include "core/msg.h"
#include "core/strlist.h"

#endif
