/* Running helper programs (apt-get, dpkg-deb, xz, qemu) for the matrix. */
#ifndef VMR_SPAWN_H
#define VMR_SPAWN_H

#include <sys/types.h>

/* Run argv (argv[0] looked up in PATH) in directory cwd (NULL: ours) with
 * stdin from /dev/null, stdout to out_path (NULL: /dev/null) and stderr to
 * err_path (NULL: /dev/null).  Returns the exit status, 128+signal when
 * killed, or -1 when it could not be started (errno set). */
int spawn_wait(char *const argv[], const char *cwd, const char *out_path, const char *err_path);

/* Start argv with stdin from /dev/null and stdout and stderr into a new
 * pipe whose read end is returned in *out_fd.  The child dies with us
 * (PR_SET_PDEATHSIG).  Returns its pid, or -1 (errno set). */
pid_t spawn_piped(char *const argv[], int *out_fd);

#endif
