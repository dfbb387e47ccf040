/* The guest's initramfs: a newc cpio archive (the format the kernel unpacks
 * into its rootfs) written here, holding busybox, a static vmregress, the
 * modules the guest needs and an init script. */
#ifndef VMR_INITRAMFS_H
#define VMR_INITRAMFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vm/modules.h"

/* A newc writer.  Entries are written in the order added; parents first. */
struct cpio {
	FILE *f;
	uint32_t ino;
	uint64_t off;
};

void cpio_begin(struct cpio *c, FILE *f);
void cpio_dir(struct cpio *c, const char *name, unsigned mode);
void cpio_file(struct cpio *c, const char *name, unsigned mode, const void *data, size_t len);
void cpio_symlink(struct cpio *c, const char *name, const char *target);
void cpio_chardev(struct cpio *c, const char *name, unsigned mode, unsigned major, unsigned minor);
/* The TRAILER!!! entry.  0, or -1 when the stream failed. */
int cpio_end(struct cpio *c);

enum guest_swap { GUEST_SWAP_VIRTIO, GUEST_SWAP_ZRAM, GUEST_SWAP_NONE };

/* What the guest does, baked into its init script. */
struct guest_plan {
	const char *const *cmd;  /* vmregress arguments, NULL-terminated; NULL:
				    only say VMR-DONE and power off (a probe) */
	enum guest_swap swap;    /* the guest's own swap, besides the sandbox's */
	uint64_t swap_bytes;     /* its size */
	const char *fault;       /* test-only: "panic", "hang", "garbage" or NULL */
	const char *db;          /* a store file the guest sends home as frame "db", or NULL */
	const char *script;      /* test-only: a shell script in the guest run instead of
				    vmregress (its stdout and stderr go home the same way) */
	bool shell;              /* after the set-up, a shell on the console instead of
				    cmd: for a LAVA job, whose test shell types into it */
};

/* The init script for a plan (malloc'd).  It mounts /proc, /sys, devtmpfs,
 * cgroup2 and a tmpfs, loads /modules in /modules/order, makes the virtio
 * disk /dev/vda an ext2 file system for the sandbox's state directory (its
 * swap files), sets up the guest's own swap if asked, runs
 * /vmregress with the plan's arguments, sends its stdout, stderr, the store
 * file and dmesg home as frames, and powers off. */
char *initramfs_init_script(const struct guest_plan *plan);

/* Write an initramfs to out (atomically).  vmregress is a static binary for
 * the guest, busybox a static busybox; mods may be NULL; suite, when not
 * NULL, is a suite file that becomes /suite.ini; extra, when not NULL, a
 * NULL-terminated list of files each put in / under its base name (tests:
 * a script and static helpers), or, written HOSTPATH=GUESTPATH, at that
 * path (the kernel's selftests).  0, or -1 after a one-line error. */
int initramfs_build(const char *out, const char *vmregress, const char *busybox,
		    const struct vm_modules *mods, const char *init_script, const char *suite,
		    const char *const *extra);

/* A static busybox: $VMR_BUSYBOX, else Debian's busybox-static at
 * /bin/busybox when it is statically linked.  Malloc'd, or NULL. */
char *initramfs_find_busybox(void);

#endif
