/* The one table of /proc/vmstat counters (probe/vmstat_counters.h) and its
 * users: the table is consistent (each name once, sums only for the
 * monitor, every counter the monitor plots on its own also stored), the
 * stored metrics keep the order results were stored in, and what the runner
 * stores and the monitor samples come from the table and nothing else.
 * `sense vmstat`'s default columns are checked from the command line
 * (tests/cli/test_vmstat_counters.sh). */
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "core/util.h"
#include "harness/monitor.h"
#include "harness/runner.h"
#include "probe/vmstat.h"
#include "probe/vmstat_counters.h"
#include "t.h"

/* The "vmstat-NAME" metrics, in the order results have stored them since
 * the first: a change of this order reorders every stored result's JSON.
 * New stored counters go after the last. */
static const char *const stored_order[] = {
	"pgpgin", "pgpgout", "pswpin", "pswpout", "pgfault", "pgmajfault",
	"pgfree", "pgactivate", "pgdeactivate", "pgrefill",
	"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "pgsteal_direct",
	"pgscan_anon", "pgscan_file", "pgsteal_anon", "pgsteal_file",
	"workingset_refault_anon", "workingset_refault_file", "swap_ra", "swap_ra_hit",
	"zswpin", "zswpout", "swpin_zero", "swpout_zero", "allocstall_normal", "allocstall_movable",
	"compact_stall", "thp_fault_alloc", "thp_fault_fallback", "oom_kill",
};

static long table_index(const char *name)
{
	for (size_t i = 0; i < VMSTAT_NCOUNTERS; i++)
		if (vmstat_counters[i].name && !strcmp(vmstat_counters[i].name, name))
			return (long)i;
	return -1;
}

static bool has_use(const char *name, unsigned use)
{
	long i = table_index(name);
	return i >= 0 && (vmstat_counters[i].uses & use) == use;
}

static void check_table(void)
{
	bool named = true, once = true, sums_monitored = true, monitored_stored = true, sense_some = false;
	for (size_t i = 0; i < VMSTAT_NCOUNTERS; i++) {
		const struct vmstat_counter *c = &vmstat_counters[i];
		named = named && c->name && c->name[0] && c->uses;
		if (!c->name)
			continue;
		once = once && table_index(c->name) == (long)i;
		if (c->uses & VMSTAT_SUM)
			sums_monitored = sums_monitored && (c->uses & VMSTAT_MONITOR) && !(c->uses & VMSTAT_STORED);
		else if (c->uses & VMSTAT_MONITOR)
			monitored_stored = monitored_stored && (c->uses & VMSTAT_STORED);
		if (c->uses & VMSTAT_MONITOR && !(c->uses & VMSTAT_STORED) && !(c->uses & VMSTAT_SUM))
			printf("    %s: a monitor series without a stored total\n", c->name);
		sense_some |= (c->uses & VMSTAT_SENSE) != 0;
	}
	CHECK(named, "every entry has a name and a use");
	CHECK(once, "each counter is in the table once");
	CHECK(sums_monitored, "a prefix sum is a monitor series only");
	CHECK(monitored_stored, "every counter the monitor plots on its own is also stored");
	CHECK(sense_some, "sense vmstat has default columns");
	CHECK(vmstat_counters_count(VMSTAT_MONITOR | VMSTAT_SUM) == 2, "two prefix sums (got %zu)",
	      vmstat_counters_count(VMSTAT_MONITOR | VMSTAT_SUM));

	/* the stored entries, in table order, begin with the old order */
	size_t k = 0;
	bool in_order = true;
	for (size_t i = 0; i < VMSTAT_NCOUNTERS && k < ARRAY_SIZE(stored_order); i++) {
		if (!(vmstat_counters[i].uses & VMSTAT_STORED))
			continue;
		if (strcmp(vmstat_counters[i].name, stored_order[k])) {
			printf("    stored #%zu is %s, results have %s there\n", k, vmstat_counters[i].name,
			       stored_order[k]);
			in_order = false;
		}
		k++;
	}
	CHECK(in_order && k == ARRAY_SIZE(stored_order), "the stored metrics keep the order of stored results");
}

/* What the runner stores: each vmstat-* metric is a stored entry, in the
 * table's order, and each stored counter this kernel has is there. */
static void check_runner(void)
{
	const struct workload *w = workload_find("null");
	void *wopts = xcalloc(1, w->opts_size);
	struct result r = { 0 };
	struct runner_cfg cfg = { 0 };
	opt_defaults(w->opts, wopts, w->opts_size);
	CHECK(runner_run(w, wopts, NULL, &cfg, &r) == 0 && r.outcome == OUTCOME_PASS, "null runs on the host");

	struct vmstat now = { 0 };
	char err[PROBE_ERR_MAX] = "";
	vmstat_init(&now);
	CHECK(vmstat_read(&now, NULL, err) == 0, "/proc/vmstat reads (%s)", err);
	long last = -1;
	bool known = true, ordered = true;
	size_t nvm = 0;
	for (size_t i = 0; i < r.nmetrics; i++) {
		const char *name = r.metrics[i].name;
		if (strncmp(name, "vmstat-", 7))
			continue;
		nvm++;
		long at = table_index(name + 7);
		if (!has_use(name + 7, VMSTAT_STORED)) {
			printf("    %s is stored but not a stored entry of the table\n", name);
			known = false;
		}
		ordered = ordered && at > last;
		last = at;
	}
	size_t want = 0;
	uint64_t v;
	for (size_t i = 0; i < VMSTAT_NCOUNTERS; i++)
		want += (vmstat_counters[i].uses & VMSTAT_STORED) && vmstat_get(&now, vmstat_counters[i].name, &v) == 0;
	CHECK(known, "every vmstat-* metric the runner stores is a stored entry of the table");
	CHECK(ordered, "the runner stores them in the table's order");
	CHECK(nvm == want && want > 20, "each stored counter this kernel has is stored (%zu of %zu)", nvm, want);
	vmstat_free(&now);
	result_free(&r);
	opt_free(w->opts, wopts);
	free(wopts);
}

/* What the monitor samples: each vmstat.* series is a monitor entry, and
 * each monitor counter this kernel has is a series. */
static void check_monitor(void)
{
	struct monitor m = { 0 };
	struct result r = { 0 };
	monitor_init(&m, MONITOR_MIN_INTERVAL_NS);
	result_init(&r, "null");
	CHECK(monitor_start(&m, NULL) == 0, "the monitor starts");
	monitor_stop(&m, &r);
	struct vmstat now = { 0 };
	char err[PROBE_ERR_MAX] = "";
	vmstat_init(&now);
	vmstat_read(&now, NULL, err);
	bool known = true;
	size_t nvm = 0;
	for (size_t i = 0; i < r.nseries; i++) {
		const char *name = r.series[i].name;
		if (strncmp(name, "vmstat.", 7))
			continue;
		nvm++;
		if (!has_use(name + 7, VMSTAT_MONITOR)) {
			printf("    series %s is not a monitor entry of the table\n", name);
			known = false;
		}
	}
	size_t want = 0;
	for (size_t i = 0; i < VMSTAT_NCOUNTERS; i++) {
		const struct vmstat_counter *c = &vmstat_counters[i];
		if (!(c->uses & VMSTAT_MONITOR))
			continue;
		bool here = false;
		for (size_t k = 0; k < now.n && !here; k++) {
			size_t n = strlen(c->name);
			const char *x = now.items[k].name;
			here = c->uses & VMSTAT_SUM ? !strncmp(x, c->name, n) && (!x[n] || x[n] == '_')
						    : !strcmp(x, c->name);
		}
		want += here;
	}
	CHECK(known, "every vmstat.* series of the monitor is a monitor entry of the table");
	CHECK(nvm == want && want > 10, "each monitor counter this kernel has is a series (%zu of %zu)", nvm, want);
	vmstat_free(&now);
	result_free(&r);
	monitor_destroy(&m);
}

int main(void)
{
	check_table();
	check_runner();
	check_monitor();
	T_DONE();
}
