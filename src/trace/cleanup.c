/* What tracing leaves on the host, and its cleanup: the settings snapshot
 * that tests compare before and after, and the private tracefs mounts and
 * tracing instances of dead owners that `vmregress cleanup` removes. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "core/owner.h"
#include "core/util.h"
#include "trace/perf.h"
#include "trace/trace.h"
#include "trace/tracefs.h"

static void snap_add(char **s, size_t *len, int fd, const char *path)
{
	char *v = NULL;
	int e = tracefs_read(fd, path, &v);
	char *line = e < 0 ? xasprintf("%s: (%s)\n", path, strerror(-e)) : xasprintf("%s: %s\n", path, v);
	for (char *p = line; *p && p[1]; p++)
		if (*p == '\n')
			*p = ' ';
	size_t n = strlen(line);
	*s = xrealloc(*s, *len + n + 1);
	memcpy(*s + *len, line, n + 1);
	*len += n;
	free(line);
	free(v);
}

char *trace_settings_snapshot(void)
{
	static const char *const files[] = {
		"tracing_on", "buffer_size_kb", "current_tracer", "trace_clock", "trace_options",
		"set_event", "set_event_pid", "options/event-fork",
	};
	int fd = tracefs_open();
	if (fd < 0)
		return NULL;
	char *s = xstrdup("");
	size_t len = 0;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		snap_add(&s, &len, fd, files[i]);
	for (size_t i = 0; i < trace_nwants; i++)
		for (const char *const *c = trace_wants[i].cands; *c; c++) {
			char *p = xasprintf("events/%s/enable", *c);
			if (faccessat(fd, p, F_OK, 0) == 0) {
				snap_add(&s, &len, fd, p);
				strcpy(p + strlen(p) - strlen("enable"), "filter");
				snap_add(&s, &len, fd, p);
			}
			free(p);
		}
	int ifd = openat(fd, "instances", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = ifd >= 0 ? fdopendir(ifd) : NULL;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *line = xasprintf("instance: %s\n", de->d_name);
		s = xrealloc(s, len + strlen(line) + 1);
		strcpy(s + len, line);
		len += strlen(line);
		free(line);
	}
	if (d)
		closedir(d);
	else if (ifd >= 0)
		close(ifd);
	close(fd);
	return s;
}

/* The pid in ".../vmregress-tracefs-<pid>-XXXXXX", a private mount point. */
static pid_t mount_pid(const char *s)
{
	const char *p = strstr(s, TRACE_MNT_PREFIX);
	if (!p)
		return 0;
	p += strlen(TRACE_MNT_PREFIX);
	char *end;
	long pid = strtol(p, &end, 10);
	return end != p && *end == '-' && pid > 0 ? (pid_t)pid : 0;
}

static void cleanup_action(json_t *actions, const char *action, const char *what, const char *path, int pid,
			   const char *error)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:s}", "action", action, "what", what, "path", path, "from", "orphan");
	if (pid > 0)
		json_object_set_new(o, "owner_pid", json_integer(pid));
	if (error)
		json_object_set_new(o, "error", json_string(error));
	json_array_append_new(actions, o);
}

static int cleanup_mounts(json_t *actions)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], mnt[1024];
	int failed = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "tracefs ", 8) ||
		    sscanf(line, "%*s %*s %*s %*s %1023s", mnt) != 1)
			continue;
		pid_t pid = mount_pid(mnt);
		if (!pid || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		int e = umount2(mnt, MNT_DETACH) < 0 ? errno : 0;
		if (!e)
			rmdir(mnt);
		cleanup_action(actions, e ? "failed" : "unmounted", "tracefs", mnt, pid, e ? strerror(e) : NULL);
		failed |= e != 0;
	}
	fclose(f);
	return failed ? -1 : 0;
}

static int cleanup_instances(int ifd, json_t *actions)
{
	DIR *d = fdopendir(ifd);
	struct dirent *de;
	int failed = 0;
	if (!d) {
		close(ifd);
		return 0;
	}
	while ((de = readdir(d))) {
		struct owner o = { 0 };
		int seq;
		if (owner_name_parse(de->d_name, NULL, &o, &seq) < 0 || owner_alive(&o))
			continue;
		/* Removing an instance turns its events off and frees its
		 * buffer; the host's own tracing settings were never touched. */
		char *path = xasprintf("instances/%s", de->d_name);
		int e = unlinkat(ifd, de->d_name, AT_REMOVEDIR) < 0 ? errno : 0;
		cleanup_action(actions, e ? "failed" : "removed", "tracing instance", path, o.pid, e ? strerror(e) : NULL);
		failed |= e != 0;
		free(path);
	}
	closedir(d);
	return failed ? -1 : 0;
}

int trace_cleanup_report(json_t *actions)
{
	int rc = cleanup_mounts(actions);
	if (perf_cleanup_report(actions) < 0)
		rc = -1;
	if (!vmr_is_root())
		return rc;
	int fd = tracefs_open();
	if (fd < 0)
		return rc; /* no tracefs: nothing of ours can be there */
	int ifd = openat(fd, "instances", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ifd >= 0 && cleanup_instances(ifd, actions) < 0)
		rc = -1;
	close(fd);
	return rc;
}
