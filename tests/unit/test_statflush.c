/* The statistics reader's life cycle (src/sandbox/statflush.c): it reads
 * DIR/memory.stat every interval, stops promptly, and a forked child that
 * stops its copy neither hangs nor stops the parent's reader.  What the
 * reads do to a real cgroup is tests/cli/test_sandbox_statflush.sh's job;
 * the reader is a child process, so that this one stays single-threaded;
 * here the file is a plain one in a temporary directory. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/statflush.h"
#include "t.h"

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Threads of this process. */
static int threads(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/task");
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* Live child processes of this one named vmr-statflush. */
static int readers(void)
{
	int n = 0;
	DIR *d = opendir("/proc");
	for (struct dirent *e; d && (e = readdir(d));) {
		char path[300], buf[512];
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		FILE *fp = e->d_name[0] >= '1' && e->d_name[0] <= '9' ? fopen(path, "r") : NULL;
		if (!fp)
			continue;
		char *l = fgets(buf, sizeof(buf), fp);
		fclose(fp);
		char *close = l ? strrchr(l, ')') : NULL;
		char state;
		int ppid;
		if (close && strstr(l, "(vmr-statflush)") && sscanf(close + 1, " %c %d", &state, &ppid) == 2 &&
		    ppid == getpid() && state != 'Z')
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* Wait up to 2 s for the reader to have read more than after times. */
static uint64_t wait_reads(const struct statflush *f, uint64_t after)
{
	for (int i = 0; i < 200 && statflush_reads(f) <= after; i++)
		nap_ms(10);
	return statflush_reads(f);
}

int main(void)
{
	char dir[] = "/tmp/vmr-statflush-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char *stat = xasprintf("%s/memory.stat", dir);
	FILE *fp = fopen(stat, "w");
	fputs("cache 0\nrss 4096\n", fp);
	fclose(fp);

	CHECK(statflush_start(dir, 0) == NULL, "interval 0: no reader");
	statflush_stop(NULL);  /* what sandbox_close does then */

	struct statflush *f = statflush_start(dir, 2000000);  /* 2ms */
	CHECK(f != NULL, "a 2ms reader starts");
	CHECK(wait_reads(f, 2) > 2, "it reads memory.stat again and again");
	CHECK(threads() == 1, "no thread beside this one: forks here stay safe (%d)", threads());
	CHECK(readers() == 1, "the reader is a child process named vmr-statflush");

	pid_t pid = fork();
	if (pid == 0) {
		statflush_stop(f);  /* the child's copy: must not wait for a thread it lacks */
		_exit(0);
	}
	int status = -1;
	for (int i = 0; i < 200 && waitpid(pid, &status, WNOHANG) == 0; i++)
		nap_ms(10);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a forked child stops its copy at once");
	uint64_t n = statflush_reads(f);
	CHECK(wait_reads(f, n) > n, "the parent's reader still runs after the child stopped its copy");

	uint64_t t0 = vmr_now_ns();
	statflush_stop(f);
	CHECK(vmr_now_ns() - t0 < 1000000000ULL, "stop returns promptly");
	CHECK(readers() == 0 && waitpid(-1, NULL, WNOHANG) < 0, "and the reader is gone, reaped");

	f = statflush_start(dir, 10000000000ULL);  /* 10s: stop must not wait it out */
	t0 = vmr_now_ns();
	statflush_stop(f);
	CHECK(vmr_now_ns() - t0 < 1000000000ULL, "stop interrupts a long interval");

	unlink(stat);
	struct statflush *g = statflush_start(dir, 2000000);
	nap_ms(20);
	CHECK(statflush_reads(g) == 0, "a missing memory.stat is not counted as read");
	statflush_stop(g);

	free(stat);
	rmdir(dir);
	T_DONE();
}
