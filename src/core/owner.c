#include "core/owner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int owner_proc_start(int pid, unsigned long long *start)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	int e = n < 0 ? errno : 0;
	close(fd);
	if (n <= 0)
		return e ? -e : -EIO;
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: fields restart after the last ')' */
	char *p = strrchr(buf, ')');
	if (!p)
		return -EIO;
	p++;
	for (int field = 3; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EIO;
	}
	char *end;
	errno = 0;
	*start = strtoull(p + 1, &end, 10);
	return errno || end == p + 1 ? -EIO : 0;
}

int owner_self(struct owner *o)
{
	o->pid = (int)getpid();
	return owner_proc_start(o->pid, &o->start);
}

bool owner_alive(const struct owner *o)
{
	unsigned long long start;
	if (o->pid <= 0 || owner_proc_start(o->pid, &start) < 0)
		return false;
	return start == o->start;
}

char *owner_name(char *buf, size_t len, const struct owner *o, int seq)
{
	snprintf(buf, len, "vmregress-%d-%llu-%d", o->pid, o->start, seq);
	return buf;
}

int owner_number(const char **p, unsigned long long *v)
{
	const char *s = *p;
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long long n = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (n > (ULLONG_MAX - 9) / 10)
			return -1;
		n = n * 10 + (unsigned)(*s - '0');
	}
	*v = n;
	*p = s;
	return 0;
}

int owner_name_parse(const char *name, const char *suffix, struct owner *o, int *seq)
{
	static const char prefix[] = "vmregress-";
	unsigned long long pid, start, sq;
	if (strncmp(name, prefix, sizeof(prefix) - 1))
		return -1;
	const char *p = name + sizeof(prefix) - 1;
	if (owner_number(&p, &pid) < 0 || *p++ != '-' || owner_number(&p, &start) < 0 ||
	    *p++ != '-' || owner_number(&p, &sq) < 0)
		return -1;
	if (strcmp(p, suffix ? suffix : ""))
		return -1;
	if (pid == 0 || pid > 0x3fffffff || sq > 0xffffff)
		return -1;
	o->pid = (int)pid;
	o->start = start;
	*seq = (int)sq;
	return 0;
}
