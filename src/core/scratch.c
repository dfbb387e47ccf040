#include "core/scratch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/owner.h"
#include "core/util.h"

#define SCRATCH_MAX 8

/* What the signal handler removes: a slot is filled before it is marked
 * used, and marked unused before it is reused. */
static struct {
	char path[PATH_MAX];
	pid_t pid;
	volatile int used;
} scratch_dirs[SCRATCH_MAX];

const char *scratch_base(void)
{
	const char *base = getenv("TMPDIR");
	return base && *base ? base : "/var/tmp";
}

static void scratch_register(const char *path)
{
	for (int i = 0; i < SCRATCH_MAX; i++) {
		if (__atomic_load_n(&scratch_dirs[i].used, __ATOMIC_SEQ_CST))
			continue;
		snprintf(scratch_dirs[i].path, sizeof(scratch_dirs[i].path), "%s", path);
		scratch_dirs[i].pid = getpid();
		__atomic_store_n(&scratch_dirs[i].used, 1, __ATOMIC_SEQ_CST);
		return;
	}
	/* more than SCRATCH_MAX at once: a signal leaves this one to cleanup */
}

static void scratch_forget(const char *path)
{
	for (int i = 0; i < SCRATCH_MAX; i++)
		if (scratch_dirs[i].used && scratch_dirs[i].pid == getpid() && !strcmp(scratch_dirs[i].path, path))
			__atomic_store_n(&scratch_dirs[i].used, 0, __ATOMIC_SEQ_CST);
}

char *scratch_make(const char *kind)
{
	struct owner me = { 0 };
	owner_self(&me);  /* (start 0 if /proc is unreadable: then liveness goes by the name) */
	char *dir = kind ? xasprintf("%s/vmregress-%s-%d-%llu-XXXXXX", scratch_base(), kind, me.pid, me.start)
			 : xasprintf("%s/vmregress-%d-%llu-XXXXXX", scratch_base(), me.pid, me.start);
	if (!mkdtemp(dir)) {
		int e = errno;
		free(dir);
		errno = e;
		return NULL;
	}
	scratch_register(dir);
	return dir;
}

/* Unlink every entry of the directory open as dfd: getdents64, so that the
 * signal handler can use it (opendir allocates). */
static void scratch_empty(int dfd)
{
	char buf[4096] __attribute__((aligned(8))) = { 0 };
	for (;;) {
		long n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));
		if (n <= 0)
			return;
		bool removed = false;
		for (long at = 0; at < n;) {
			/* struct linux_dirent64: ino, off, reclen, type, name */
			unsigned short reclen = 0;
			memcpy(&reclen, buf + at + 16, sizeof(reclen));
			const char *name = buf + at + 19;
			if (strcmp(name, ".") && strcmp(name, "..") && unlinkat(dfd, name, 0) == 0)
				removed = true;
			at += reclen;
		}
		if (removed)
			lseek(dfd, 0, SEEK_SET);  /* the offsets moved under us */
	}
}

/* Remove dir and its files; async-signal-safe.  0 or -errno. */
static int scratch_rmtree(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0 : -errno;
	scratch_empty(dfd);
	close(dfd);
	return rmdir(dir) < 0 && errno != ENOENT ? -errno : 0;
}

int scratch_remove(const char *dir)
{
	if (!dir)
		return 0;
	scratch_forget(dir);
	return scratch_rmtree(dir);
}

void scratch_remove_all(void)
{
	for (int i = 0; i < SCRATCH_MAX; i++)
		if (__atomic_load_n(&scratch_dirs[i].used, __ATOMIC_SEQ_CST) && scratch_dirs[i].pid == getpid()) {
			scratch_rmtree(scratch_dirs[i].path);
			scratch_dirs[i].used = 0;
		}
}

/* True when the owner named by a scratch directory is alive: by PID and
 * start time (as the journal's names), or without a start time (names made
 * before they held one, or start 0), a live process whose name begins
 * "vmregress". */
static bool scratch_owner_alive(const struct owner *o)
{
	if (o->start)
		return owner_alive(o);
	char *comm = NULL, *path = xasprintf("/proc/%d/comm", o->pid);
	bool alive = vmr_read_line(path, &comm) == 0 && !strncmp(comm, "vmregress", 9);
	free(path);
	free(comm);
	return alive;
}

/* The owner of a scratch directory's name: "vmregress-[KIND-]PID-START-XXXXXX"
 * (or "vmregress-[KIND-]PID-XXXXXX" before the start time was in it), KIND
 * lowercase letters.  0 or -1. */
static int scratch_name_owner(const char *name, struct owner *o)
{
	const char *p = name;
	unsigned long long pid = 0, start = 0;
	if (strncmp(p, "vmregress-", 10))
		return -1;
	p += 10;
	if (*p >= 'a' && *p <= 'z') {
		while (*p >= 'a' && *p <= 'z')
			p++;
		if (*p++ != '-')
			return -1;
	}
	if (*p == '0' || owner_number(&p, &pid) < 0 || *p++ != '-' || pid > INT_MAX)
		return -1;
	const char *q = p;  /* START- , when the rest is more than mkdtemp's six characters */
	if (strlen(p) != 6 && (owner_number(&q, &start) < 0 || *q++ != '-'))
		return -1;
	if (strlen(p) != 6)
		p = q;
	if (strlen(p) != 6 || strchr(p, '-'))
		return -1;
	o->pid = (int)pid;
	o->start = start;
	return 0;
}

int scratch_cleanup(void (*said)(void *ctx, const char *path, long pid, int err), void *ctx)
{
	const char *base = scratch_base();
	DIR *d = opendir(base);
	int n = 0;
	if (!d)
		return 0;
	struct dirent *e = NULL;
	while ((e = readdir(d))) {
		struct owner o = { 0 };
		struct stat st = { 0 };
		if (scratch_name_owner(e->d_name, &o) < 0 || o.pid == (int)getpid() || scratch_owner_alive(&o) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		char *dir = xasprintf("%s/%s", base, e->d_name);
		int err = scratch_rmtree(dir);
		n += err == 0;
		if (said)
			said(ctx, dir, o.pid, err);
		free(dir);
	}
	closedir(d);
	return n;
}
