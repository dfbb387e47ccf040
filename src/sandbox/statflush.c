#include "sandbox/statflush.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"

struct statflush {
	pid_t pid;              /* the process whose thread it is */
	pthread_t thread;
	int stop_fd[2];         /* a byte on [1] (or its closing) stops the thread */
	uint64_t interval_ns;
	char path[320];         /* cgroup_dir/memory.stat */
	uint64_t reads;         /* atomic */
};

/* One read of memory.stat: the kernel flushes the cgroup's statistics
 * before it formats them.  The text itself is not needed. */
static void statflush_read(struct statflush *f)
{
	char buf[4096];
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	__atomic_add_fetch(&f->reads, 1, __ATOMIC_RELAXED);
}

static void *statflush_main(void *arg)
{
	struct statflush *f = arg;
	struct timespec ts = { (time_t)(f->interval_ns / 1000000000ULL), (long)(f->interval_ns % 1000000000ULL) };
	struct pollfd p = { .fd = f->stop_fd[0], .events = POLLIN };
	for (;;) {
		int n = ppoll(&p, 1, &ts, NULL);
		if (n > 0 || (n < 0 && errno != EINTR))
			break;
		statflush_read(f);
	}
	return NULL;
}

struct statflush *statflush_start(const char *cgroup_dir, uint64_t interval_ns)
{
	if (!interval_ns)
		return NULL;
	struct statflush *f = xcalloc(1, sizeof(*f));
	f->pid = getpid();
	f->interval_ns = interval_ns;
	if (snprintf(f->path, sizeof(f->path), "%s/memory.stat", cgroup_dir) >= (int)sizeof(f->path)) {
		vmr_err("sandbox: cgroup path %s is too long", cgroup_dir);
		goto free_f;
	}
	if (pipe2(f->stop_fd, O_CLOEXEC) < 0) {
		vmr_errno("sandbox: cannot make a pipe for the statistics reader");
		goto free_f;
	}
	/* the thread inherits a full mask: signals go to the main thread, whose
	 * handlers undo the sandbox */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(&f->thread, NULL, statflush_main, f);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		vmr_err("sandbox: cannot start the statistics reader: %s", strerror(e));
		goto close_pipe;
	}
	pthread_setname_np(f->thread, "vmr-statflush");  /* for ps -L and the tests */
	return f;
close_pipe:
	close(f->stop_fd[0]);
	close(f->stop_fd[1]);
free_f:
	free(f);
	return NULL;
}

void statflush_stop(struct statflush *f)
{
	if (!f)
		return;
	if (f->pid == getpid()) {
		char c = 0;
		ssize_t w = write(f->stop_fd[1], &c, 1);
		(void)w;
		pthread_join(f->thread, NULL);
	}
	close(f->stop_fd[0]);
	close(f->stop_fd[1]);
	free(f);
}

uint64_t statflush_reads(const struct statflush *f)
{
	return f ? __atomic_load_n(&f->reads, __ATOMIC_RELAXED) : 0;
}
