/* forkexec [PROGRAM]: the reference for a harness's fixed cost: fork, exec
 * PROGRAM (default /bin/true), wait, and exit with its status. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *prog = argc > 1 ? argv[1] : "/bin/true";
	int st = 0;
	pid_t pid = fork();
	if (pid < 0)
		return 3;
	if (pid == 0) {
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return 3;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
