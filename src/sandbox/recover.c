/* Cleanup after killed vmregress processes, and the status of what vmregress
 * has changed on the host. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/scratch.h"
#include "core/util.h"
#include "probe/probe.h"
#include "probe/system.h"
#include "sandbox/cgroup.h"
#include "sandbox/journal.h"
#include "sandbox/knobs.h"
#include "sandbox/sandbox.h"
#include "sandbox/state.h"
#include "sandbox/swap.h"
#include "sandbox/undo.h"

#define RECOVER_MAX_JOURNAL (256 * 1024)

static const char *const recover_rec_whats[JREC_KINDS] = {
	[JREC_KNOB] = "knob", [JREC_SWAPFILE] = "swap file", [JREC_SWAPON] = "swap",
	[JREC_ZRAM] = "zram device", [JREC_CGROUP] = "cgroup",
};
static const char *const recover_rec_actions[JREC_KINDS] = {
	[JREC_KNOB] = "restored", [JREC_SWAPFILE] = "removed", [JREC_SWAPON] = "disabled",
	[JREC_ZRAM] = "reset", [JREC_CGROUP] = "removed",
};

/* What a record changed ("swap file"), and what undoing it did ("removed"). */
static const char *recover_rec_what(const struct jrec *r)
{
	const struct jrec_kind *k = journal_kind(r->type);
	return k ? k->what : recover_rec_whats[r->type];
}

static const char *recover_rec_action(const struct jrec *r)
{
	const struct jrec_kind *k = journal_kind(r->type);
	return k ? k->done : recover_rec_actions[r->type];
}

static void recover_action(json_t *actions, const char *action, const char *what, const char *path,
			   int owner_pid, const char *from, const char *error)
{
	json_t *o = json_object();
	json_object_set_new(o, "action", json_string(action));
	json_object_set_new(o, "what", json_string(what));
	json_object_set_new(o, "path", json_string(path));
	if (owner_pid > 0)
		json_object_set_new(o, "owner_pid", json_integer(owner_pid));
	json_object_set_new(o, "from", json_string(from));
	if (error)
		json_object_set_new(o, "error", json_string(error));
	json_array_append_new(actions, o);
}

/* Read a journal only if it is a plain root-owned file nobody else may write. */
static int recover_read_journal(int fd, char **buf, size_t *len, const char **why)
{
	struct stat st = { 0 };
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*why = "is not a regular file";
		return -1;
	}
	if (st.st_uid != 0 || (st.st_mode & 022)) {
		*why = "is not owned by root or is writable by others, so it may not be vmregress's";
		return -1;
	}
	if (st.st_size > RECOVER_MAX_JOURNAL) {
		*why = "is too large to be a vmregress journal";
		return -1;
	}
	*buf = xmalloc((size_t)st.st_size + 1);
	ssize_t n = pread(fd, *buf, (size_t)st.st_size, 0);
	if (n < 0) {
		free(*buf);
		*why = "cannot be read";
		return -1;
	}
	(*buf)[n] = '\0';
	*len = (size_t)n;
	return 0;
}

/* The time the host booted (btime of /proc/stat), or 0. */
static time_t recover_boot_time(void)
{
	char *text;
	long long btime = 0;
	if (vmr_read_file("/proc/stat", &text, NULL) < 0)
		return 0;
	const char *p = strstr(text, "\nbtime ");
	if (p && sscanf(p + 7, "%lld", &btime) != 1)
		btime = 0;
	free(text);
	return (time_t)btime;
}

/* A journal last written before this boot: journals are not fsync'd
 * (journal.h), so a crash of the machine may have left one cut short or
 * empty, and what it described is gone with the crash but a swap file,
 * which the orphan scan finds by its name. */
static bool recover_journal_before_boot(int fd)
{
	struct stat st = { 0 };
	time_t boot = recover_boot_time();
	return boot > 0 && fstat(fd, &st) == 0 && st.st_mtime < boot;
}

/* Undo one dead owner's journal.  Returns things undone, or -1 (refused). */
static int recover_journal(const char *path, const struct owner *named, json_t *actions)
{
	char swapdir[JOURNAL_PATH_MAX], why[160] = "", *buf = NULL;
	const char *reason = NULL;
	size_t len;
	struct jrec *recs = xcalloc(JOURNAL_MAX_RECS, sizeof(*recs));
	struct owner owner = { 0 };
	int done = 0, failed = 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		done = errno == ENOENT ? 0 : -1;  /* another cleanup finished it */
		if (done < 0)
			vmr_errno("cannot open journal %s", path);
		goto free_recs;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		goto close_fd;  /* another cleanup is at it */
	if (recover_read_journal(fd, &buf, &len, &reason) < 0) {
		snprintf(why, sizeof(why), "%s", reason);
		goto refuse;
	}
	int n = journal_parse(buf, len, state_swap_dir(swapdir, sizeof(swapdir)), &owner, recs, JOURNAL_MAX_RECS,
			      why, sizeof(why));
	if (n < 0 && recover_journal_before_boot(fd)) {
		unlink(path);
		recover_action(actions, "removed", "journal", path, named->pid, "previous boot", NULL);
		goto free_buf;
	}
	if (n < 0)
		goto refuse;
	if (owner.pid != named->pid || owner.start != named->start) {
		snprintf(why, sizeof(why), "its owner (pid %d) is not the one its name says", owner.pid);
		goto refuse;
	}
	for (int i = n - 1; i >= 0; i--) {
		/* Room for a knob's whole "path=value" (both NUL-terminated in
		 * the record), so the report never shows a cut-off old value. */
		char path_or_dev[JOURNAL_PATH_MAX + JOURNAL_VALUE_MAX];
		if (recs[i].type == JREC_ZRAM)
			snprintf(path_or_dev, sizeof(path_or_dev), "/dev/zram%d", recs[i].id);
		else if (recs[i].type == JREC_KNOB)
			snprintf(path_or_dev, sizeof(path_or_dev), "%s=%s", recs[i].path, recs[i].value);
		else if (journal_kind(recs[i].type))
			snprintf(path_or_dev, sizeof(path_or_dev), "%s%d", journal_kind(recs[i].type)->path_prefix,
				 recs[i].id);
		else
			snprintf(path_or_dev, sizeof(path_or_dev), "%s", recs[i].path);
		int e = undo_rec(&recs[i], &owner);
		recover_action(actions, e < 0 ? "failed" : recover_rec_action(&recs[i]),
			       recover_rec_what(&recs[i]), path_or_dev, owner.pid, "journal",
			       e < 0 ? strerror(-e) : NULL);
		if (e < 0)
			failed++;
		else
			done++;
	}
	if (!failed) {
		unlink(path);
		recover_action(actions, "removed", "journal", path, owner.pid, "journal", NULL);
	}
	done = failed ? -1 : done;
	goto free_buf;
refuse:
	vmr_err("journal %s is corrupt or foreign (%s): nothing was undone from it; see 'vmregress sandbox "
		"status', undo what it lists by hand, then delete it", path, why);
	recover_action(actions, "refused", "journal", path, named->pid, "journal", why);
	done = -1;
free_buf:
	free(buf);
close_fd:
	close(fd);
free_recs:
	free(recs);
	return done;
}

static int recover_journals(json_t *actions, int *refused)
{
	DIR *d = opendir(state_dir());
	int done = 0;
	if (!d)
		return 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t nl = strlen(de->d_name);
		if (nl < 8 || strcmp(de->d_name + nl - 8, ".journal"))
			continue;
		struct owner o = { 0 };
		int seq;
		char *path = xasprintf("%s/%s", state_dir(), de->d_name);
		if (owner_name_parse(de->d_name, ".journal", &o, &seq) < 0) {
			vmr_err("journal %s is not named like a vmregress journal: left alone; delete it if it is "
				"not vmregress's", path);
			recover_action(actions, "refused", "journal", path, 0, "journal", "foreign name");
			(*refused)++;
		} else if (!owner_alive(&o)) {
			int r = recover_journal(path, &o, actions);
			if (r < 0)
				(*refused)++;
			else
				done += r;
		}
		free(path);
	}
	closedir(d);
	return done;
}

/* Orphans: things named or tagged for an owner that is gone. */

static int recover_orphan_cgroups(json_t *actions, int *refused)
{
	struct cg_root root = { 0 };
	char why[256] = "";
	int done = 0;
	if (cgroup_detect(&root, why, sizeof(why)) < 0)
		return 0;
	DIR *d = opendir(root.path);
	if (!d)
		return 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct owner o = { 0 };
		int seq;
		if (owner_name_parse(de->d_name, NULL, &o, &seq) < 0 || owner_alive(&o))
			continue;
		char *path = xasprintf("%s/%s", root.path, de->d_name);
		int e = cgroup_remove(path);
		recover_action(actions, e < 0 ? "failed" : "removed", "cgroup", path, o.pid, "orphan",
			       e < 0 ? strerror(-e) : NULL);
		if (e < 0)
			(*refused)++;
		else
			done++;
		free(path);
	}
	closedir(d);
	return done;
}

/* A swap file of a dead owner: disable it, and remove it when it is in our
 * swap directory (its name and that root-only directory prove it ours) or
 * carries our header tag. */
static int recover_swap_file(const char *path, const struct owner *o, bool in_our_dir, json_t *actions,
			     int *refused)
{
	struct swap_tag tag = { 0 };
	bool tagged = swap_file_read_tag(path, &tag) == 1 && tag.owner.pid == o->pid && tag.owner.start == o->start;
	if (!tagged && !in_our_dir)
		return 0;
	int done = 0, e = 0;
	if (swap_active(path)) {
		e = swap_off(path);
		recover_action(actions, e < 0 ? "failed" : "disabled", "swap", path, o->pid, "orphan",
			       e < 0 ? strerror(-e) : NULL);
		done += e == 0;
	}
	if (e == 0) {
		e = unlink(path) < 0 && errno != ENOENT ? -errno : 0;
		recover_action(actions, e < 0 ? "failed" : "removed", "swap file", path, o->pid, "orphan",
			       e < 0 ? strerror(-e) : NULL);
		done += e == 0;
	}
	if (e < 0)
		(*refused)++;
	return done;
}

static int recover_orphan_swapfiles(json_t *actions, int *refused)
{
	char dir[JOURNAL_PATH_MAX];
	int done = 0;
	DIR *d = opendir(state_swap_dir(dir, sizeof(dir)));
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			struct owner o = { 0 };
			int seq;
			if (owner_name_parse(de->d_name, ".swap", &o, &seq) < 0 || owner_alive(&o))
				continue;
			char *path = xasprintf("%s/%s", dir, de->d_name);
			done += recover_swap_file(path, &o, true, actions, refused);
			free(path);
		}
		closedir(d);
	}
	/* swap files of other state directories still enabled: tag proves them */
	char err[PROBE_ERR_MAX];
	json_t *swaps = system_read_swaps(err), *s;
	size_t i;
	json_array_foreach(swaps, i, s) {
		const char *path = json_string_value(json_object_get(s, "path"));
		if (path[0] != '/')
			continue;
		const char *base = strrchr(path, '/') + 1;
		struct owner o = { 0 };
		int seq;
		if (owner_name_parse(base, ".swap", &o, &seq) == 0 && !owner_alive(&o))
			done += recover_swap_file(path, &o, false, actions, refused);
	}
	json_decref(swaps);
	return done;
}

/* Each zram device with a vmregress header whose owner is gone. */
static int recover_orphan_zram(json_t *actions, int *refused)
{
	int done = 0;
	DIR *d = opendir("/sys/block");
	if (!d)
		return 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		int id;
		char tail;
		if (sscanf(de->d_name, "zram%d%c", &id, &tail) != 1)
			continue;
		char path[96], dev[32];
		uint64_t size;
		struct swap_tag tag = { 0 };
		snprintf(path, sizeof(path), "/sys/block/zram%d/disksize", id);
		snprintf(dev, sizeof(dev), "/dev/zram%d", id);
		if (vmr_read_u64(path, &size) < 0 || size == 0 || zram_read_tag(id, &tag) != 1 ||
		    owner_alive(&tag.owner))
			continue;
		int e = swap_off(dev);
		if (e == 0)
			e = zram_release(id, tag.added);
		recover_action(actions, e < 0 ? "failed" : tag.added ? "removed" : "reset", "zram device", dev,
			       tag.owner.pid, "orphan", e < 0 ? strerror(-e) : NULL);
		if (e < 0)
			(*refused)++;
		else
			done++;
	}
	closedir(d);
	return done;
}

struct recover_said {
	json_t *actions;
	int *refused;
};

static void recover_scratch_said(void *ctx, const char *path, long pid, int err)
{
	struct recover_said *rs = ctx;
	recover_action(rs->actions, err < 0 ? "failed" : "removed", "scratch directory", path, (int)pid, "orphan",
		       err < 0 ? strerror(-err) : NULL);
	if (err < 0)
		(*rs->refused)++;
}

/* Work directories and generated reference traces of dead processes. */
static int recover_orphan_scratch(json_t *actions, int *refused)
{
	struct recover_said rs = { .actions = actions, .refused = refused };
	return scratch_cleanup(recover_scratch_said, &rs);
}

/* Cleanups serialise on the memory cgroup hierarchy's root directory, so
 * that two of them never swapoff or remove the same thing at once (an
 * flock on a directory that exists anyway leaves no lock file behind). */
static int recover_lock(void)
{
	struct cg_root root = { 0 };
	char why[256] = "";
	if (cgroup_detect(&root, why, sizeof(why)) < 0)
		return -1;
	int fd = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 && flock(fd, LOCK_EX) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Journals first (they restore knobs too), then orphans.  *blocking counts
 * journals that could not be replayed; *failed every other failure. */
static int recover_run(json_t *actions, int *blocking, int *failed)
{
	int r = state_prepare(false);
	if (r < 0)
		return r;
	undo_init();
	int lock = recover_lock(), done = 0;
	if (r == 0)
		done += recover_journals(actions, blocking);
	done += recover_orphan_cgroups(actions, failed);
	done += recover_orphan_swapfiles(actions, failed);
	done += recover_orphan_zram(actions, failed);
	done += recover_orphan_scratch(actions, failed);
	if (lock >= 0)
		close(lock);
	return done;
}

int sandbox_cleanup_report(json_t *actions)
{
	if (!vmr_is_root()) {
		vmr_err("cleanup: needs root to remove cgroups, disable swap and restore knobs");
		return -2;
	}
	int blocking = 0, failed = 0;
	int done = recover_run(actions, &blocking, &failed);
	if (done < 0)
		return done;
	return blocking || failed ? -1 : done;
}

static void recover_say(json_t *actions, const char *lead)
{
	size_t i;
	json_t *a;
	json_array_foreach(actions, i, a) {
		const char *err = json_string_value(json_object_get(a, "error"));
		if (!strcmp(json_string_value(json_object_get(a, "action")), "refused"))
			continue;  /* already explained */
		fprintf(stderr, "vmregress: %s%s %s %s (left by pid %d)%s%s\n", lead,
			json_string_value(json_object_get(a, "action")), json_string_value(json_object_get(a, "what")),
			json_string_value(json_object_get(a, "path")),
			(int)json_integer_value(json_object_get(a, "owner_pid")), err ? ": " : "", err ? err : "");
	}
}

int sandbox_recover(void)
{
	if (!vmr_is_root())
		return 0;  /* sandbox_open refuses non-root itself */
	json_t *actions = json_array();
	int blocking = 0, failed = 0;
	int r = recover_run(actions, &blocking, &failed);
	if (json_array_size(actions))
		recover_say(actions, "cleaning up after a killed vmregress first: ");
	json_decref(actions);
	if (r < 0)
		return r;
	if (blocking) {
		vmr_err("cannot build a sandbox while a killed vmregress's journal cannot be replayed; "
			"see 'vmregress sandbox status' and 'vmregress cleanup'");
		return -2;
	}
	if (failed)
		vmr_warn("some leftovers of killed vmregress processes could not be removed; 'vmregress cleanup' "
			 "retries");
	return 0;
}

/* Status. */

static json_t *recover_journal_status(const char *path, const char *name)
{
	json_t *o = json_object();
	struct owner named = { 0 };
	int seq;
	json_object_set_new(o, "path", json_string(path));
	if (owner_name_parse(name, ".journal", &named, &seq) < 0) {
		json_object_set_new(o, "error", json_string("not named like a vmregress journal"));
		return o;
	}
	json_object_set_new(o, "owner_pid", json_integer(named.pid));
	json_object_set_new(o, "owner_alive", json_boolean(owner_alive(&named)));
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char *buf = NULL, why[160] = "";
	const char *reason;
	size_t len;
	struct jrec *recs = xcalloc(JOURNAL_MAX_RECS, sizeof(*recs));
	struct owner owner = { 0 };
	if (fd < 0 || recover_read_journal(fd, &buf, &len, &reason) < 0) {
		json_object_set_new(o, "error", json_string(fd < 0 ? strerror(errno) : reason));
		goto out;
	}
	char swapdir[JOURNAL_PATH_MAX];
	int n = journal_parse(buf, len, state_swap_dir(swapdir, sizeof(swapdir)), &owner, recs, JOURNAL_MAX_RECS,
			      why, sizeof(why));
	if (n < 0) {
		json_object_set_new(o, "error", json_string(why));
		goto out;
	}
	json_t *ch = json_array();
	for (int i = 0; i < n; i++) {
		json_t *c = json_object();
		json_object_set_new(c, "what", json_string(recover_rec_what(&recs[i])));
		if (recs[i].type == JREC_ZRAM) {
			char dev[32];
			snprintf(dev, sizeof(dev), "/dev/zram%d", recs[i].id);
			json_object_set_new(c, "path", json_string(dev));
			json_object_set_new(c, "hot_added", json_boolean(!strcmp(recs[i].value, "added")));
		} else if (journal_kind(recs[i].type)) {
			const struct jrec_kind *k = journal_kind(recs[i].type);
			char *at = xasprintf("%s%d", k->path_prefix, recs[i].id);
			json_object_set_new(c, "path", json_string(at));
			json_object_set_new(c, k->value_key, json_string(recs[i].value));
			free(at);
		} else {
			json_object_set_new(c, "path", json_string(recs[i].path));
		}
		if (recs[i].type == JREC_KNOB) {
			char now[JOURNAL_VALUE_MAX];
			const struct knob *k = knob_find(recs[i].path);
			json_object_set_new(c, "old_value", json_string(recs[i].value));
			if (k && knob_read(k, now, sizeof(now)) == 0)
				json_object_set_new(c, "value", json_string(now));
		}
		json_array_append_new(ch, c);
	}
	json_object_set_new(o, "changes", ch);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	free(recs);
	return o;
}

static json_t *recover_owned(const char *path, const struct owner *o)
{
	json_t *j = json_object();
	json_object_set_new(j, "path", json_string(path));
	json_object_set_new(j, "owner_pid", json_integer(o->pid));
	json_object_set_new(j, "owner_alive", json_boolean(owner_alive(o)));
	return j;
}

static void recover_status_cgroups(json_t *arr)
{
	struct cg_root root = { 0 };
	char why[256] = "";
	if (cgroup_detect(&root, why, sizeof(why)) < 0)
		return;
	DIR *d = opendir(root.path);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct owner o = { 0 };
		int seq;
		if (owner_name_parse(de->d_name, NULL, &o, &seq) < 0)
			continue;
		char *path = xasprintf("%s/%s", root.path, de->d_name);
		json_array_append_new(arr, recover_owned(path, &o));
		free(path);
	}
	closedir(d);
}

static void recover_status_swaps(json_t *swaps, json_t *zram)
{
	char err[PROBE_ERR_MAX];
	json_t *all = system_read_swaps(err), *s;
	size_t i;
	json_array_foreach(all, i, s) {
		const char *path = json_string_value(json_object_get(s, "path"));
		struct swap_tag tag = { 0 };
		int r = !strncmp(path, "/dev/zram", 9) ? zram_read_tag(atoi(path + 9), &tag)
						      : swap_file_read_tag(path, &tag);
		if (r != 1)
			continue;
		json_t *j = recover_owned(path, &tag.owner);
		json_object_set(j, "size_bytes", json_object_get(s, "size_bytes"));
		json_object_set(j, "used_bytes", json_object_get(s, "used_bytes"));
		json_object_set(j, "priority", json_object_get(s, "priority"));
		json_array_append_new(swaps, j);
	}
	json_decref(all);
	DIR *d = opendir("/sys/block");
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		int id;
		char tail, path[96], dev[32];
		uint64_t size;
		struct swap_tag tag = { 0 };
		if (sscanf(de->d_name, "zram%d%c", &id, &tail) != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/block/zram%d/disksize", id);
		snprintf(dev, sizeof(dev), "/dev/zram%d", id);
		if (vmr_read_u64(path, &size) < 0 || size == 0 || zram_read_tag(id, &tag) != 1)
			continue;
		json_t *j = recover_owned(dev, &tag.owner);
		json_object_set_new(j, "disksize_bytes", json_integer((json_int_t)size));
		json_object_set_new(j, "hot_added", json_boolean(tag.added));
		json_array_append_new(zram, j);
	}
	closedir(d);
}

int sandbox_status(json_t **out)
{
	json_t *o = json_object(), *journals = json_array(), *cgroups = json_array(), *swaps = json_array(),
	       *zram = json_array();
	json_object_set_new(o, "state_dir", json_string(state_dir()));
	DIR *d = opendir(state_dir());
	if (!d && errno != ENOENT)
		vmr_warn("cannot read state directory %s: %s (its journals are not shown)", state_dir(), strerror(errno));
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			size_t nl = strlen(de->d_name);
			if (nl < 8 || strcmp(de->d_name + nl - 8, ".journal"))
				continue;
			char *path = xasprintf("%s/%s", state_dir(), de->d_name);
			json_array_append_new(journals, recover_journal_status(path, de->d_name));
			free(path);
		}
		closedir(d);
	}
	recover_status_cgroups(cgroups);
	recover_status_swaps(swaps, zram);
	bool changed = json_array_size(journals) || json_array_size(cgroups) || json_array_size(swaps) ||
		       json_array_size(zram);
	json_object_set_new(o, "changed", json_boolean(changed));
	json_object_set_new(o, "journals", journals);
	json_object_set_new(o, "cgroups", cgroups);
	json_object_set_new(o, "swaps", swaps);
	json_object_set_new(o, "zram", zram);
	*out = o;
	return 0;
}
