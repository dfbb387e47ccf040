/* The environment fingerprint stored with every run. */
#include "probe/system.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/util.h"
#include "probe/damon.h"
#include "probe/lru_gen.h"
#include "probe/meminfo.h"
#include "probe/pressure.h"
#include "probe/probe.h"
#include "probe/sysctl.h"
#include "probe/sysfsdir.h"
#include "probe/thp.h"

int system_selected_word(const char *text, char *out, size_t outlen)
{
	const char *a = strchr(text, '['), *b = a ? strchr(a, ']') : NULL;
	if (!a || !b || b == a + 1 || (size_t)(b - a - 1) >= outlen)
		return -1;
	memcpy(out, a + 1, (size_t)(b - a - 1));
	out[b - a - 1] = '\0';
	return 0;
}

/* A file's first line as a JSON string, or null when it cannot be read. */
static json_t *system_line(const char *path)
{
	char *s;
	if (vmr_read_line(path, &s) < 0)
		return json_null();
	json_t *j = json_string(s);
	free(s);
	return j ? j : json_null();
}

/* A file holding one number as a JSON integer, or null. */
static json_t *system_u64(const char *path)
{
	uint64_t v;
	return vmr_read_u64(path, &v) == 0 ? json_integer((json_int_t)v) : json_null();
}

/* The bracketed choice of a sysfs selector file ("[madvise]"), or null. */
static json_t *system_selected(const char *path)
{
	char *s, word[64];
	json_t *j = json_null();
	if (vmr_read_line(path, &s) < 0)
		return j;
	if (system_selected_word(s, word, sizeof(word)) == 0)
		j = json_string(word);
	else
		j = json_string(s);   /* zswap's compressor is a bare word */
	free(s);
	return j;
}

static json_t *system_kernel(void)
{
	struct utsname u = { 0 };
	json_t *k = json_object();
	if (uname(&u) == 0) {
		json_object_set_new(k, "release", json_string(u.release));
		json_object_set_new(k, "version", json_string(u.version));
		json_object_set_new(k, "machine", json_string(u.machine));
	}
	json_object_set_new(k, "cmdline", system_line("/proc/cmdline"));
	return k;
}

/* Undo the octal escapes of /proc/swaps and /proc/mounts ("\040"). */
static void system_unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 | (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static int system_swap_line(json_t *arr, const char *p, const char *end, unsigned lineno, char *err)
{
	char path[4096], type[32], prio[24];
	uint64_t size, used;
	if (probe_word(&p, end, path, sizeof(path)) < 0 || probe_word(&p, end, type, sizeof(type)) < 0 ||
	    probe_u64(&p, end, &size) < 0 || probe_u64(&p, end, &used) < 0 ||
	    probe_word(&p, end, prio, sizeof(prio)) < 0 || size > UINT64_MAX / 1024) {
		probe_err(err, lineno, "expected 'FILENAME TYPE SIZE USED PRIORITY'");
		return -1;
	}
	char *e;
	long pr = strtol(prio, &e, 10);
	if (*e) {
		probe_err(err, lineno, "priority '%s' is not a number", prio);
		return -1;
	}
	system_unescape(path);
	json_array_append_new(arr, json_pack("{s:s, s:s, s:I, s:I, s:I}", "path", path, "type", type,
					     "size_bytes", (json_int_t)(size * 1024),
					     "used_bytes", (json_int_t)(used * 1024), "priority", (json_int_t)pr));
	return 0;
}

json_t *system_parse_swaps(const char *buf, size_t len, char *err)
{
	struct probe_lines l = { 0 };
	const char *line;
	size_t ll;
	json_t *arr = json_array();
	probe_lines_init(&l, buf, len);
	if (!probe_lines_next(&l, &line, &ll) || ll < 8 || memcmp(line, "Filename", 8)) {
		probe_err(err, 1, "expected the 'Filename Type Size Used Priority' header");
		goto fail;
	}
	while (probe_lines_next(&l, &line, &ll)) {
		if (l.p == l.end && buf[len - 1] != '\n') {
			probe_err(err, l.lineno, "truncated (no newline at the end)");
			goto fail;
		}
		if (system_swap_line(arr, line, line + ll, l.lineno, err) < 0)
			goto fail;
	}
	return arr;
fail:
	json_decref(arr);
	return NULL;
}

json_t *system_read_swaps(char *err)
{
	char *buf;
	size_t len;
	if (vmr_read_file("/proc/swaps", &buf, &len) < 0) {
		snprintf(err, PROBE_ERR_MAX, "cannot read /proc/swaps: %s", strerror(errno));
		return NULL;
	}
	json_t *j = system_parse_swaps(buf, len, err);
	free(buf);
	return j;
}

static json_t *system_swaps(void)
{
	char err[PROBE_ERR_MAX] = "";
	json_t *j = system_read_swaps(err);
	return j ? j : json_null();
}

static json_t *system_sysctls(void)
{
	struct sysctl_list l = { 0 };
	char err[PROBE_ERR_MAX] = "";
	if (sysctl_read_all(&l, "vm", err) < 0)
		return json_null();
	json_t *j = sysctl_list_json(&l);
	sysctl_list_free(&l);
	return j;
}

/* Copy what `from` has and `to` lacks (settings a kernel adds, read
 * generically), leaving the keys `to` already has as they are. */
static void system_add_missing(json_t *to, json_t *from)
{
	const char *k;
	json_t *v;
	json_object_foreach(from, k, v)
		if (!json_object_get(to, k))
			json_object_set(to, k, v);
}

static json_t *system_thp(void)
{
	const char *d = "/sys/kernel/mm/transparent_hugepage";
	bool avail = access(d, F_OK) == 0;
	json_t *j = json_pack("{s:b, s:o, s:o, s:o}", "available", avail,
			      "enabled", system_selected("/sys/kernel/mm/transparent_hugepage/enabled"),
			      "defrag", system_selected("/sys/kernel/mm/transparent_hugepage/defrag"),
			      "shmem_enabled", system_selected("/sys/kernel/mm/transparent_hugepage/shmem_enabled"));
	struct thp t = { 0 };
	/* the rest generically: use_zero_page, shrink_underused, khugepaged's
	 * settings and each multi-size THP size's enabled/shmem_enabled (no
	 * counters: they differ between any two runs) */
	if (avail && thp_read(&t, d, NULL) == 0) {
		json_t *all = thp_json(&t, false);
		system_add_missing(j, json_object_get(all, "settings"));
		json_object_set(j, "khugepaged", json_object_get(all, "khugepaged"));
		json_object_set(j, "sizes", json_object_get(all, "sizes"));
		json_decref(all);
		thp_free(&t);
	}
	return j;
}

static json_t *system_zswap(void)
{
	const char *d = "/sys/module/zswap/parameters";
	bool avail = access(d, F_OK) == 0;
	json_t *en = system_line("/sys/module/zswap/parameters/enabled");
	if (json_is_string(en)) {
		const char *s = json_string_value(en);
		json_t *b = json_boolean(!strcmp(s, "Y") || !strcmp(s, "1"));
		json_decref(en);
		en = b;
	}
	json_t *j = json_pack("{s:b, s:o, s:o, s:o}", "available", avail, "enabled", en,
			      "compressor", system_line("/sys/module/zswap/parameters/compressor"),
			      "max_pool_percent", system_u64("/sys/module/zswap/parameters/max_pool_percent"));
	struct sysfs_dir p = { 0 };
	if (avail && sysfs_dir_read(&p, d, NULL) == 0) {
		/* shrinker_enabled, accept_threshold_percent, zpool ...: Y/N as booleans */
		for (size_t i = 0; i < p.n; i++) {
			const char *v = p.v[i].value;
			if (json_object_get(j, p.v[i].name))
				continue;
			json_object_set_new(j, p.v[i].name, !strcmp(v, "Y") || !strcmp(v, "N") ?
					    json_boolean(v[0] == 'Y') : sysfs_value_json(&p.v[i]));
		}
	}
	sysfs_dir_free(&p);
	return j;
}

static json_t *system_lru_gen(void)
{
	struct lru_gen g = { 0 };
	if (lru_gen_read(&g, NULL, NULL) < 0)
		return json_pack("{s:b}", "available", 0);
	json_t *j = lru_gen_json(&g);
	json_object_set_new(j, "available", json_true());
	return j;
}

/* A kdamond the system left on (proactive reclaim) changes swap results. */
static json_t *system_damon(void)
{
	struct damon_state d = { 0 };
	if (damon_read(&d, NULL, NULL) < 0)
		return json_pack("{s:b}", "available", 0);
	json_t *j = damon_json(&d);
	json_object_set_new(j, "available", json_true());
	return j;
}

static json_t *system_swap(void)
{
	json_t *ra = system_line("/sys/kernel/mm/swap/vma_ra_enabled");
	if (json_is_string(ra)) {
		json_t *b = json_boolean(!strcmp(json_string_value(ra), "true"));
		json_decref(ra);
		ra = b;
	}
	return json_pack("{s:o}", "vma_ra_enabled", ra);
}

static json_t *system_ksm(void)
{
	uint64_t run;
	if (vmr_read_u64("/sys/kernel/mm/ksm/run", &run) < 0)
		return json_pack("{s:b, s:n}", "available", 0, "run");
	return json_pack("{s:b, s:I}", "available", 1, "run", (json_int_t)run);
}

/* Does the v2 hierarchy at mnt offer the memory controller? */
static bool system_v2_has_memory(const char *mnt)
{
	char *path = xasprintf("%s/cgroup.controllers", mnt), *s;
	bool yes = false;
	if (vmr_read_line(path, &s) == 0) {
		for (char *t = strtok(s, " "); t; t = strtok(NULL, " "))
			yes |= !strcmp(t, "memory");
		free(s);
	}
	free(path);
	return yes;
}

static bool system_opt_has(const char *opts, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = opts; (p = strstr(p, word)); p += n)
		if ((p == opts || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

static json_t *system_cgroup(void)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char dev[256], mnt[1024], type[64], opts[1024];
	char v2[1024] = "", v1mem[1024] = "";
	bool v1 = false;
	if (!f)
		return json_null();
	while (fscanf(f, "%255s %1023s %63s %1023s %*d %*d", dev, mnt, type, opts) == 4) {
		system_unescape(mnt);
		if (!strcmp(type, "cgroup2") && !v2[0])
			strcpy(v2, mnt);
		if (!strcmp(type, "cgroup")) {
			v1 = true;
			if (system_opt_has(opts, "memory") && !v1mem[0])
				strcpy(v1mem, mnt);
		}
	}
	fclose(f);
	const char *version = v1 && v2[0] ? "hybrid" : v1 ? "v1" : v2[0] ? "v2" : "none";
	const char *memc = v2[0] && system_v2_has_memory(v2) ? "v2" : v1mem[0] ? "v1" : NULL;
	return json_pack("{s:s, s:o, s:o, s:o}", "version", version,
			 "v2_mount", v2[0] ? json_string(v2) : json_null(),
			 "v1_memory_mount", v1mem[0] ? json_string(v1mem) : json_null(),
			 "memory_controller", memc ? json_string(memc) : json_null());
}

/* The value of "key<spaces>: value" in /proc/cpuinfo text, malloc'd, or NULL. */
static char *system_cpuinfo_value(const char *buf, const char *key)
{
	size_t n = strlen(key);
	for (const char *line = buf; *line; ) {
		const char *p = line + n;
		if (!strncmp(line, key, n) && p[strspn(p, " \t")] == ':') {
			p += strspn(p, " \t") + 1;
			p += strspn(p, " \t");
			return strndup(p, strcspn(p, "\n"));
		}
		const char *nl = strchr(line, '\n');
		if (!nl)
			break;
		line = nl + 1;
	}
	return NULL;
}

static json_t *system_cpu(void)
{
	/* x86 says "model name", arm "Processor" or nothing, s390 "processor 0", ppc "cpu". */
	static const char *const keys[] = { "model name", "Processor", "cpu model", "cpu", NULL };
	char *buf, *model = NULL;
	if (vmr_read_file("/proc/cpuinfo", &buf, NULL) == 0) {
		for (const char *const *k = keys; *k && !model; k++)
			model = system_cpuinfo_value(buf, *k);
		free(buf);
	}
	json_t *j = json_pack("{s:o, s:I, s:I}", "model", model ? json_string(model) : json_null(),
			      "count", (json_int_t)sysconf(_SC_NPROCESSORS_ONLN),
			      "configured", (json_int_t)sysconf(_SC_NPROCESSORS_CONF));
	free(model);
	return j;
}

/* "0-1,3" -> [0,1,3] */
static json_t *system_numa(void)
{
	char *s;
	json_t *ids = json_array();
	if (vmr_read_line("/sys/devices/system/node/online", &s) < 0) {
		json_decref(ids);
		return json_pack("{s:n, s:n, s:n}", "nodes", "node_ids", "demotion_enabled");
	}
	for (char *t = strtok(s, ","); t; t = strtok(NULL, ",")) {
		unsigned a, b;
		int n = sscanf(t, "%u-%u", &a, &b);
		if (n == 1)
			b = a;
		for (unsigned i = a; n >= 1 && i <= b && i - a < 4096; i++)
			json_array_append_new(ids, json_integer(i));
	}
	free(s);
	json_t *demote = system_line("/sys/kernel/mm/numa/demotion_enabled");
	if (json_is_string(demote)) {
		json_t *b = json_boolean(!strcmp(json_string_value(demote), "true"));
		json_decref(demote);
		demote = b;
	}
	return json_pack("{s:I, s:o, s:o}", "nodes", (json_int_t)json_array_size(ids), "node_ids", ids,
			 "demotion_enabled", demote);
}

static json_t *system_mem(const struct meminfo *m, const char *name)
{
	uint64_t v;
	return meminfo_get(m, name, &v) == 0 ? json_integer((json_int_t)v) : json_null();
}

json_t *system_fingerprint(void)
{
	struct meminfo mi = { 0 };
	char err[PROBE_ERR_MAX] = "", host[256] = "";
	json_t *j = json_object();
	if (meminfo_read(&mi, NULL, err) < 0)
		mi.n = 0;
	gethostname(host, sizeof(host) - 1);
	json_object_set_new(j, "kernel", system_kernel());
	json_object_set_new(j, "hostname", json_string(host));
	json_object_set_new(j, "page_size", json_integer((json_int_t)vmr_page_size()));
	json_object_set_new(j, "mem_total_bytes", system_mem(&mi, "MemTotal"));
	json_object_set_new(j, "swap_total_bytes", system_mem(&mi, "SwapTotal"));
	/* huge pages other processes hold: a host already fragmented or not */
	json_object_set_new(j, "anon_huge_bytes", system_mem(&mi, "AnonHugePages"));
	json_object_set_new(j, "swaps", system_swaps());
	json_object_set_new(j, "sysctl", system_sysctls());
	json_object_set_new(j, "thp", system_thp());
	json_object_set_new(j, "zswap", system_zswap());
	json_object_set_new(j, "lru_gen", system_lru_gen());
	json_object_set_new(j, "swap", system_swap());
	json_object_set_new(j, "damon", system_damon());
	json_object_set_new(j, "ksm", system_ksm());
	json_object_set_new(j, "cgroup", system_cgroup());
	json_object_set_new(j, "psi", json_pack("{s:b}", "available", pressure_available()));
	json_object_set_new(j, "cpu", system_cpu());
	json_object_set_new(j, "numa", system_numa());
	meminfo_free(&mi);
	return j;
}
