#include "sandbox/undo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/cgroup.h"
#include "sandbox/journal.h"
#include "sandbox/knobs.h"
#include "sandbox/swap.h"

static void undo_cat(char *buf, size_t len, size_t *at, const char *s)
{
	size_t n = strlen(s);
	if (*at + n > len)
		n = len - *at;
	memcpy(buf + *at, s, n);
	*at += n;
}

void undo_say(const char *first, ...)
{
	char buf[1024];
	size_t at = 0;
	va_list ap;
	undo_cat(buf, sizeof(buf) - 1, &at, "vmregress: ");
	va_start(ap, first);
	for (const char *s = first; s; s = va_arg(ap, const char *))
		undo_cat(buf, sizeof(buf) - 1, &at, s);
	va_end(ap);
	buf[at++] = '\n';
	ssize_t w = write(STDERR_FILENO, buf, at);
	(void)w;
}

/* "/dev/zramN" without snprintf. */
static void undo_zram_dev(char *dev, int id)
{
	char num[12];
	int n = 0, v = id < 0 ? 0 : id;
	do {
		num[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && n < 10);
	memcpy(dev, "/dev/zram", 9);
	for (int i = 0; i < n; i++)
		dev[9 + i] = num[n - 1 - i];
	dev[9 + n] = '\0';
}

static const char *undo_errstr(int e)
{
	switch (e) {
	case EBUSY: return "device or resource busy";
	case EACCES: return "permission denied";
	case EPERM: return "operation not permitted";
	case ENOMEM: return "out of memory";
	case EINVAL: return "invalid argument";
	case ENOTDIR: return "not a cgroup directory";
	default: return "system error";
	}
}

/* N of "/dev/zramN" (the journal checked the digits). */
static int undo_zram_id(const char *dev)
{
	int id = 0;
	for (const char *p = dev + 9; *p >= '0' && *p <= '9'; p++)
		id = id * 10 + (*p - '0');
	return id;
}

/* The header page of a zram device, read without allocating. */
static char undo_page[65536];
static size_t undo_page_size = 4096;

void undo_init(void)
{
	undo_page_size = (size_t)sysconf(_SC_PAGESIZE);
}

/* Reset a reused zram device only while it still carries our own header:
 * a device someone else took meanwhile is left alone. */
static bool undo_zram_ours(int id, const struct owner *owner)
{
	char dev[32];
	undo_zram_dev(dev, id);
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t ps = undo_page_size;
	if (ps > sizeof(undo_page))
		ps = sizeof(undo_page);
	ssize_t r = pread(fd, undo_page, ps, 0);
	close(fd);
	struct swap_tag tag = { 0 };
	return r == (ssize_t)ps && swap_header_parse(undo_page, ps, &tag, NULL) == 1 && tag.owner.pid == owner->pid &&
	       tag.owner.start == owner->start;
}

/* A device id is ours to reset only while we live and hot-added it (no one
 * else can hold that id meanwhile), or while it carries our header.  After
 * our death another cleanup may have removed it and someone else may have
 * been given the same id since. */
static bool undo_zram_trusted(int id, bool added, const struct owner *owner)
{
	if (added && owner->pid == (int)getpid())
		return true;
	return undo_zram_ours(id, owner);
}

static int undo_zram(const struct jrec *r, const struct owner *owner, char *dev)
{
	undo_zram_dev(dev, r->id);
	bool added = !strcmp(r->value, "added");
	if (!undo_zram_trusted(r->id, added, owner))
		return 0;
	int e = swap_off(dev);
	if (e == 0)
		e = zram_release(r->id, added);
	/* the device is reset and its memory freed; a kernel that now refuses
	 * the old algorithm's name (its module gone) is told, not retried */
	if (e == 0 && !strncmp(r->value, "reused:", 7) && zram_set_algo(r->id, r->value + 7) < 0)
		undo_say("warning: cannot put back ", dev, "'s compression algorithm ", r->value + 7, NULL);
	return e;
}

/* A swap file is ours to remove when its header names us, or when it is
 * empty (its making was cut short before the header, which
 * swap_file_create writes first).  A file of that name that someone else
 * made stays. */
static bool undo_swapfile_ours(const char *path, const struct owner *owner)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t ps = undo_page_size;
	if (ps > sizeof(undo_page))
		ps = sizeof(undo_page);
	ssize_t r = pread(fd, undo_page, ps, 0);
	close(fd);
	struct swap_tag tag = { 0 };
	if (r == 0)
		return true;
	return r == (ssize_t)ps && swap_header_parse(undo_page, ps, &tag, NULL) == 1 && tag.owner.pid == owner->pid &&
	       tag.owner.start == owner->start;
}

int undo_rec(const struct jrec *r, const struct owner *owner)
{
	int e = 0;
	const char *what = "", *name = r->path;
	char dev[32];
	switch (r->type) {
	case JREC_KNOB: {
		const struct knob *k = knob_find(r->path);
		what = "cannot restore knob ";
		e = k ? vmr_write_file(k->path, r->value) : -EINVAL;
		if (e == -ENOENT)
			e = 0;
		break;
	}
	case JREC_SWAPON:
		what = "cannot swapoff ";
		if (!strncmp(r->path, "/dev/zram", 9) && owner->pid != (int)getpid() &&
		    !undo_zram_ours(undo_zram_id(r->path), owner))
			break;  /* not the device we set up any more */
		e = swap_off(r->path);
		break;
	case JREC_SWAPFILE:
		what = "cannot remove swap file ";
		if (!undo_swapfile_ours(r->path, owner))
			break;  /* gone, or not the file we made */
		e = swap_off(r->path);
		if (e == 0 && unlink(r->path) < 0 && errno != ENOENT)
			e = -errno;
		break;
	case JREC_ZRAM:
		what = "cannot reset zram device ";
		e = undo_zram(r, owner, dev);
		name = dev;
		break;
	case JREC_CGROUP:
		what = "cannot remove cgroup ";
		e = cgroup_remove(r->path);
		break;
	case JREC_KINDS:
		break;
	}
	const struct jrec_kind *k = journal_kind(r->type);
	if (k) {
		what = k->cannot;
		name = "";
		e = k->undo(r->id, r->value);
	}
	if (e < 0)
		undo_say(what, name, ": ", undo_errstr(-e), NULL);
	return e;
}
