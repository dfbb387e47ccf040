#include "sandbox/cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "probe/vmstat.h"

#define CGROUP_SUPER_MAGIC_V1 0x27e0eb
#define CGROUP_SUPER_MAGIC_V2 0x63677270

/* Field n (0-based) of a space-separated line, copied into out. */
static int cgroup_field(const char *line, int n, char *out, size_t len)
{
	const char *p = line;
	for (int i = 0; i < n; i++) {
		p = strchr(p, ' ');
		if (!p)
			return -1;
		p++;
	}
	size_t w = strcspn(p, " \n");
	if (w == 0 || w >= len)
		return -1;
	memcpy(out, p, w);
	out[w] = '\0';
	return 0;
}

static bool cgroup_has_word(const char *list, const char *word, const char *seps)
{
	size_t wl = strlen(word);
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, seps);
		if (n == wl && !strncmp(p, word, n))
			return true;
		p += n;
		if (*p)
			p++;
	}
	return false;
}

int cgroup_parse_mountinfo(const char *text, bool memory_on_v2, struct cg_root *root)
{
	char v1[256] = "", v2[256] = "";
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[1024], mnt[256], fstype[32], opts[512];
		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			const char *dash = strstr(buf, " - ");
			if (dash && cgroup_field(buf, 4, mnt, sizeof(mnt)) == 0 && !strchr(mnt, '\\') &&
			    cgroup_field(dash + 3, 0, fstype, sizeof(fstype)) == 0 &&
			    cgroup_field(dash + 3, 2, opts, sizeof(opts)) == 0) {
				if (!strcmp(fstype, "cgroup2") && !v2[0])
					strcpy(v2, mnt);
				else if (!strcmp(fstype, "cgroup") && !v1[0] && cgroup_has_word(opts, "memory", ","))
					strcpy(v1, mnt);
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	if (memory_on_v2 && v2[0]) {
		root->version = 2;
		strcpy(root->path, v2);
		return 0;
	}
	if (v1[0]) {
		root->version = 1;
		strcpy(root->path, v1);
		return 0;
	}
	return -1;
}

/* The v2 memory controller is usable when the root offers it and hands it
 * to its children; turning it on would itself be a host change. */
static bool cgroup_v2_memory(const char *text, char *why, size_t whylen)
{
	struct cg_root r = { 0 };
	if (cgroup_parse_mountinfo(text, true, &r) < 0 || r.version != 2)
		return false;
	char *ctl = xasprintf("%s/cgroup.controllers", r.path), *sub = xasprintf("%s/cgroup.subtree_control", r.path);
	char *c = NULL, *s = NULL;
	bool ok = vmr_read_line(ctl, &c) == 0 && cgroup_has_word(c, "memory", " ") &&
		  vmr_read_line(sub, &s) == 0 && cgroup_has_word(s, "memory", " ");
	if (!ok && c && cgroup_has_word(c, "memory", " "))
		snprintf(why, whylen, "the cgroup2 root at %s does not delegate memory (cgroup.subtree_control)", r.path);
	free(c);
	free(s);
	free(ctl);
	free(sub);
	return ok;
}

int cgroup_detect(struct cg_root *root, char *why, size_t whylen)
{
	char *text;
	snprintf(why, whylen, "no memory cgroup controller is mounted");
	if (vmr_read_file("/proc/self/mountinfo", &text, NULL) < 0) {
		snprintf(why, whylen, "cannot read /proc/self/mountinfo");
		return -1;
	}
	bool v2 = cgroup_v2_memory(text, why, whylen);
	int r = cgroup_parse_mountinfo(text, v2, root);
	free(text);
	return r;
}

static int cgroup_write(const char *dir, const char *file, const char *value)
{
	char *path = xasprintf("%s/%s", dir, file);
	int r = vmr_write_file(path, value);
	if (r < 0)
		vmr_err("cannot write '%s' to %s: %s", value, path, strerror(-r));
	free(path);
	return r;
}

static bool cgroup_file_exists(const char *dir, const char *file)
{
	char *path = xasprintf("%s/%s", dir, file);
	bool ok = access(path, F_OK) == 0;
	free(path);
	return ok;
}

static int cgroup_configure_v1(const char *path, uint64_t mem, uint64_t high, uint64_t swap, int swappiness)
{
	char v[32];
	snprintf(v, sizeof(v), "%llu", (unsigned long long)mem);
	if (cgroup_write(path, "memory.limit_in_bytes", v) < 0)
		return -1;
	/* memsw limits memory plus swap; it must be at least the memory limit */
	if (swap != CGROUP_UNLIMITED && cgroup_file_exists(path, "memory.memsw.limit_in_bytes")) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)(mem + swap));
		if (cgroup_write(path, "memory.memsw.limit_in_bytes", v) < 0)
			return -1;
	}
	if (high) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)high);
		if (cgroup_write(path, "memory.soft_limit_in_bytes", v) < 0)
			return -1;
	}
	if (swappiness >= 0) {
		snprintf(v, sizeof(v), "%d", swappiness);
		if (cgroup_write(path, "memory.swappiness", v) < 0)
			return -1;
	}
	/* the OOM killer must act inside the cgroup, not leave its tasks hung */
	if (cgroup_file_exists(path, "memory.oom_control") && cgroup_write(path, "memory.oom_control", "0") < 0)
		return -1;
	return 0;
}

static int cgroup_configure_v2(const char *path, uint64_t mem, uint64_t high, uint64_t swap)
{
	char v[32];
	snprintf(v, sizeof(v), "%llu", (unsigned long long)mem);
	if (cgroup_write(path, "memory.max", v) < 0)
		return -1;
	if (high) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)high);
		if (cgroup_write(path, "memory.high", v) < 0)
			return -1;
	}
	if (cgroup_file_exists(path, "memory.swap.max")) {
		if (swap == CGROUP_UNLIMITED)
			strcpy(v, "max");
		else
			snprintf(v, sizeof(v), "%llu", (unsigned long long)swap);
		if (cgroup_write(path, "memory.swap.max", v) < 0)
			return -1;
	}
	return 0;
}

int cgroup_configure(int version, const char *path, uint64_t mem, uint64_t high, uint64_t swap, int swappiness)
{
	if (version == 2)
		return cgroup_configure_v2(path, mem, high, swap);
	return cgroup_configure_v1(path, mem, high, swap, swappiness);
}

int cgroup_set_low(const char *path, uint64_t low)
{
	char v[32];
	snprintf(v, sizeof(v), "%llu", (unsigned long long)low);
	return cgroup_write(path, "memory.low", v) < 0 ? -1 : 0;
}

int cgroup_attach(const char *path, pid_t pid)
{
	char file[320], v[24];
	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	snprintf(v, sizeof(v), "%d", (int)pid);
	return vmr_write_file(file, v);
}

static void cgroup_nap(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };
	nanosleep(&ts, NULL);
}

/* The steps below use only async-signal-safe calls: the signal handler
 * undoes sandboxes through them. */

static void cgroup_path(char *out, size_t len, const char *dir, const char *file)
{
	size_t d = strlen(dir), f = strlen(file);
	if (d + 1 + f >= len) {
		out[0] = '\0';
		return;
	}
	memcpy(out, dir, d);
	out[d] = '/';
	memcpy(out + d + 1, file, f + 1);
}

/* Kill what cgroup.procs lists; returns how many it saw, or -errno. */
static int cgroup_kill_round(const char *procs)
{
	int fd = open(procs, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	char buf[4096];
	int seen = 0;
	long pid = 0;
	bool in = false;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				pid = pid * 10 + (buf[i] - '0');
				in = true;
			} else if (in) {
				if (pid > 0)
					kill((pid_t)pid, SIGKILL);
				seen++;
				pid = 0;
				in = false;
			}
		}
	}
	if (in && pid > 0) {
		kill((pid_t)pid, SIGKILL);
		seen++;
	}
	close(fd);
	return seen;
}

int cgroup_kill_all(const char *path)
{
	char procs[320], killf[320];
	cgroup_path(procs, sizeof(procs), path, "cgroup.procs");
	cgroup_path(killf, sizeof(killf), path, "cgroup.kill");
	/* v2's cgroup.kill (5.14+) kills at once; the loop below also covers
	 * v1 and anything that forks meanwhile */
	int fd = open(killf, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t w = write(fd, "1", 1);
		(void)w;
		close(fd);
	}
	for (int round = 0; round < 500; round++) {
		int n = cgroup_kill_round(procs);
		if (n <= 0)
			return n == -ENOENT ? 0 : n;
		cgroup_nap(round < 10 ? 2 : 10);
	}
	return -EBUSY;
}

bool cgroup_is_cgroup(const char *path)
{
	struct statfs sf = { 0 };
	if (statfs(path, &sf) < 0)
		return false;
	return sf.f_type == CGROUP_SUPER_MAGIC_V1 || sf.f_type == CGROUP_SUPER_MAGIC_V2;
}

int cgroup_remove(const char *path)
{
	struct stat st = { 0 };
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode) || !cgroup_is_cgroup(path))
		return -ENOTDIR;
	int r = cgroup_kill_all(path);
	if (r < 0 && r != -EBUSY)
		return r;
	/* exiting tasks keep the cgroup busy for a moment after they are gone */
	for (int i = 0; i < 300; i++) {
		if (rmdir(path) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		cgroup_kill_all(path);
		cgroup_nap(10);
	}
	return -EBUSY;
}

/* Counters. */

static void cgroup_put_file(json_t *o, const char *key, const char *dir, const char *file)
{
	char path[320];
	uint64_t v;
	cgroup_path(path, sizeof(path), dir, file);
	if (vmr_read_u64(path, &v) == 0)
		json_object_set_new(o, key, json_integer((json_int_t)v));
}

/* "key value" lines (memory.stat, memory.events, oom_control) into prefix.key. */
static void cgroup_put_keyed(json_t *o, const char *prefix, const char *dir, const char *file)
{
	char path[320], *text;
	cgroup_path(path, sizeof(path), dir, file);
	if (vmr_read_file(path, &text, NULL) < 0)
		return;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[96];
		unsigned long long v;
		if (sscanf(line, "%95s %llu", key, &v) == 2) {
			char *k = xasprintf("%s%s", prefix, key);
			json_object_set_new(o, k, json_integer((json_int_t)v));
			free(k);
		}
	}
	free(text);
}

static uint64_t cgroup_get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
}

json_t *cgroup_stats(int version, const char *path)
{
	json_t *o = json_object();
	if (version == 2) {
		cgroup_put_file(o, "usage_bytes", path, "memory.current");
		cgroup_put_file(o, "peak_bytes", path, "memory.peak");
		cgroup_put_file(o, "swap_bytes", path, "memory.swap.current");
		cgroup_put_file(o, "limit_bytes", path, "memory.max");
		cgroup_put_keyed(o, "events.", path, "memory.events");
		json_object_set_new(o, "oom", json_integer((json_int_t)cgroup_get(o, "events.oom")));
		json_object_set_new(o, "oom_kill", json_integer((json_int_t)cgroup_get(o, "events.oom_kill")));
		json_object_set_new(o, "failcnt", json_integer((json_int_t)cgroup_get(o, "events.max")));
	} else {
		cgroup_put_file(o, "usage_bytes", path, "memory.usage_in_bytes");
		cgroup_put_file(o, "peak_bytes", path, "memory.max_usage_in_bytes");
		cgroup_put_file(o, "limit_bytes", path, "memory.limit_in_bytes");
		cgroup_put_file(o, "failcnt", path, "memory.failcnt");
		cgroup_put_file(o, "memsw_usage_bytes", path, "memory.memsw.usage_in_bytes");
		cgroup_put_file(o, "memsw_peak_bytes", path, "memory.memsw.max_usage_in_bytes");
		cgroup_put_file(o, "memsw_failcnt", path, "memory.memsw.failcnt");
		cgroup_put_keyed(o, "oom_control.", path, "memory.oom_control");
		json_object_set_new(o, "oom", json_integer((json_int_t)cgroup_get(o, "oom_control.under_oom")));
		json_object_set_new(o, "oom_kill", json_integer((json_int_t)cgroup_get(o, "oom_control.oom_kill")));
	}
	cgroup_put_keyed(o, "stat.", path, "memory.stat");
	if (version == 1) {
		/* v1 counts swap in memory.stat "swap" (with swap accounting) */
		json_t *s = json_object_get(o, "stat.swap");
		uint64_t sw = json_is_integer(s) ? (uint64_t)json_integer_value(s) : 0;
		if (!s && cgroup_get(o, "memsw_usage_bytes") > cgroup_get(o, "usage_bytes"))
			sw = cgroup_get(o, "memsw_usage_bytes") - cgroup_get(o, "usage_bytes");
		json_object_set_new(o, "swap_bytes", json_integer((json_int_t)sw));
	}
	return o;
}

int cgroup_empty(int version, const char *path)
{
	char file[320];
	if (version == 1) {
		cgroup_path(file, sizeof(file), path, "memory.force_empty");
		return vmr_write_file(file, "0");
	}
	json_t *o = cgroup_stats(version, path);
	uint64_t usage = cgroup_get(o, "usage_bytes");
	json_decref(o);
	if (!usage)
		return 0;
	char bytes[32];
	snprintf(bytes, sizeof(bytes), "%" PRIu64, usage);
	cgroup_path(file, sizeof(file), path, "memory.reclaim");
	int e = vmr_write_file(file, bytes);
	return e == -EAGAIN ? 0 : e;  /* EAGAIN: less than all of it could go */
}

uint64_t cgroup_oom_kills(int version, const char *path)
{
	json_t *o = cgroup_stats(version, path);
	uint64_t v = cgroup_get(o, "oom_kill");
	json_decref(o);
	return v;
}

/* What cgroup_stats calls swap_bytes, read alone: a sampler calls it
 * every few milliseconds. */
uint64_t cgroup_swap_bytes(int version, const char *path)
{
	char file[320];
	uint64_t v = 0, mem = 0, memsw = 0;
	if (version == 2) {
		cgroup_path(file, sizeof(file), path, "memory.swap.current");
		return vmr_read_u64(file, &v) == 0 ? v : 0;
	}
	struct vmstat st = { 0 };
	char err[PROBE_ERR_MAX] = "";
	vmstat_init(&st);
	cgroup_path(file, sizeof(file), path, "memory.stat");
	int have = vmstat_read(&st, file, err) == 0 && vmstat_get(&st, "swap", &v) == 0;
	vmstat_free(&st);
	if (have)
		return v;
	cgroup_path(file, sizeof(file), path, "memory.usage_in_bytes");
	vmr_read_u64(file, &mem);
	cgroup_path(file, sizeof(file), path, "memory.memsw.usage_in_bytes");
	vmr_read_u64(file, &memsw);
	return memsw > mem ? memsw - mem : 0;
}
