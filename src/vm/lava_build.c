/* The files a LAVA qemu job deploys: see lava.h. */
#include "vm/lava.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/util.h"
#include "vm/initramfs.h"
#include "vm/matrix.h"

/* gzip src into dst: LAVA unpacks a ramdisk by its compression, adds its
 * overlay and packs it again. */
static int lava_gzip(const char *src, const char *dst)
{
	char *buf = NULL;
	size_t len = 0;
	if (vmr_read_file(src, &buf, &len) < 0)
		return vmr_errno("lava: cannot read %s", src);
	char *tmp = xasprintf("%s.tmp", dst);
	gzFile gz = gzopen(tmp, "wb6");
	int ok = gz && gzwrite(gz, buf, (unsigned)len) == (int)len;
	if (gz && gzclose(gz) != Z_OK)
		ok = 0;
	free(buf);
	if (!ok || rename(tmp, dst) < 0) {
		unlink(tmp);
		free(tmp);
		return vmr_errno("lava: cannot write %s", dst);
	}
	free(tmp);
	return 0;
}

/* The disk, gzipped: LAVA copies an image it deploys byte by byte (a
 * sparse file's holes too) and unpacks a compressed one; megabytes of
 * zeros pack into kilobytes. */
static int lava_zero_disk(const char *path, uint64_t bytes)
{
	static const char zeros[1 << 16];
	char *tmp = xasprintf("%s.tmp", path);
	gzFile gz = gzopen(tmp, "wb9");
	int ok = gz != NULL;
	for (uint64_t done = 0; ok && done < bytes; done += sizeof(zeros)) {
		unsigned n = bytes - done < sizeof(zeros) ? (unsigned)(bytes - done) : (unsigned)sizeof(zeros);
		ok = gzwrite(gz, zeros, n) == (int)n;
	}
	if (gz && gzclose(gz) != Z_OK)
		ok = 0;
	if (!ok || rename(tmp, path) < 0) {
		unlink(tmp);
		free(tmp);
		return vmr_errno("lava: cannot write the disk %s", path);
	}
	free(tmp);
	return 0;
}

int lava_job_files(const char *prefix, const char *static_bin, const char *busybox, const char *kernel_moddir,
		   const char *suite_file, uint64_t disk_bytes, char **ramdisk, char **disk)
{
	struct vm_modules mods = { 0 };
	char *moddir = xasprintf("%s.modules", prefix), *cpio = xasprintf("%s.ramdisk.cpio", prefix);
	struct guest_plan plan = { .shell = true, .swap = GUEST_SWAP_NONE };
	int r = 0;
	*ramdisk = xasprintf("%s.ramdisk.cpio.gz", prefix);
	*disk = xasprintf("%s.disk.img.gz", prefix);
	if (kernel_moddir) {
		r = vmr_mkdir_p(moddir, NULL) < 0 ? vmr_errno("lava: cannot create %s", moddir)
						  : modules_resolve(kernel_moddir, matrix_want, MATRIX_NWANT, moddir, &mods);
	}
	if (r == 0) {
		char *script = initramfs_init_script(&plan);
		r = initramfs_build(cpio, static_bin, busybox, kernel_moddir ? &mods : NULL, script, suite_file, NULL);
		free(script);
	}
	if (r == 0)
		r = lava_gzip(cpio, *ramdisk);
	unlink(cpio);
	vmr_rm_rf(moddir);
	if (r == 0)
		r = lava_zero_disk(*disk, disk_bytes);
	modules_free(&mods);
	free(moddir);
	free(cpio);
	return r;
}
