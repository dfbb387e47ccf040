/* A sandbox's configuration before anything is built: its option table
 * (shared by test, run and sandbox exec), the checks of its values, what
 * makes a valid configuration impossible here, and the one rule for where a
 * workload may run (sandbox.h). */
#include "sandbox/sandbox.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/units.h"
#include "core/util.h"
#include "probe/meminfo.h"
#include "sandbox/journal.h"
#include "sandbox/knobs.h"
#include "sandbox/swap.h"

/* --set's help names every knob of the allow-list: written from the table
 * before main runs, so that help, the man page and the reference agree with
 * it. */
static char sandbox_set_help[1024];

__attribute__((constructor)) static void sandbox_set_help_build(void)
{
	size_t off = (size_t)snprintf(sandbox_set_help, sizeof(sandbox_set_help),
				      "set a knob while the sandbox exists (repeatable); NAME is one of ");
	knob_names_help(sandbox_set_help + off, sizeof(sandbox_set_help) - off);
}

const struct opt sandbox_opts[] = {
	{ .name = "mem", .type = OPT_SIZE, .off = offsetof(struct sandbox_cfg, mem_bytes), .def = "256M",
	  .metavar = "SIZE", .help = "hard memory limit of the sandbox's cgroup" },
	{ .name = "mem-high", .type = OPT_SIZE, .off = offsetof(struct sandbox_cfg, high_bytes), .def = "0",
	  .metavar = "SIZE", .help = "cgroup v2: reclaim and throttle above this (memory.high); v1: the soft limit, which the "
	  "kernel acts on only when the whole host runs short; 0: not set" },
	{ .name = "mem-low", .type = OPT_SIZE, .off = offsetof(struct sandbox_cfg, low_bytes), .def = "0",
	  .metavar = "SIZE", .help = "cgroup v2: protect this much of the sandbox's memory from reclaim by outside "
	  "pressure (memory.low), the boundary of the fast and low levels of --levels memcg; refused on cgroup v1, "
	  "which has no such threshold; 0: not set" },
	{ .name = "swap", .type = OPT_STR, .off = offsetof(struct sandbox_cfg, swap), .def = "file",
	  .metavar = "KIND", .help = "the sandbox's swap: file[:SIZE], zram[:SIZE[:ALGO]], host or none "
	  "(SIZE defaults to twice --mem)" },
	{ .name = "set", .type = OPT_LIST, .off = offsetof(struct sandbox_cfg, set), .metavar = "NAME=VALUE",
	  .help = sandbox_set_help },
	{ .name = "hold", .type = OPT_LIST, .off = offsetof(struct sandbox_cfg, hold), .metavar = "NAME",
	  .help = "keep a knob's value and put it back when the sandbox closes, after a signal or by "
	  "`vmregress cleanup` (repeatable), for a program that changes the knob itself; NAME as for --set" },
	{ .name = "timeout", .type = OPT_TIME, .off = offsetof(struct sandbox_cfg, timeout_ns), .def = "10m",
	  .metavar = "TIME", .help = "kill everything in the sandbox when a workload runs longer (0: never)" },
	{ .name = "stats-flush", .type = OPT_TIME, .off = offsetof(struct sandbox_cfg, stats_flush_ns), .def = "50ms",
	  .min = 0, .max = 10e9, .metavar = "TIME",
	  .help = "read the cgroup's memory.stat this often, so that the kernel's reclaim sees its statistics "
	  "no older than that (6.x kernels let them age up to 2s, which can OOM-kill a workload of anonymous "
	  "memory with most of its swap free); 0: leave them to the kernel" },
	{ .name = "no-sandbox", .type = OPT_FLAG, .off = offsetof(struct sandbox_cfg, no_sandbox),
	  .help = "run on the host without a cgroup or swap of its own (knobs still apply)" },
	{ .name = "force", .type = OPT_FLAG, .off = offsetof(struct sandbox_cfg, force),
	  .help = "with --no-sandbox, allow sizes beyond free memory; with --set, values beyond the bounds that "
	  "keep the host safe" },
	{ .name = "zram-reuse", .type = OPT_FLAG, .off = offsetof(struct sandbox_cfg, zram_reuse),
	  .help = "use a free zram device rather than hot-adding one (tests that path)",
	  .flags = OPTF_HIDDEN | OPTF_NO_ECHO },
	OPT_END,
};

#define SB_MIN_MEM (4ULL << 20)

int sandbox_cfg_check(const struct sandbox_cfg *cfg)
{
	char a[32], b[32];
	const char *why;
	if (!cfg->no_sandbox) {
		if (cfg->mem_bytes == 0) {
			vmr_err("--mem: 0 is not a usable limit");
			return -1;
		}
		if (cfg->mem_bytes < SB_MIN_MEM) {
			vmr_err("--mem: '%s' is too small to run anything (at least %s)",
				units_format_size(a, sizeof(a), cfg->mem_bytes), units_format_size(b, sizeof(b), SB_MIN_MEM));
			return -1;
		}
		uint64_t total = meminfo_now("MemTotal");
		if (total && cfg->mem_bytes > total) {
			vmr_err("--mem: '%s' is more than this host's memory (%s)",
				units_format_size(a, sizeof(a), cfg->mem_bytes), units_format_size(b, sizeof(b), total));
			return -1;
		}
		if (cfg->high_bytes > cfg->mem_bytes) {
			vmr_err("--mem-high: '%s' is above --mem", units_format_size(a, sizeof(a), cfg->high_bytes));
			return -1;
		}
		if (cfg->low_bytes > (cfg->high_bytes ? cfg->high_bytes : cfg->mem_bytes)) {
			vmr_err("--mem-low: '%s' is above --%s", units_format_size(a, sizeof(a), cfg->low_bytes),
				cfg->high_bytes ? "mem-high" : "mem");
			return -1;
		}
		struct swap_spec sp = { 0 };
		if (swap_spec_parse(cfg->swap ? cfg->swap : "file", &sp, &why) < 0) {
			vmr_err("--swap: '%s' %s", cfg->swap, why);
			return -1;
		}
	}
	for (size_t i = 0; i < cfg->set.n; i++) {
		const char *value;
		const struct knob *k = knob_parse_set(cfg->set.v[i], &value, &why);
		if (!k) {
			vmr_err("--set: '%s' %s", cfg->set.v[i], why);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (!strncmp(cfg->set.v[j], k->name, strlen(k->name)) && cfg->set.v[j][strlen(k->name)] == '=') {
				vmr_err("--set: '%s' sets %s a second time", cfg->set.v[i], k->name);
				return -1;
			}
	}
	for (size_t i = 0; i < cfg->hold.n; i++) {
		char kv[128];  /* the allow-list's own check and "did you mean" */
		const char *v;
		snprintf(kv, sizeof(kv), "%s=0", cfg->hold.v[i]);
		if (!knob_parse_set(kv, &v, &why))
			return vmr_err("--hold: '%s' %s", cfg->hold.v[i], why);
	}
	if (cfg->set.n + cfg->hold.n > JOURNAL_MAX_RECS - 8) {
		vmr_err("--set, --hold: too many knobs");
		return -1;
	}
	struct knob_host host = { 0 };
	char bound[512] = "";
	if (cfg->set.n && !cfg->force && knob_host_read(&host) == 0 &&
	    knob_check_bounds(cfg->set.v, cfg->set.n, &host, bound, sizeof(bound)) < 0) {
		vmr_err("--set: %s; --force sets it anyway", bound);
		return -1;
	}
	return 0;
}

const char *sandbox_cfg_cannot(const struct sandbox_cfg *cfg, char *buf, size_t len)
{
	for (size_t i = 0; i < cfg->set.n; i++) {
		const char *value, *why;
		const struct knob *k = knob_parse_set(cfg->set.v[i], &value, &why);
		if (k && access(k->path, F_OK) < 0 && errno == ENOENT) {
			snprintf(buf, len, "--set %s: this kernel has no %s", k->name, k->path);
			return buf;
		}
	}
	struct knob_host host = { 0 };
	char what[512] = "";
	if (cfg->set.n && !cfg->force && knob_host_read(&host) == 0 &&
	    knob_check_one_way(cfg->set.v, cfg->set.n, &host, what, sizeof(what)) < 0) {
		snprintf(buf, len, "--set %s; --force sets it anyway", what);
		return buf;
	}
	return NULL;
}

enum sandbox_plan sandbox_plan(const struct sandbox_cfg *cfg, const char **why)
{
	*why = NULL;
	if (vmr_is_root())
		return SANDBOX_BUILD;
	if (cfg->set.n) {
		*why = "--set: needs root to change kernel knobs (they are host-wide)";
		return SANDBOX_REFUSED;
	}
	if (cfg->hold.n) {
		*why = "--hold: needs root to put kernel knobs back (they are host-wide)";
		return SANDBOX_REFUSED;
	}
	if (!cfg->no_sandbox) {
		*why = "sandbox: needs root to create cgroups and enable swap (--no-sandbox runs on the host "
		       "instead, sized from the zone watermarks)";
		return SANDBOX_REFUSED;
	}
	return SANDBOX_HOST;
}
