/* The guest's initramfs: see initramfs.h. */
#include "vm/initramfs.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

void cpio_begin(struct cpio *c, FILE *f)
{
	c->f = f;
	c->ino = 1;
	c->off = 0;
}

static void cpio_pad(struct cpio *c)
{
	while (c->off % 4) {
		fputc(0, c->f);
		c->off++;
	}
}

/* One newc header, name and padding: "070701" and 13 eight-digit hex
 * fields (ino, mode, uid, gid, nlink, mtime, filesize, devmajor, devminor,
 * rdevmajor, rdevminor, namesize, check). */
static void cpio_header(struct cpio *c, const char *name, unsigned mode, size_t size, unsigned rmaj, unsigned rmin)
{
	size_t namesize = strlen(name) + 1;
	int n = fprintf(c->f, "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X", c->ino++, mode, 0u, 0u,
			S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned)size, 0u, 0u, rmaj, rmin, (unsigned)namesize, 0u);
	c->off += n > 0 ? (uint64_t)n : 0;
	fwrite(name, 1, namesize, c->f);
	c->off += namesize;
	cpio_pad(c);
}

static void cpio_data(struct cpio *c, const void *data, size_t len)
{
	fwrite(data, 1, len, c->f);
	c->off += len;
	cpio_pad(c);
}

void cpio_dir(struct cpio *c, const char *name, unsigned mode)
{
	cpio_header(c, name, S_IFDIR | mode, 0, 0, 0);
}

void cpio_file(struct cpio *c, const char *name, unsigned mode, const void *data, size_t len)
{
	cpio_header(c, name, S_IFREG | mode, len, 0, 0);
	cpio_data(c, data, len);
}

void cpio_symlink(struct cpio *c, const char *name, const char *target)
{
	cpio_header(c, name, S_IFLNK | 0777, strlen(target), 0, 0);
	cpio_data(c, target, strlen(target));
}

void cpio_chardev(struct cpio *c, const char *name, unsigned mode, unsigned major, unsigned minor)
{
	cpio_header(c, name, S_IFCHR | mode, 0, major, minor);
}

int cpio_end(struct cpio *c)
{
	c->ino = 0;
	cpio_header(c, "TRAILER!!!", 0, 0, 0, 0);
	return fflush(c->f) == EOF || ferror(c->f) ? -1 : 0;
}

/* Single-quote s for sh. */
static void initramfs_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

static const char initramfs_prologue[] =
	"#!/bin/busybox sh\n"
	"# vmregress guest init: set up, run, send results home, power off.\n"
	"/bin/busybox --install -s /bin\n"
	"export PATH=/bin HOME=/tmp TMPDIR=/tmp XDG_DATA_HOME=/tmp\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs devtmpfs /dev 2>/dev/null\n"
	"mount -t tmpfs tmpfs /tmp\n"
	"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
	"mkdir -p /dev/pts && mount -t devpts devpts /dev/pts 2>/dev/null\n"
	"mkdir -p /sys/fs/cgroup && mount -t cgroup2 cgroup2 /sys/fs/cgroup &&\n"
	"\techo +memory > /sys/fs/cgroup/cgroup.subtree_control\n"
	"echo 1 > /proc/sys/kernel/printk\n"
	"emit() { /vmregress matrix --guest-emit \"$3\" --guest-label \"$1\" --guest-rc \"$2\"; }\n"
	"say() { echo \"$*\" >> /tmp/init.log; }\n"
	"for m in $(cat /modules/order); do\n"
	"\tinsmod /modules/$m.ko 2>> /tmp/init.log || say \"insmod $m failed\"\n"
	"done\n";

/* The virtio disk becomes an ext2 file system holding the sandbox's state
 * directory, so that suites' swap files live on a real disk (a swap file
 * on the initramfs's tmpfs cannot be swapped on). */
static void initramfs_disk(FILE *f, const struct guest_plan *p)
{
	fputs("i=0; while [ ! -b /dev/vda ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done\n"
	      "mkdir -p /mnt/disk\n"
	      "if mke2fs -q /dev/vda > /dev/null 2>> /tmp/init.log && mount -t ext2 /dev/vda /mnt/disk; then\n"
	      "\tmkdir -p /mnt/disk/state && export VMREGRESS_STATE_DIR=/mnt/disk/state\n"
	      "else say 'no disk for the sandbox state'; fi\n", f);
	if (p->swap == GUEST_SWAP_VIRTIO) {
		fprintf(f, "dd if=/dev/zero of=/mnt/disk/guest.swap bs=1M count=%llu 2>/dev/null && "
			   "chmod 600 /mnt/disk/guest.swap && mkswap /mnt/disk/guest.swap >> /tmp/init.log 2>&1 && "
			   "swapon /mnt/disk/guest.swap 2>> /tmp/init.log || say 'no disk swap'\n",
			(unsigned long long)(p->swap_bytes >> 20));
	} else if (p->swap == GUEST_SWAP_ZRAM) {
		fprintf(f, "[ -e /sys/block/zram0 ] || cat /sys/class/zram-control/hot_add > /dev/null 2>&1\n"
			   "echo lz4 > /sys/block/zram0/comp_algorithm 2>/dev/null\n"
			   "echo %llu > /sys/block/zram0/disksize && mkswap /dev/zram0 >> /tmp/init.log 2>&1 && "
			   "swapon /dev/zram0 2>> /tmp/init.log || say 'no zram swap'\n",
			(unsigned long long)p->swap_bytes);
	}
}

/* Test-only faults, to prove the host survives each kind of bad guest. */
static void initramfs_fault(FILE *f, const char *fault)
{
	if (!strcmp(fault, "panic"))
		fputs("echo c > /proc/sysrq-trigger\nexit 1\n", f);
	else if (!strcmp(fault, "hang"))
		fputs("while :; do sleep 60; done\n", f);
	else if (!strcmp(fault, "garbage"))
		fputs("echo 'VMR-BEGIN 1 result 0 12 0badc0de'\necho 'VMR-D #not*base64#'\necho 'VMR-END 0badc0de'\n"
		      "echo VMR-DONE\npoweroff -f\n", f);
}

char *initramfs_init_script(const struct guest_plan *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (p->shell) {
		fputs(initramfs_prologue, f);
		initramfs_disk(f, p);
		fputs("cd /tmp\nexec setsid cttyhack sh\n", f);
		fclose(f);
		return buf;
	}
	if (!p->cmd) {
		fputs("#!/bin/busybox sh\n/vmregress matrix --guest-done\n/bin/busybox poweroff -f\n", f);
		fclose(f);
		return buf;
	}
	fputs(initramfs_prologue, f);
	initramfs_disk(f, p);
	if (p->fault)
		initramfs_fault(f, p->fault);
	if (p->script) {
		fputs("cd /tmp\nsh ", f);
		initramfs_quote(f, p->script);
	} else {
		fputs("cd /tmp\n/vmregress", f);
		for (const char *const *a = p->cmd; *a; a++) {
			fputc(' ', f);
			initramfs_quote(f, *a);
		}
	}
	fputs(" > /tmp/out 2> /tmp/err\nrc=$?\necho\n"
	      "emit stdout $rc /tmp/out\nemit stderr $rc /tmp/err\n", f);
	if (p->db) {
		fputs("[ -f ", f);
		initramfs_quote(f, p->db);
		fputs(" ] && emit db $rc ", f);
		initramfs_quote(f, p->db);
		fputc('\n', f);
	}
	fputs("cat /proc/swaps >> /tmp/init.log\nemit init 0 /tmp/init.log\n"
	      "dmesg > /tmp/dmesg; emit dmesg 0 /tmp/dmesg\n"
	      "/vmregress matrix --guest-done\nsync\npoweroff -f\n", f);
	fclose(f);
	return buf;
}

static int initramfs_add_path(struct cpio *c, const char *name, unsigned mode, const char *path)
{
	char *buf = NULL;
	size_t len;

	if (vmr_read_file(path, &buf, &len) < 0) {
		vmr_errno("initramfs: cannot read %s", path);
		return -1;
	}
	cpio_file(c, name, mode, buf, len);
	free(buf);
	return 0;
}

static int initramfs_add_modules(struct cpio *c, const struct vm_modules *mods)
{
	char *order = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&order, &len);
	int r = 0;

	cpio_dir(c, "modules", 0755);
	for (size_t i = 0; mods && i < mods->order.n && r == 0; i++) {
		char *name = xasprintf("modules/%s.ko", mods->order.v[i]);
		r = initramfs_add_path(c, name, 0644, mods->files.v[i]);
		fprintf(f, "%s\n", mods->order.v[i]);
		free(name);
	}
	fclose(f);
	cpio_file(c, "modules/order", 0644, order, len);
	free(order);
	return r;
}

int initramfs_build(const char *out, const char *vmregress, const char *busybox,
		    const struct vm_modules *mods, const char *init_script, const char *suite,
		    const char *const *extra)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys", "tmp", "etc", "root" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct cpio c = { 0 };
	int r;

	cpio_begin(&c, f);
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		cpio_dir(&c, dirs[i], 0755);
	/* the kernel opens /dev/console for init before devtmpfs is mounted */
	cpio_chardev(&c, "dev/console", 0600, 5, 1);
	cpio_file(&c, "init", 0755, init_script, strlen(init_script));
	r = initramfs_add_path(&c, "bin/busybox", 0755, busybox);
	if (r == 0) {
		cpio_symlink(&c, "bin/sh", "busybox");
		r = initramfs_add_path(&c, "vmregress", 0755, vmregress);
	}
	if (r == 0 && suite)
		r = initramfs_add_path(&c, "suite.ini", 0644, suite);
	for (const char *const *x = extra; r == 0 && x && *x; x++) {
		const char *eq = strchr(*x, '=');
		if (eq) {  /* HOSTPATH=GUESTPATH: at that path, its directories made */
			char *host = xasprintf("%.*s", (int)(eq - *x), *x), *dest = xstrdup(eq + 1);
			for (char *p = strchr(dest + 1, '/'); p; p = strchr(p + 1, '/')) {
				*p = '\0';
				cpio_dir(&c, dest + (*dest == '/'), 0755);
				*p = '/';
			}
			r = initramfs_add_path(&c, dest + (*dest == '/'), 0755, host);
			free(host);
			free(dest);
			continue;
		}
		const char *base = strrchr(*x, '/');
		r = initramfs_add_path(&c, base ? base + 1 : *x, 0755, *x);
	}
	if (r == 0)
		r = initramfs_add_modules(&c, mods);
	if (cpio_end(&c) < 0)
		r = -1;
	fclose(f);
	if (r == 0 && vmr_write_atomic(out, buf, len, 0644) < 0) {
		vmr_errno("cannot write initramfs %s", out);
		r = -1;
	}
	free(buf);
	return r;
}

/* A static binary has no PT_INTERP program header. */
static int initramfs_is_static(const char *path)
{
	char *buf = NULL;
	size_t len;
	int r = 0;

	if (vmr_read_file(path, &buf, &len) == 0 && len >= sizeof(Elf64_Ehdr) && !memcmp(buf, ELFMAG, SELFMAG)) {
		Elf64_Ehdr eh;
		memcpy(&eh, buf, sizeof(eh));
		r = eh.e_phoff < len && (len - eh.e_phoff) / sizeof(Elf64_Phdr) >= eh.e_phnum;
		for (unsigned i = 0; r && i < eh.e_phnum; i++) {
			Elf64_Phdr ph;
			memcpy(&ph, buf + eh.e_phoff + i * sizeof(ph), sizeof(ph));
			r = ph.p_type != PT_INTERP;
		}
	}
	free(buf);
	return r;
}

char *initramfs_find_busybox(void)
{
	const char *env = getenv("VMR_BUSYBOX");
	const char *cands[] = { env, "/bin/busybox", "/usr/bin/busybox" };

	for (size_t i = 0; i < ARRAY_SIZE(cands); i++)
		if (cands[i] && *cands[i] && access(cands[i], X_OK) == 0 && initramfs_is_static(cands[i]))
			return xstrdup(cands[i]);
	return NULL;
}
