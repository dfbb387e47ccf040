#include "sandbox/sandbox.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/scratch.h"
#include "core/signals.h"
#include "core/units.h"
#include "core/util.h"
#include "probe/meminfo.h"
#include "sandbox/cgroup.h"
#include "sandbox/journal.h"
#include "sandbox/knobs.h"
#include "sandbox/oomlog.h"
#include "sandbox/state.h"
#include "sandbox/statflush.h"
#include "sandbox/swap.h"
#include "sandbox/sandbox_int.h"
#include "sandbox/undo.h"

#define SB_DISK_MARGIN (64ULL << 20)

static int sb_seq;

/* The journal is created with the first record: a sandbox that changes
 * nothing (--no-sandbox without --set) has none to write or remove. */
static int sb_journal_create(struct sandbox *sb)
{
	char name[96];
	owner_name(name, sizeof(name), &sb->owner, sb->seq);
	snprintf(sb->journal_path, sizeof(sb->journal_path), "%s/%s.journal", state_dir(), name);
	sb->journal_fd = journal_create(sb->journal_path, &sb->owner);
	if (sb->journal_fd < 0) {
		vmr_err("cannot create journal %s: %s", sb->journal_path, strerror(-sb->journal_fd));
		sb->journal_path[0] = '\0';
		return -2;
	}
	return 0;
}

/* Journal a record, then (the caller) make the change. */
static int sb_record(struct sandbox *sb, const struct jrec *r)
{
	if (sb->journal_fd < 0 && sb_journal_create(sb) < 0)
		return -2;
	if (sb->nrecs >= JOURNAL_MAX_RECS) {
		vmr_err("sandbox: journal %s is full", sb->journal_path);
		return -2;
	}
	sb->recs[sb->nrecs] = *r;
	int e = journal_append(sb->journal_fd, r);
	if (e < 0) {
		vmr_err("cannot write journal %s: %s", sb->journal_path, strerror(-e));
		return -2;
	}
	__atomic_store_n(&sb->nrecs, sb->nrecs + 1, __ATOMIC_SEQ_CST);
	return 0;
}

int sandbox_journal(struct sandbox *sb, const struct jrec *r)
{
	if (!sb) {  /* (the journal itself is made with the first record) */
		vmr_err("sandbox: no sandbox to record a change in");
		return -2;
	}
	sb_enter();
	int e = sb_record(sb, r);
	sb_leave();
	return e;
}

/* Journal knob k's value before anyone changes it: 0, 1 when this kernel
 * has no such knob, or -2 after a message naming opt. */
static int sb_save_knob(struct sandbox *sb, const struct knob *k, const char *opt)
{
	char old[JOURNAL_VALUE_MAX];
	int e = knob_read(k, old, sizeof(old));
	if (e == -ENOENT)
		return 1;
	if (e < 0) {
		vmr_err("%s: %s: cannot read %s: %s", opt, k->name, k->path, strerror(-e));
		return -2;
	}
	if (strchr(old, ' ') || !old[0]) {
		vmr_err("%s: %s: cannot save its value '%s'", opt, k->name, old);
		return -2;
	}
	struct jrec r = { .type = JREC_KNOB };
	snprintf(r.path, sizeof(r.path), "%s", k->name);
	snprintf(r.value, sizeof(r.value), "%s", old);
	return sb_record(sb, &r);
}

static int sb_set_knob(struct sandbox *sb, const char *arg)
{
	const char *value, *why;
	const struct knob *k = knob_parse_set(arg, &value, &why);
	int e = sb_save_knob(sb, k, "--set");
	if (e == 1)
		vmr_err("--set: %s: this kernel has no %s", k->name, k->path);
	if (e)
		return e > 0 ? -2 : e;
	if ((e = vmr_write_file(k->path, value)) < 0) {
		vmr_err("--set: '%s': the kernel refused it: %s", arg, strerror(-e));
		return e == -EINVAL ? -1 : -2;
	}
	snprintf(sb->set_names[sb->nset++], sizeof(sb->set_names[0]), "%s", k->name);
	return 0;
}

static int sb_swap_file(struct sandbox *sb)
{
	char dir[JOURNAL_PATH_MAX], name[96];
	struct jrec r = { .type = JREC_SWAPFILE };
	state_swap_dir(dir, sizeof(dir));
	owner_name(name, sizeof(name) - 8, &sb->owner, sb->seq);
	strcat(name, ".swap");
	if (snprintf(r.path, sizeof(r.path), "%s/%s", dir, name) >= (int)sizeof(r.path)) {
		vmr_err("swap file path %s/%s is too long", dir, name);
		return -2;
	}
	struct swap_tag tag = { .owner = sb->owner };
	int e = sb_record(sb, &r);
	if (e < 0)
		return e;
	if ((e = swap_file_create(dir, name, sb->swap_bytes, &tag)) < 0) {
		/* it removed what it made; a file it found under that name is
		 * not ours to remove (undo checks the owner's tag too) */
		__atomic_store_n(&sb->nrecs, sb->nrecs - 1, __ATOMIC_SEQ_CST);
		return e;
	}
	snprintf(sb->swap_dev, sizeof(sb->swap_dev), "%s", r.path);
	return 0;
}

/* Journal and set up zram device id; *taken when someone beat us to it. */
static int sb_zram_try(struct sandbox *sb, int id, bool added, bool *taken)
{
	struct jrec r = { .type = JREC_ZRAM, .id = id };
	char algo[32];
	if (added)
		snprintf(r.value, sizeof(r.value), "added");
	else if (zram_current_algo(id, algo, sizeof(algo)) == 0)
		snprintf(r.value, sizeof(r.value), "reused:%s", algo);  /* reset may not keep it */
	else
		snprintf(r.value, sizeof(r.value), "reused");
	int e = sb_record(sb, &r);
	if (e < 0) {
		if (added)
			zram_release(id, true);
		return e;
	}
	sb->zram_id = id;
	sb->zram_added = added;
	struct swap_tag tag = { .owner = sb->owner, .added = added };
	if ((e = zram_setup(id, sb->swap_bytes, sb->swap.algo, &tag, taken)) < 0) {
		/* a free device we failed to set up: put its algorithm back */
		if (!added && !*taken && !strncmp(r.value, "reused:", 7))
			zram_set_algo(id, r.value + 7);
		return e;
	}
	snprintf(sb->swap_dev, sizeof(sb->swap_dev), "/dev/zram%d", id);
	return 0;
}

static int sb_swap_zram(struct sandbox *sb, bool reuse)
{
	bool taken = false;
	if (access("/sys/class/zram-control", F_OK) < 0 && access("/sys/block/zram0", F_OK) < 0) {
		vmr_err("--swap: zram: this kernel has no zram (no /sys/class/zram-control)");
		return -2;
	}
	/* a hot-added device is ours alone; reusing a free one can race */
	int id = reuse ? -1 : zram_hot_add();
	if (id >= 0)
		return sb_zram_try(sb, id, true, &taken);
	for (int from = 0; (id = zram_find_free(from)) >= 0; from = id + 1) {
		int e = sb_zram_try(sb, id, false, &taken);
		if (e == 0 || !taken)
			return e;
	}
	vmr_err("--swap: zram: no free zram device and none can be added");
	return -2;
}

static int sb_swap(struct sandbox *sb, bool reuse)
{
	if (sb->swap.kind == SWAP_HOST || sb->swap.kind == SWAP_NONE)
		return 0;
	int e = sb->swap.kind == SWAP_FILE ? sb_swap_file(sb) : sb_swap_zram(sb, reuse);
	if (e < 0)
		return e;
	struct jrec r = { .type = JREC_SWAPON };
	snprintf(r.path, sizeof(r.path), "%s", sb->swap_dev);
	if ((e = sb_record(sb, &r)) < 0)
		return e;
	e = swap_on(sb->swap_dev);
	if (e == -EINVAL && sb->swap.kind == SWAP_FILE) {
		/* some file systems cannot swap on fallocate'd extents: write them */
		struct swap_tag tag = { .owner = sb->owner };
		if (swap_file_fill(sb->swap_dev, sb->swap_bytes, &tag) == 0)
			e = swap_on(sb->swap_dev);
	}
	if (e < 0) {
		vmr_err("cannot enable swap on %s: %s", sb->swap_dev, strerror(-e));
		return -2;
	}
	return 0;
}

static int sb_cgroup(struct sandbox *sb)
{
	char name[96];
	struct jrec r = { .type = JREC_CGROUP };
	owner_name(name, sizeof(name), &sb->owner, sb->seq);
	if (snprintf(r.path, sizeof(r.path), "%s/%s", sb->cg.path, name) >= (int)sizeof(r.path)) {
		vmr_err("cgroup path %s/%s is too long", sb->cg.path, name);
		return -2;
	}
	int e = sb_record(sb, &r);
	if (e < 0)
		return e;
	if (mkdir(r.path, 0755) < 0) {
		vmr_errno("cannot create cgroup %s", r.path);
		return -2;
	}
	snprintf(sb->cg_path, sizeof(sb->cg_path), "%s", r.path);
	uint64_t swap = sb->swap.kind == SWAP_HOST ? CGROUP_UNLIMITED : sb->swap.kind == SWAP_NONE ? 0 : sb->swap_bytes;
	char sw[16];
	const struct knob *k = knob_find("vm.swappiness");
	int swappiness = knob_read(k, sw, sizeof(sw)) == 0 ? atoi(sw) : -1;
	if (cgroup_configure(sb->cg.version, sb->cg_path, sb->mem_bytes, sb->high_bytes, swap, swappiness) < 0)
		return -2;
	return sb->low_bytes && cgroup_set_low(sb->cg_path, sb->low_bytes) < 0 ? -2 : 0;
}

/* Can the host afford it?  -2 with the reason when not. */
static int sb_afford(struct sandbox *sb)
{
	char a[32], b[32], c[32];
	uint64_t avail = meminfo_now("MemAvailable"), total = meminfo_now("MemTotal");
	uint64_t margin = (128ULL << 20) + total / 64;
	uint64_t need = sb->mem_bytes + margin + (sb->swap.kind == SWAP_ZRAM ? sb->swap_bytes / 2 : 0);
	if (avail < need) {
		vmr_err("sandbox: not enough free memory: MemAvailable is %s, a %s sandbox needs %s",
			units_format_size(a, sizeof(a), avail), units_format_size(b, sizeof(b), sb->mem_bytes),
			units_format_size(c, sizeof(c), need));
		return -2;
	}
	if (sb->swap.kind == SWAP_FILE) {
		char dir[JOURNAL_PATH_MAX];
		struct statvfs sv = { 0 };
		if (statvfs(state_swap_dir(dir, sizeof(dir)), &sv) < 0) {
			vmr_errno("cannot examine %s", dir);
			return -2;
		}
		uint64_t free_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
		if (free_bytes < sb->swap_bytes + SB_DISK_MARGIN) {
			vmr_err("sandbox: not enough disk for a %s swap file in %s (%s free)",
				units_format_size(a, sizeof(a), sb->swap_bytes), dir,
				units_format_size(b, sizeof(b), free_bytes));
			return -2;
		}
	}
	return 0;
}

static struct sandbox *sb_new(const struct sandbox_cfg *cfg)
{
	struct sandbox *sb = xcalloc(1, sizeof(*sb));
	const char *why;
	sb->pid = getpid();
	sb->journal_fd = -1;
	sb->knob_lock_fd = -1;
	sb->zram_id = -1;
	sb->oom_log.fd = -1;
	sb->no_sandbox = cfg->no_sandbox;
	sb->mem_bytes = cfg->no_sandbox ? 0 : cfg->mem_bytes;
	sb->high_bytes = cfg->high_bytes;
	sb->low_bytes = cfg->no_sandbox ? 0 : cfg->low_bytes;
	sb->stats_flush_ns = cfg->no_sandbox ? 0 : cfg->stats_flush_ns;
	if (cfg->no_sandbox)
		sb->swap.kind = SWAP_HOST;
	else
		swap_spec_parse(cfg->swap ? cfg->swap : "file", &sb->swap, &why);
	if (sb->swap.kind == SWAP_FILE || sb->swap.kind == SWAP_ZRAM)
		sb->swap_bytes = sb->swap.bytes ? sb->swap.bytes : 2 * cfg->mem_bytes;
	sb->swap_bytes -= sb->swap_bytes % vmr_page_size();
	return sb;
}

/* Knobs are host-wide: two sandboxes setting them at once would restore
 * each other's values in the wrong order, and a run measuring under the
 * host's values would measure under ours; so a sandbox that sets knobs
 * holds the knob lock exclusively (knobs_lock).  Called before anything is
 * changed, so a signal while waiting has nothing to undo. */
static int sb_lock_knobs(struct sandbox *sb, uint64_t wait_ns)
{
	const char *why;
	sb->knob_lock_fd = knobs_lock(true, wait_ns, &why);
	if (sb->knob_lock_fd < 0) {
		vmr_err("--set: %s", why);
		return -2;
	}
	return 0;
}

bool sandbox_sets_knobs(const struct sandbox *sb)
{
	return sb && sb->knob_lock_fd >= 0;
}

int sandbox_knobs_hold(const struct sandbox *sb, uint64_t wait_ns, const char **why)
{
	if (sandbox_sets_knobs(sb))
		return -1;  /* it holds them itself */
	return knobs_lock(false, wait_ns, why);
}

/* --hold: journal a knob's value so that closing the sandbox puts it back,
 * whatever the program in it did (one also --set is journaled twice and
 * undone newest first: the same end). */
static int sb_hold_knob(struct sandbox *sb, const char *name)
{
	int e = sb_save_knob(sb, knob_find(name), "--hold");
	return e > 0 ? 0 : e;
}

static int sb_build(struct sandbox *sb, const struct sandbox_cfg *cfg)
{
	int e;
	for (size_t i = 0; i < cfg->set.n; i++)
		if ((e = sb_set_knob(sb, cfg->set.v[i])) < 0)
			return e;
	for (size_t i = 0; i < cfg->hold.n; i++)
		if ((e = sb_hold_knob(sb, cfg->hold.v[i])) < 0)
			return e;
	if (sb->no_sandbox)
		return 0;
	if ((e = sb_swap(sb, cfg->zram_reuse)) < 0)
		return e;
	return sb_cgroup(sb);
}

/* Everything checked before the first change: who we are, whether the host
 * can afford it, where the memory controller is, and the knob lock. */
static int sb_prepare(struct sandbox *sb, const struct sandbox_cfg *cfg)
{
	char why[256] = "";
	int e;
	if (owner_self(&sb->owner) < 0) {
		vmr_err("sandbox: cannot read this process's start time from /proc/self/stat");
		return -2;
	}
	if (!sb->no_sandbox) {
		if ((e = sb_afford(sb)) < 0)
			return e;
		if (cgroup_detect(&sb->cg, why, sizeof(why)) < 0) {
			vmr_err("sandbox: %s", why);
			return -2;
		}
		if (sb->low_bytes && sb->cg.version != 2) {
			vmr_err("--mem-low: needs the cgroup v2 memory controller (memory.low); the memory controller "
				"here is on cgroup v1 (%s), which has no such threshold", sb->cg.path);
			return -2;
		}
	}
	if ((cfg->set.n || cfg->hold.n) && (e = sb_lock_knobs(sb, cfg->timeout_ns)) < 0)
		return e;
	return 0;
}

/* Build it inside a critical section; on failure undo what was done. */
static int sb_open_locked(struct sandbox *sb, const struct sandbox_cfg *cfg)
{
	int e;
	sb_enter();
	sb->seq = __atomic_fetch_add(&sb_seq, 1, __ATOMIC_SEQ_CST);
	if (sb_register(sb, true) < 0) {
		vmr_err("sandbox: %d sandboxes are open in this process already", SB_MAX_OPEN);
		e = -2;
	} else {
		e = sb_build(sb, cfg);
	}
	if (e < 0) {
		sb_undo(sb);
		sb_register(sb, false);
	}
	sb_leave();
	return e;
}

/* At exit every sandbox still open is closed, the list's last first
 * (registered once, by the first sandbox_open; on a signal the handler
 * undoes them instead). */
static void sb_atexit(void)
{
	struct sandbox *sb;
	while ((sb = sb_open_last()))
		sandbox_close(sb);
}

int sandbox_open(struct sandbox **out, const struct sandbox_cfg *cfg)
{
	static bool atexit_done;
	const char *why;
	int e;
	*out = NULL;
	char cannot[640] = "";
	if (sandbox_cfg_check(cfg) < 0)
		return -1;
	if (sandbox_cfg_cannot(cfg, cannot, sizeof(cannot))) {
		vmr_err("%s", cannot);
		return -2;
	}
	switch (sandbox_plan(cfg, &why)) {
	case SANDBOX_REFUSED:
		vmr_err("%s", why);
		return -2;
	case SANDBOX_HOST:
		return 0;
	case SANDBOX_BUILD:
		break;
	}
	if ((e = state_prepare(true)) < 0 || (e = sandbox_recover()) < 0)
		return e;
	if (!atexit_done) {
		undo_init();
		atexit(sb_atexit);
		atexit_done = true;
	}
	struct sandbox *sb = sb_new(cfg);
	if ((e = sb_prepare(sb, cfg)) < 0 || (e = sb_open_locked(sb, cfg)) < 0)
		goto free_sb;
	if (sandbox_active(sb) && sb->stats_flush_ns &&
	    !(sb->flush = statflush_start(sb->cg_path, sb->stats_flush_ns))) {
		sandbox_close(sb);
		return -2;
	}
	*out = sb;
	return 0;
free_sb:
	if (sb->knob_lock_fd >= 0)
		close(sb->knob_lock_fd);
	free(sb);
	return e;
}

void sandbox_close(struct sandbox *sb)
{
	if (!sb)
		return;
	sb_enter();
	oomlog_close(&sb->oom_log);
	statflush_stop(sb->flush);  /* before the cgroup goes */
	sb->flush = NULL;
	if (sb->pid == getpid())
		sb_undo(sb);
	else if (sb->journal_fd >= 0)
		close(sb->journal_fd);  /* a forked child: the parent undoes */
	sb_register(sb, false);
	free(sb);
	sb_leave();
}

int sandbox_attach(struct sandbox *sb, pid_t pid)
{
	if (!sandbox_active(sb))
		return 0;
	int e = cgroup_attach(sb->cg_path, pid);
	if (e < 0)
		vmr_err("cannot move process %d into cgroup %s: %s", (int)pid, sb->cg_path, strerror(-e));
	return e;
}

void sandbox_kill_all(struct sandbox *sb)
{
	if (sandbox_active(sb))
		cgroup_kill_all(sb->cg_path);
}

uint64_t sandbox_limit_bytes(const struct sandbox *sb) { return sb ? sb->mem_bytes : 0; }
uint64_t sandbox_swap_bytes(const struct sandbox *sb) { return sb ? sb->swap_bytes : 0; }

uint64_t sandbox_swap_used_bytes(const struct sandbox *sb)
{
	return sandbox_active(sb) ? cgroup_swap_bytes(sb->cg.version, sb->cg_path) : 0;
}
bool sandbox_active(const struct sandbox *sb) { return sb && !sb->no_sandbox && sb->cg_path[0]; }

const char *sandbox_cgroup_path(const struct sandbox *sb)
{
	return sandbox_active(sb) ? sb->cg_path : NULL;
}

json_t *sandbox_stats(const struct sandbox *sb)
{
	if (!sandbox_active(sb))
		return json_object();
	return cgroup_stats(sb->cg.version, sb->cg_path);
}

uint64_t sandbox_oom_kills(const struct sandbox *sb)
{
	return sandbox_active(sb) ? cgroup_oom_kills(sb->cg.version, sb->cg_path) : 0;
}

static const char *const sb_swap_kinds[] = { "file", "zram", "host", "none" };

static json_t *sandbox_knobs_json(const char (*set)[48], int nset)
{
	json_t *o = json_object();
	for (const struct knob *k = knobs; k->name; k++) {
		char v[JOURNAL_VALUE_MAX];
		bool was_set = false;
		for (int i = 0; i < nset; i++)
			was_set |= !strcmp(set[i], k->name);
		json_t *e = json_object();
		json_object_set_new(e, "value", knob_read(k, v, sizeof(v)) == 0 ? json_string(v) : json_null());
		json_object_set_new(e, "set", json_boolean(was_set));
		json_object_set_new(o, k->name, e);
	}
	return o;
}

json_t *sandbox_describe(const struct sandbox *sb)
{
	json_t *o = json_object();
	json_object_set_new(o, "sandboxed", json_boolean(sandbox_active(sb)));
	if (sb && sandbox_active(sb)) {
		json_object_set_new(o, "cgroup_version", json_integer(sb->cg.version));
		json_object_set_new(o, "cgroup", json_string(sb->cg_path));
		json_object_set_new(o, "limit_bytes", json_integer((json_int_t)sb->mem_bytes));
		json_object_set_new(o, "high_bytes", json_integer((json_int_t)sb->high_bytes));
		json_object_set_new(o, "low_bytes", json_integer((json_int_t)sb->low_bytes));
		json_object_set_new(o, "stats_flush_ns", json_integer((json_int_t)(sb->flush ? sb->stats_flush_ns : 0)));
	}
	if (sb) {
		json_t *s = json_object();
		json_object_set_new(s, "kind", json_string(sb_swap_kinds[sb->swap.kind]));
		json_object_set_new(s, "bytes", json_integer((json_int_t)sb->swap_bytes));
		if (sb->swap_dev[0])
			json_object_set_new(s, "device", json_string(sb->swap_dev));
		if (sb->swap.kind == SWAP_ZRAM) {
			char path[96], *alg = NULL;
			snprintf(path, sizeof(path), "/sys/block/zram%d/comp_algorithm", sb->zram_id);
			if (vmr_read_line(path, &alg) == 0) {
				knob_normalize(alg);
				json_object_set_new(s, "algorithm", json_string(alg));
			}
			free(alg);
		}
		if (sb->swap_dev[0])
			json_object_set_new(s, "priority", json_integer(SWAP_PRIO_MAX));
		json_object_set_new(o, "swap", s);
	}
	json_object_set_new(o, "knobs", sandbox_knobs_json(sb ? (const char (*)[48])sb->set_names : NULL,
							     sb ? sb->nset : 0));
	return o;
}
