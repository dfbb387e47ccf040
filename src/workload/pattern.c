#include "workload/pattern.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include "core/util.h"

uint64_t pattern_salt(void)
{
	uint64_t s = 0;
	if (getrandom(&s, sizeof(s), GRND_NONBLOCK) != (ssize_t)sizeof(s))
		s = vmr_now_ns() ^ ((uint64_t)getpid() << 40);
	return s;
}

int pattern_corrupt(void *addr)
{
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	uint64_t junk = 0xdeadbeefbadc0ffeull;
	ssize_t n = pwrite(fd, &junk, sizeof(junk), (off_t)(uintptr_t)addr);
	int err = n == (ssize_t)sizeof(junk) ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return err;
}
