/* The kernel matrix: the same suite under several kernels, each booted in
 * a QEMU guest with a fixed memory size and its own swap, its run framed
 * home on the serial console and imported into the host's store.  The
 * command (cmd/matrix.c) parses into struct matrix_opts and reports. */
#ifndef VMR_VM_MATRIX_H
#define VMR_VM_MATRIX_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/util.h"
#include "store/store.h"
#include "vm/guest.h"
#include "vm/kernel.h"
#include "vm/modules.h"
#include "vm/proto.h"

struct matrix_opts {
	struct strlist kernels, appends;
	char *suite, *name, *cache, *log_dir, *db, *static_bin;
	uint64_t mem, swap_size, disk_size, disk_write_rate, timeout;
	long cpus, iterations;
	int swap, accel;
	bool json, keep, numa_tiered;
	/* test-only and guest-side */
	char *guest_cmd, *build_initramfs, *guest_script;
	struct strlist guest_files;
	int guest_fault;
	char *guest_emit, *guest_label;
	long guest_rc;
	bool guest_done;
	/* set by commands built on the matrix (bisect), not by options */
	const struct matrix_store_as *store_as;
};

/* How a command built on the matrix stores a guest's run instead of as
 * NAME-LABEL of suite --suite, ungrouped (tagged NAME either way). */
struct matrix_store_as {
	const char *run_name;
	const char *suite;              /* the suite's name to record */
	const struct store_group *group;/* the group the run joins (a complete run only) */
};

struct matrix_ctx;
/* One guest of the matrix: a kernel with one command line. */
struct matrix_guest {
	struct vm_kernel *k;
	const char *append;
	char *label;
	const char *status;     /* complete | failed */
	char *reason;           /* why it failed, or NULL */
	char *log_path;
	int rc;                 /* the guest command's exit status, or -1 */
	int64_t run_id;         /* in the host store, or 0 */
	double elapsed_s;
	struct proto_result frames;
	char *selftests;        /* the selftests' version it was sent (--source matched), or NULL */
	char *selftests_note;   /* which, and why those */
};

/* What the command prints when every guest has run: an exit code. */
typedef int (*matrix_report_fn)(const struct matrix_ctx *c, struct matrix_guest *g, size_t n);

struct matrix_ctx {
	struct matrix_opts *o;
	char *work;             /* private directory for initramfs and disks */
	char *static_bin, *busybox, *log_dir, *suite_file;
	enum guest_accel accel;
	char accel_why[256];
	struct store *st;       /* the host's, NULL when not storing */
	matrix_report_fn report;
};

/* The host side of `vmregress matrix`: resolve the kernels, build each
 * guest's initramfs, boot the guests one after another, judge and store
 * what each sent home, then report(); or with --build-initramfs only build
 * one.  Ctrl-C stops the guest and keeps what it said.  An exit code. */
int matrix_host(struct matrix_opts *o, matrix_report_fn report);

/* The modules a guest loads: the virtio disk, ext2, zram and its
 * compressors (a LAVA job's ramdisk holds the same). */
#define MATRIX_NWANT 8
extern const struct vm_module_want matrix_want[MATRIX_NWANT];

#endif
