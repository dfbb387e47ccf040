#include "probe/vmstat_counters.h"

#include "core/util.h"

#define ST VMSTAT_STORED
#define MO VMSTAT_MONITOR
#define SE VMSTAT_SENSE

/* The stored ones keep their order: new counters go after oom_kill, so that
 * results stored before list their metrics as results stored after do. */
static const struct vmstat_counter vmstat_table[] = {
	{ "nr_free_pages", SE },
	{ "pgpgin", ST },
	{ "pgpgout", ST },
	{ "pswpin", ST | MO | SE },
	{ "pswpout", ST | MO | SE },
	{ "pgfault", ST | MO | SE },
	{ "pgmajfault", ST | MO | SE },
	{ "pgfree", ST },
	{ "pgactivate", ST },
	{ "pgdeactivate", ST },
	{ "pgrefill", ST },
	{ "pgscan_kswapd", ST | MO | SE },
	{ "pgscan_direct", ST | MO | SE },
	{ "pgsteal_kswapd", ST | MO | SE },
	{ "pgsteal_direct", ST | MO | SE },
	{ "pgscan_anon", ST },
	{ "pgscan_file", ST },
	{ "pgsteal_anon", ST },
	{ "pgsteal_file", ST },
	{ "workingset_refault_anon", ST | SE },
	{ "workingset_refault_file", ST | SE },
	{ "swap_ra", ST },
	{ "swap_ra_hit", ST },
	{ "zswpin", ST | MO },
	{ "zswpout", ST | MO },
	{ "swpin_zero", ST | MO },
	{ "swpout_zero", ST | MO },
	{ "allocstall_normal", ST },
	{ "allocstall_movable", ST },
	{ "compact_stall", ST | MO | SE },
	{ "thp_fault_alloc", ST | MO | SE },
	{ "thp_fault_fallback", ST | MO },
	{ "oom_kill", ST | SE },
	{ "zswpwb", ST | MO },
	{ "compact_success", ST | MO },
	{ "compact_fail", ST | MO },
	{ "thp_collapse_alloc", ST | MO },
	{ "thp_split_page", ST | MO },
	{ "allocstall", MO | VMSTAT_SUM },
	{ "workingset_refault", MO | VMSTAT_SUM },
};

_Static_assert(ARRAY_SIZE(vmstat_table) == VMSTAT_NCOUNTERS, "VMSTAT_NCOUNTERS is the table's length");

const struct vmstat_counter *const vmstat_counters = vmstat_table;

size_t vmstat_counters_count(unsigned uses)
{
	size_t n = 0;
	for (size_t i = 0; i < VMSTAT_NCOUNTERS; i++)
		n += (vmstat_counters[i].uses & uses) == uses;
	return n;
}
