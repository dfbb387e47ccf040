#include "sandbox/swap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "core/units.h"
#include "core/util.h"
#include "probe/probe.h"
#include "probe/system.h"

/* union swap_header's info part, after the 1024 boot bytes */
struct swap_info_v1 {
	uint32_t version;
	uint32_t last_page;
	uint32_t nr_badpages;
	unsigned char uuid[16];
	char volume[16];
};

#define SWAP_MAGIC "SWAPSPACE2"
#define SWAP_INFO_OFF 1024
#define SWAP_TAG0 'v'
#define SWAP_TAG1 'm'
#define SWAP_TAG2 'r'

int swap_header_fill(void *page, size_t page_size, uint64_t bytes, const struct swap_tag *tag)
{
	uint64_t pages = bytes / page_size;
	if (page_size < 4096 || pages < SWAP_MIN_PAGES || pages - 1 > UINT32_MAX)
		return -1;
	memset(page, 0, page_size);
	struct swap_info_v1 info = { .version = 1, .last_page = (uint32_t)(pages - 1) };
	info.uuid[0] = SWAP_TAG0;
	info.uuid[1] = SWAP_TAG1;
	info.uuid[2] = SWAP_TAG2;
	info.uuid[3] = tag->added ? 1 : 0;
	uint32_t pid = (uint32_t)tag->owner.pid;
	uint64_t start = tag->owner.start;
	for (int i = 0; i < 4; i++)
		info.uuid[4 + i] = (unsigned char)(pid >> (8 * i));
	for (int i = 0; i < 8; i++)
		info.uuid[8 + i] = (unsigned char)(start >> (8 * i));
	memcpy(info.volume, SWAP_LABEL, sizeof(SWAP_LABEL));
	memcpy((char *)page + SWAP_INFO_OFF, &info, sizeof(info));
	memcpy((char *)page + page_size - 10, SWAP_MAGIC, 10);
	return 0;
}

int swap_header_parse(const void *page, size_t page_size, struct swap_tag *tag, uint64_t *last_page)
{
	struct swap_info_v1 info = { 0 };
	if (page_size < 4096 || memcmp((const char *)page + page_size - 10, SWAP_MAGIC, 10))
		return -1;
	memcpy(&info, (const char *)page + SWAP_INFO_OFF, sizeof(info));
	if (info.version != 1 || info.last_page < SWAP_MIN_PAGES - 1)
		return -1;
	if (last_page)
		*last_page = info.last_page;
	if (memcmp(info.volume, SWAP_LABEL, sizeof(SWAP_LABEL)) || info.uuid[0] != SWAP_TAG0 ||
	    info.uuid[1] != SWAP_TAG1 || info.uuid[2] != SWAP_TAG2 || info.uuid[3] > 1)
		return 0;
	uint32_t pid = 0;
	uint64_t start = 0;
	for (int i = 3; i >= 0; i--)
		pid = pid << 8 | info.uuid[4 + i];
	for (int i = 7; i >= 0; i--)
		start = start << 8 | info.uuid[8 + i];
	if (pid == 0 || pid > 0x3fffffff)
		return 0;
	tag->owner.pid = (int)pid;
	tag->owner.start = start;
	tag->added = info.uuid[3] == 1;
	return 1;
}

int swap_spec_parse(const char *s, struct swap_spec *out, const char **why)
{
	memset(out, 0, sizeof(*out));
	if (!strcmp(s, "host")) {
		out->kind = SWAP_HOST;
		return 0;
	}
	if (!strcmp(s, "none")) {
		out->kind = SWAP_NONE;
		return 0;
	}
	const char *rest;
	if (!strncmp(s, "file", 4) && (s[4] == '\0' || s[4] == ':')) {
		out->kind = SWAP_FILE;
		rest = s + 4;
	} else if (!strncmp(s, "zram", 4) && (s[4] == '\0' || s[4] == ':')) {
		out->kind = SWAP_ZRAM;
		rest = s + 4;
	} else {
		*why = "is not file[:SIZE], zram[:SIZE[:ALGO]], host or none";
		return -1;
	}
	if (!*rest)
		return 0;
	rest++;
	char size[64];
	size_t n = strcspn(rest, ":");
	if (n >= sizeof(size)) {
		*why = "has a size that is too long";
		return -1;
	}
	memcpy(size, rest, n);
	size[n] = '\0';
	if (n && units_parse_size(size, &out->bytes, why) < 0)
		return -1;
	if (n && out->bytes == 0) {
		*why = "asks for a swap size of 0 (use --swap none)";
		return -1;
	}
	rest += n;
	if (!*rest)
		return 0;
	if (out->kind != SWAP_ZRAM) {
		*why = "takes only a size after file:";
		return -1;
	}
	rest++;
	size_t al = strlen(rest);
	if (al == 0 || al >= sizeof(out->algo) || strpbrk(rest, "/. :\n[]")) {
		*why = "names no valid compression algorithm";
		return -1;
	}
	memcpy(out->algo, rest, al + 1);
	return 0;
}

/* File systems whose swap files may be fallocate'd; others get zeros. */
static bool swap_fs_fallocate_ok(long type)
{
	return type == 0xEF53 /* ext2/3/4 */ || type == 0x58465342 /* xfs */;
}

/* File systems that cannot hold a swap file at all. */
static const char *swap_fs_refused(long type)
{
	switch (type) {
	case 0x01021994: return "tmpfs";
	case 0x858458f6: return "ramfs";
	case 0x794c7630: return "overlayfs";
	case 0x6969: return "nfs";
	default: return NULL;
	}
}

/* Zeros from byte from to bytes; the header page before it stays. */
static int swap_fill_zeros(int fd, uint64_t from, uint64_t bytes)
{
	size_t chunk = 1 << 20;
	char *z = xcalloc(1, chunk);
	int e = 0;
	for (uint64_t off = from; off < bytes && !e;) {
		size_t n = bytes - off < chunk ? (size_t)(bytes - off) : chunk;
		ssize_t w = pwrite(fd, z, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			e = w < 0 ? errno : EIO;
		else
			off += (uint64_t)w;
	}
	free(z);
	return -e;
}

int swap_file_create(const char *dir, const char *name, uint64_t bytes, const struct swap_tag *tag)
{
	size_t ps = vmr_page_size();
	bytes -= bytes % ps;
	char *page = xmalloc(ps);
	int rc = -2, dfd = -1, fd = -1;
	if (swap_header_fill(page, ps, bytes, tag) < 0) {
		vmr_err("--swap: a swap file of %llu bytes is too small or too large", (unsigned long long)bytes);
		rc = -1;
		goto free_page;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		vmr_errno("cannot open swap directory %s", dir);
		goto free_page;
	}
	fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		vmr_errno("cannot create swap file %s/%s", dir, name);
		goto close_dir;
	}
	struct statfs sf = { 0 };
	if (fstatfs(fd, &sf) < 0) {
		vmr_errno("cannot stat the file system of %s", dir);
		goto unlink_file;
	}
	const char *bad = swap_fs_refused(sf.f_type);
	if (bad) {
		vmr_err("cannot put a swap file in %s: %s cannot hold swap files", dir, bad);
		goto unlink_file;
	}
	int e = 0;
	if (fchmod(fd, 0600) < 0)
		e = -errno;
	/* the header first: from now on the file names its owner, so that an
	 * undo can tell it from a file of that name it did not make */
	if (!e && pwrite(fd, page, ps, 0) != (ssize_t)ps)
		e = errno ? -errno : -EIO;
	if (!e && swap_fs_fallocate_ok(sf.f_type))
		e = fallocate(fd, 0, 0, (off_t)bytes) < 0 ? -errno : 0;
	else if (!e)
		e = swap_fill_zeros(fd, ps, bytes);
	if (e == -EOPNOTSUPP)
		e = swap_fill_zeros(fd, ps, bytes);
	if (!e && fsync(fd) < 0)
		e = -errno;
	if (e) {
		vmr_err("cannot write swap file %s/%s: %s", dir, name, strerror(-e));
		goto unlink_file;
	}
	rc = 0;
	goto close_file;
unlink_file:
	unlinkat(dfd, name, 0);
close_file:
	close(fd);
close_dir:
	close(dfd);
free_page:
	free(page);
	return rc;
}

int swap_file_fill(const char *path, uint64_t bytes, const struct swap_tag *tag)
{
	size_t ps = vmr_page_size();
	bytes -= bytes % ps;
	char *page = xmalloc(ps);
	int e = swap_header_fill(page, ps, bytes, tag) < 0 ? -EINVAL : 0;
	int fd = e ? -1 : open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (!e && fd < 0)
		e = -errno;
	if (!e && pwrite(fd, page, ps, 0) != (ssize_t)ps)
		e = errno ? -errno : -EIO;
	if (!e)
		e = swap_fill_zeros(fd, ps, bytes);
	if (!e && fsync(fd) < 0)
		e = -errno;
	if (fd >= 0)
		close(fd);
	free(page);
	return e;
}

int swap_on(const char *path)
{
	int flags = SWAP_FLAG_PREFER | ((SWAP_PRIO_MAX << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
	return swapon(path, flags) < 0 ? -errno : 0;
}

int swap_off(const char *path)
{
	if (swapoff(path) == 0)
		return 0;
	/* EINVAL: not an active swap area; ENOENT: already gone */
	return errno == EINVAL || errno == ENOENT ? 0 : -errno;
}

bool swap_active(const char *path)
{
	char err[PROBE_ERR_MAX];
	json_t *swaps = system_read_swaps(err), *s;
	size_t i;
	bool found = false;
	json_array_foreach(swaps, i, s)
		found |= !strcmp(json_string_value(json_object_get(s, "path")), path);
	json_decref(swaps);
	return found;
}

/* zram */

/* Decimal digits of v into buf (async-signal-safe snprintf("%d")). */
static char *zram_itoa(char *buf, size_t len, int v)
{
	char *p = buf + len - 1;
	*p = '\0';
	unsigned u = v < 0 ? 0u : (unsigned)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u && p > buf);
	return p;
}

static void zram_path(char *out, size_t len, int id, const char *file)
{
	char num[16];
	const char *n = zram_itoa(num, sizeof(num), id);
	const char *parts[] = { "/sys/block/zram", n, "/", file };
	out[0] = '\0';
	size_t at = 0;
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		size_t l = strlen(parts[i]);
		if (at + l >= len)
			return;
		memcpy(out + at, parts[i], l + 1);
		at += l;
	}
}

int zram_hot_add(void)
{
	char *s;
	int r = vmr_read_line("/sys/class/zram-control/hot_add", &s);
	if (r < 0)
		return r;
	int id = atoi(s);
	free(s);
	return id;
}

int zram_find_free(int from)
{
	for (int id = from < 0 ? 0 : from; id < 256; id++) {
		char path[96];
		uint64_t size;
		zram_path(path, sizeof(path), id, "disksize");
		if (vmr_read_u64(path, &size) < 0)
			continue;
		char dev[32];
		snprintf(dev, sizeof(dev), "/dev/zram%d", id);
		if (size == 0 && !swap_active(dev))
			return id;
	}
	return -1;
}

static int zram_check_algo(int id, const char *algo)
{
	char path[96], *list = NULL;
	zram_path(path, sizeof(path), id, "comp_algorithm");
	if (vmr_read_line(path, &list) < 0) {
		vmr_errno("cannot read %s", path);
		return -2;
	}
	char *copy = xstrdup(list), *save = NULL;
	bool found = false;
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (*w == '[') {
			w++;
			w[strcspn(w, "]")] = '\0';
		}
		if (!strcmp(w, algo))
			found = true;
	}
	if (!found)
		vmr_err("--swap: zram compression algorithm '%s' is not one of: %s", algo, list);
	free(copy);
	free(list);
	return found ? 0 : -1;
}

/* After disksize is set nobody else can change the algorithm; check that
 * nobody did between our two writes. */
static bool zram_algo_is(int id, const char *algo)
{
	char path[96], *cur = NULL;
	zram_path(path, sizeof(path), id, "comp_algorithm");
	if (vmr_read_line(path, &cur) < 0)
		return false;
	char *open = strchr(cur, '['), *close = open ? strchr(open, ']') : NULL;
	bool same = open && close && (size_t)(close - open - 1) == strlen(algo) &&
		    !strncmp(open + 1, algo, strlen(algo));
	free(cur);
	return same;
}

int zram_setup(int id, uint64_t bytes, const char *algo, const struct swap_tag *tag, bool *taken)
{
	char path[96], dev[32], v[32];
	size_t ps = vmr_page_size();
	bytes -= bytes % ps;
	*taken = false;
	if (algo[0]) {
		int r = zram_check_algo(id, algo);
		if (r < 0)
			return r;
		zram_path(path, sizeof(path), id, "comp_algorithm");
		if ((r = vmr_write_file(path, algo)) < 0) {
			*taken = r == -EBUSY;
			if (!*taken)
				vmr_err("cannot set %s to '%s': %s", path, algo, strerror(-r));
			return -2;
		}
	}
	zram_path(path, sizeof(path), id, "disksize");
	snprintf(v, sizeof(v), "%llu", (unsigned long long)bytes);
	int r = vmr_write_file(path, v);
	if (r < 0) {
		*taken = r == -EBUSY;
		if (!*taken)
			vmr_err("cannot set %s to %s: %s", path, v, strerror(-r));
		return -2;
	}
	if (algo[0] && !zram_algo_is(id, algo)) {
		zram_release(id, false);
		*taken = true;
		return -2;
	}
	char *page = xmalloc(ps);
	if (swap_header_fill(page, ps, bytes, tag) < 0) {
		vmr_err("--swap: a zram device of %llu bytes is too small or too large", (unsigned long long)bytes);
		free(page);
		zram_release(id, false);
		return -1;
	}
	snprintf(dev, sizeof(dev), "/dev/zram%d", id);
	int fd = open(dev, O_WRONLY | O_EXCL | O_CLOEXEC);
	int e = fd < 0 ? -errno : 0;
	if (!e && pwrite(fd, page, ps, 0) != (ssize_t)ps)
		e = errno ? -errno : -EIO;
	if (!e && fsync(fd) < 0)
		e = -errno;
	if (fd >= 0)
		close(fd);
	free(page);
	if (e) {
		vmr_err("cannot write a swap header to %s: %s", dev, strerror(-e));
		zram_release(id, false);
		return -2;
	}
	return 0;
}

/* A device we hot-added goes straight to hot_remove, which resets it
 * itself (the kernel's zram_remove): a reset first did that work twice and
 * cost about 20 ms.  A device we reused, or one hot_remove refuses, is
 * reset, which frees its memory. */
int zram_release(int id, bool added)
{
	char path[96], num[16];
	int r = 0;
	if (added) {
		r = vmr_write_file("/sys/class/zram-control/hot_remove", zram_itoa(num, sizeof(num), id));
		if (r == 0 || r == -ENODEV || r == -ENOENT)
			return 0;
	}
	zram_path(path, sizeof(path), id, "reset");
	r = vmr_write_file(path, "1");
	if (r == -ENOENT)
		return 0;  /* the device is gone already */
	if (r < 0)
		return r;
	if (added)
		r = vmr_write_file("/sys/class/zram-control/hot_remove", zram_itoa(num, sizeof(num), id));
	return r == -ENODEV || r == -ENOENT ? 0 : r;
}

int zram_set_algo(int id, const char *algo)
{
	char path[96];
	zram_path(path, sizeof(path), id, "comp_algorithm");
	return vmr_write_file(path, algo);
}

int zram_current_algo(int id, char *buf, size_t len)
{
	char path[96], *cur = NULL;
	zram_path(path, sizeof(path), id, "comp_algorithm");
	int r = vmr_read_line(path, &cur);
	if (r < 0)
		return r;
	char *open = strchr(cur, '['), *close = open ? strchr(open, ']') : NULL;
	if (!open || !close || (size_t)(close - open - 1) >= len) {
		free(cur);
		return -EINVAL;
	}
	memcpy(buf, open + 1, (size_t)(close - open - 1));
	buf[close - open - 1] = '\0';
	free(cur);
	return 0;
}

static int swap_read_tag_fd(int fd, struct swap_tag *tag)
{
	size_t ps = vmr_page_size();
	char *page = xmalloc(ps);
	int r = pread(fd, page, ps, 0) == (ssize_t)ps ? swap_header_parse(page, ps, tag, NULL) : -1;
	free(page);
	return r;
}

int zram_read_tag(int id, struct swap_tag *tag)
{
	char dev[32];
	snprintf(dev, sizeof(dev), "/dev/zram%d", id);
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int r = swap_read_tag_fd(fd, tag);
	close(fd);
	return r;
}

int swap_file_read_tag(const char *path, struct swap_tag *tag)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int r = swap_read_tag_fd(fd, tag);
	close(fd);
	return r;
}
