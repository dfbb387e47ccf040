/* The kernel modules a guest needs, in the order to load them.
 *
 * Debian's kernel packages ship the modules but not modules.dep (depmod
 * writes it when the package is installed, which we never do), so the
 * dependencies are read from each module's own .modinfo section: its
 * "depends=" list and "softdep=pre:" entries.  A module the kernel has
 * built in (modules.builtin) needs no file.  Compressed modules (.ko.xz,
 * .ko.zst, .ko.gz) are decompressed with xz, zstd or gzip, because busybox's
 * insmod loads plain ELF only. */
#ifndef VMR_MODULES_H
#define VMR_MODULES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

struct vm_modules {
	struct strlist order;    /* module names, dependencies first */
	struct strlist files;    /* decompressed .ko for each name in order */
	struct strlist builtin;  /* wanted but built into the kernel */
	struct strlist missing;  /* optional modules this kernel lacks */
};

struct vm_module_want {
	const char *name;        /* "virtio_blk" ('-' and '_' are the same) */
	bool optional;           /* a kernel without it is fine */
};

/* Resolve wanted modules of the tree moddir (.../lib/modules/VERSION) and
 * decompress each into outdir/NAME.ko.  Returns 0, or -1 after a one-line
 * error (a required module missing, a tool or file failing). */
int modules_resolve(const char *moddir, const struct vm_module_want *want, size_t nwant,
		    const char *outdir, struct vm_modules *m);
void modules_free(struct vm_modules *m);

/* Read a module's dependencies from its ELF .modinfo section: names from
 * "depends=" and from "softdep=" before "post:" (normalised to '_').
 * Returns 0, or -1 with a static reason in *why (not ELF64, no .modinfo,
 * a section outside the file). */
int modules_modinfo_deps(const unsigned char *elf, size_t len, struct strlist *deps, const char **why);

#endif
