/* Finding tracefs and the events vmregress traces: see tracefs.h. */
#include "trace/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "core/util.h"
#include "trace/trace.h"

/* ---- the events wanted, by role ---- */

#define CANDS(...) ((const char *const[]){ __VA_ARGS__, NULL })

const struct trace_event_want trace_wants[] = {
	{ "direct-reclaim-begin", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_direct_reclaim_begin") },
	{ "direct-reclaim-end", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_direct_reclaim_end") },
	{ "memcg-reclaim-begin", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_memcg_reclaim_begin") },
	{ "memcg-reclaim-end", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_memcg_reclaim_end") },
	{ "kswapd-wake", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_kswapd_wake") },
	{ "kswapd-sleep", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_kswapd_sleep") },
	{ "wakeup-kswapd", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_wakeup_kswapd") },
	{ "lru-shrink-inactive", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_lru_shrink_inactive") },
	{ "writeback", TRACE_RECLAIM, CANDS("vmscan/mm_vmscan_write_folio", "vmscan/mm_vmscan_writepage") },
	/* Not exceptions/page_fault_user: an event per fault costs more than
	 * the fault, and perf's page-fault counters (--profile) count them. */
	{ "filemap-add", TRACE_FAULTS, CANDS("filemap/mm_filemap_add_to_page_cache") },
	{ "filemap-delete", TRACE_FAULTS, CANDS("filemap/mm_filemap_delete_from_page_cache") },
	{ "filemap-fault", TRACE_FAULTS, CANDS("filemap/mm_filemap_fault") },
	{ "compaction-begin", TRACE_COMPACTION, CANDS("compaction/mm_compaction_begin") },
	{ "compaction-end", TRACE_COMPACTION, CANDS("compaction/mm_compaction_end") },
	{ "direct-compaction", TRACE_COMPACTION, CANDS("compaction/mm_compaction_try_to_compact_pages") },
	{ "kcompactd-wake", TRACE_COMPACTION, CANDS("compaction/mm_compaction_kcompactd_wake") },
};

const size_t trace_nwants = ARRAY_SIZE(trace_wants);

struct trace_resolved *trace_resolve_events(int events_dirfd, unsigned kinds, size_t *n)
{
	struct trace_resolved *r = xcalloc(ARRAY_SIZE(trace_wants), sizeof(*r));
	size_t k = 0;
	for (size_t i = 0; i < ARRAY_SIZE(trace_wants); i++) {
		const struct trace_event_want *w = &trace_wants[i];
		if (!(w->kind & kinds))
			continue;
		r[k].role = w->role;
		for (const char *const *c = w->cands; *c && !r[k].event; c++) {
			char *enable = xasprintf("%s/enable", *c);
			if (faccessat(events_dirfd, enable, W_OK, 0) == 0)
				r[k].event = *c;
			free(enable);
		}
		if (!r[k].event) {
			size_t len = 0;
			for (const char *const *c = w->cands; *c; c++)
				len += strlen(*c) + 4;
			char *list = xcalloc(1, len + 1);
			for (const char *const *c = w->cands; *c; c++) {
				if (c != w->cands)
					strcat(list, " or ");
				strcat(list, *c);
			}
			r[k].reason = xasprintf("no tracepoint %s on this kernel", list);
			free(list);
		}
		k++;
	}
	*n = k;
	return r;
}

void trace_resolved_free(struct trace_resolved *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		free(r[i].reason);
	free(r);
}

/* ---- finding tracefs ---- */

/* The mount point of a tracefs already mounted, or NULL. */
static char *tracefs_find_mounted(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], *found = NULL;
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mountpoint opts... - fstype source super */
		char *sep = strstr(line, " - ");
		char mnt[1024];
		if (!sep || strncmp(sep + 3, "tracefs ", 8))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %1023s", mnt) == 1 && !strstr(mnt, TRACE_MNT_PREFIX))
			found = xstrdup(mnt);
	}
	fclose(f);
	return found;
}

/* Mount tracefs on a private directory, keep a descriptor of it, and detach
 * it at once: the mount lives as long as the descriptor and is never
 * visible in the host's mount table afterwards, whatever happens to us. */
static int tracefs_mount_detached(void)
{
	char *dir = xasprintf("/tmp/" TRACE_MNT_PREFIX "%d-XXXXXX", (int)getpid());
	int fd = -1;
	if (!mkdtemp(dir))
		goto free_dir;
	if (mount("nodev", dir, "tracefs", 0, NULL) < 0)
		goto rm_dir;
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	umount2(dir, MNT_DETACH);
rm_dir:
	rmdir(dir);
free_dir:
	free(dir);
	return fd;
}

/* A descriptor of tracefs's root, or -1 with errno set. */
int tracefs_open(void)
{
	char *mnt = tracefs_find_mounted();
	if (mnt) {
		int fd = open(mnt, O_PATH | O_DIRECTORY | O_CLOEXEC);
		free(mnt);
		if (fd >= 0 && faccessat(fd, "instances", F_OK, 0) == 0)
			return fd;
		if (fd >= 0)
			close(fd);
	}
	return tracefs_mount_detached();
}

/* ---- reading and writing tracefs files ---- */

int tracefs_read(int dirfd, const char *path, char **out)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t cap = 4096, len = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (len + 1 >= cap)
			buf = xrealloc(buf, cap *= 2);
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = -errno;
			close(fd);
			free(buf);
			return e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*out = buf;
	return 0;
}

int tracefs_write(int dirfd, const char *path, const char *val, bool append)
{
	int fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return -errno;
	size_t len = strlen(val);
	ssize_t n = write(fd, val, len);
	int e = n < 0 ? -errno : (size_t)n == len ? 0 : -EIO;
	close(fd);
	return e;
}
