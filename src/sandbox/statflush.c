#include "sandbox/statflush.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/signals.h"
#include "core/util.h"

struct statflush {
	pid_t owner;            /* the process that started the reader */
	pid_t reader;           /* the reader process */
	int stop_fd;            /* write end: a byte (or its closing) stops the reader */
	uint64_t *reads;        /* shared with the reader (MAP_SHARED) */
};

/* One read of memory.stat: the kernel flushes the cgroup's statistics
 * before it formats them.  The text itself is not needed. */
static void statflush_read(const char *path, uint64_t *reads)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	__atomic_add_fetch(reads, 1, __ATOMIC_RELAXED);
}

/* The reader process: system calls only, until a byte or EOF on rfd (the
 * owner stopped it or died), or the owner's death (PR_SET_PDEATHSIG). */
static __attribute__((noreturn)) void statflush_reader(const char *path, uint64_t interval_ns, int rfd,
							pid_t owner, uint64_t *reads)
{
	prctl(PR_SET_NAME, "vmr-statflush");   /* for ps and the tests */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != owner)
		_exit(0);
	/* Ctrl-C goes to the process group: the owner decides when to stop */
	int sigs[SIGNALS_MAX] = { 0 };
	for (size_t i = 0, n = signals_fatal(sigs); i < n; i++)
		signal(sigs[i], SIG_IGN);
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	if (rfd != 3) {
		dup2(rfd, 3);
		rfd = 3;
	}
	close_range(4, ~0U, 0);   /* no pipes, locks or stores of the owner's */
	struct timespec ts = { (time_t)(interval_ns / 1000000000ULL), (long)(interval_ns % 1000000000ULL) };
	struct pollfd p = { .fd = rfd, .events = POLLIN };
	for (;;) {
		int n = ppoll(&p, 1, &ts, NULL);
		if (n > 0 || (n < 0 && errno != EINTR))
			_exit(0);
		statflush_read(path, reads);
	}
}

struct statflush *statflush_start(const char *cgroup_dir, uint64_t interval_ns)
{
	if (!interval_ns)
		return NULL;
	char path[320];
	if (snprintf(path, sizeof(path), "%s/memory.stat", cgroup_dir) >= (int)sizeof(path)) {
		vmr_err("sandbox: cgroup path %s is too long", cgroup_dir);
		return NULL;
	}
	struct statflush *f = xcalloc(1, sizeof(*f));
	f->owner = getpid();
	f->reads = mmap(NULL, sizeof(*f->reads), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (f->reads == MAP_FAILED) {
		vmr_errno("sandbox: cannot map the statistics reader's counter");
		goto free_f;
	}
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		vmr_errno("sandbox: cannot make a pipe for the statistics reader");
		goto unmap;
	}
	fflush(NULL);
	f->reader = fork();
	if (f->reader < 0) {
		vmr_errno("sandbox: cannot start the statistics reader");
		close(fds[0]);
		close(fds[1]);
		goto unmap;
	}
	if (f->reader == 0) {
		/* the reader needs only the counter: its copy of f goes, so
		 * that a leak checker following the fork sees nothing lost */
		uint64_t *reads = f->reads;
		pid_t owner = f->owner;
		free(f);
		close(fds[1]);
		statflush_reader(path, interval_ns, fds[0], owner, reads);
	}
	close(fds[0]);
	f->stop_fd = fds[1];
	return f;
unmap:
	munmap(f->reads, sizeof(*f->reads));
free_f:
	free(f);
	return NULL;
}

void statflush_stop(struct statflush *f)
{
	if (!f)
		return;
	if (f->owner == getpid()) {
		/* a byte, as forked children may still hold the write end */
		char c = 0;
		ssize_t w = write(f->stop_fd, &c, 1);
		(void)w;
		close(f->stop_fd);
		while (waitpid(f->reader, NULL, 0) < 0 && errno == EINTR)
			;
	} else {
		close(f->stop_fd);
	}
	munmap(f->reads, sizeof(*f->reads));
	free(f);
}

uint64_t statflush_reads(const struct statflush *f)
{
	return f ? __atomic_load_n(f->reads, __ATOMIC_RELAXED) : 0;
}
