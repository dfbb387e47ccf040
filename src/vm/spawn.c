/* Running helper programs: see spawn.h. */
#include "vm/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"

static int spawn_redirect(const char *path, int fd, int flags)
{
	int f = open(path ? path : "/dev/null", flags | O_CLOEXEC, 0644);
	if (f < 0)
		return -1;
	if (dup2(f, fd) < 0)
		return -1;
	close(f);
	return 0;
}

int spawn_wait(char *const argv[], const char *cwd, const char *out_path, const char *err_path)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (spawn_redirect(NULL, 0, O_RDONLY) < 0 ||
		    spawn_redirect(out_path, 1, O_WRONLY | O_CREAT | O_TRUNC) < 0 ||
		    spawn_redirect(err_path, 2, O_WRONLY | O_CREAT | O_TRUNC) < 0 ||
		    (cwd && chdir(cwd) < 0))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

pid_t spawn_piped(char *const argv[], int *out_fd)
{
	int p[2];
	pid_t parent = getpid(), pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		if (spawn_redirect(NULL, 0, O_RDONLY) < 0 || dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	*out_fd = p[0];
	return pid;
}
