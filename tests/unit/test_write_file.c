/* vmr_write_file, the one way vmregress writes the kernel's files: an
 * error of open, of the write or of close is the result.  Knobs and zram
 * were once written by copies that ignored close(), where a file may
 * refuse the value it was given (a network or FUSE file reports a failed
 * flush only there).  No file of /proc or /sys fails at close, so close()
 * itself is made to fail here: this program's close() is the one the
 * library calls, and it fails the next close when told to, after closing
 * the file for real. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/util.h"
#include "t.h"

static int fail_next_close;

int close(int fd)
{
	long r = syscall(SYS_close, fd);
	if (r == 0 && fail_next_close) {
		fail_next_close = 0;
		errno = EIO;
		return -1;
	}
	return (int)r;
}

int main(void)
{
	char path[] = "/tmp/vmr-write-XXXXXX", *text = NULL;
	int fd = mkstemp(path);
	CHECK(fd >= 0, "a scratch file");
	syscall(SYS_close, fd);

	CHECK(vmr_write_file(path, "42") == 0, "a write that open, write and close take is 0");
	CHECK(vmr_read_file(path, &text, NULL) == 0 && !strcmp(text, "42"), "and the file holds it");
	free(text);

	fail_next_close = 1;
	int r = vmr_write_file(path, "7");
	CHECK(r == -EIO, "a close that fails is the result: %d (want %d)", r, -EIO);
	CHECK(!fail_next_close, "(the write did close its file)");
	fail_next_close = 0;

	CHECK(vmr_write_file("/proc/sys/vm/no-such-knob", "1") == -ENOENT, "a missing file is -ENOENT");
	/* The kernel refuses a value at write: a real knob, left as it was. */
	if (access("/proc/sys/vm/swappiness", W_OK) == 0)
		CHECK(vmr_write_file("/proc/sys/vm/swappiness", "not-a-number") == -EINVAL,
		      "a value the kernel refuses at write is -EINVAL");
	else
		SKIP_WHY("a value the kernel refuses at write", "/proc/sys/vm/swappiness is not writable (needs root)");
	unlink(path);
	T_DONE();
}
