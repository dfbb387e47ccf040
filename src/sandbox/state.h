/* Where vmregress keeps its journals and swap files: a root-owned directory
 * (default /var/lib/vmregress, VMREGRESS_STATE_DIR to choose), mode 0700,
 * never a symbolic link, with swap files in its "swap" subdirectory. */
#ifndef VMR_STATE_H
#define VMR_STATE_H

#include <stdbool.h>
#include <stddef.h>

#define STATE_DIR_DEFAULT "/var/lib/vmregress"

/* The state directory's path (not checked). */
const char *state_dir(void);
/* Check (and with create, make) the state directory and its swap
 * subdirectory.  Returns 0; 1 when it does not exist and create is false;
 * -1 after reporting a path that is unsafe (symlink, not a directory, not
 * owned by root, writable by others: exit 2); -2 after reporting a failure
 * to make it (exit 3). */
int state_prepare(bool create);
/* dir/swap, into buf. */
char *state_swap_dir(char *buf, size_t len);

#endif
