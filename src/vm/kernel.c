/* Kernels for the matrix: see kernel.h. */
#include "vm/kernel.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "vm/spawn.h"

char *kernel_default_cache(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

	if (x && *x == '/')
		return xasprintf("%s/vmregress/kernels", x);
	return xasprintf("%s/.cache/vmregress/kernels", home && *home ? home : "/root");
}

bool kernel_spec_is_package(const char *spec)
{
	struct stat st = { 0 };

	if (!*spec || strchr(spec, '/') || stat(spec, &st) == 0)
		return false;
	if (!((*spec >= 'a' && *spec <= 'z') || (*spec >= '0' && *spec <= '9')))
		return false;
	return strspn(spec, "abcdefghijklmnopqrstuvwxyz0123456789.+-") == strlen(spec);
}

/* The first boot/vmlinuz-* under root, and its version. */
static int kernel_find_image(const char *root, struct vm_kernel *k)
{
	char *boot = xasprintf("%s/boot", root);
	DIR *d = opendir(boot);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "vmlinuz-", 8) && !k->vmlinuz) {
			k->vmlinuz = xasprintf("%s/%s", boot, e->d_name);
			k->version = xstrdup(e->d_name + 8);
		}
	if (d)
		closedir(d);
	free(boot);
	if (!k->vmlinuz)
		return -1;
	char *mods = xasprintf("%s/lib/modules/%s", root, k->version);
	if (access(mods, R_OK) == 0)
		k->moddir = mods;
	else
		free(mods);
	return 0;
}

/* Download and unpack pkg into a private directory, then rename it into
 * place so that a cache entry is either whole or absent. */
static int kernel_fetch(const char *pkg, const char *cache, const char *dest)
{
	char *tmp = xasprintf("%s/.fetch-%s.%d", cache, pkg, (int)getpid());
	char *root = xasprintf("%s/root", tmp), *log = xasprintf("%s/apt.log", tmp);
	char *deb = NULL;
	int r = -2;

	if (vmr_mkdir_p(root, NULL) < 0) {
		vmr_errno("cannot create kernel cache %s", tmp);
		r = -3;
		goto free_paths;
	}
	char *apt[] = { "apt-get", "download", "-q", "-o", "APT::Sandbox::User=root", (char *)pkg, NULL };
	int rc = spawn_wait(apt, tmp, log, log);
	if (rc != 0) {
		if (rc == -1 || rc == 127)
			vmr_err("kernel %s: cannot run apt-get (is this Debian?)", pkg), r = -3;
		else
			vmr_err("kernel %s: apt-get download failed (no such package? see apt-get download %s)",
				pkg, pkg);
		goto remove_tmp;
	}
	DIR *d = opendir(tmp);
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n > 4 && !strcmp(e->d_name + n - 4, ".deb") && !deb)
			deb = xasprintf("%s/%s", tmp, e->d_name);
	}
	if (d)
		closedir(d);
	char *x[] = { "dpkg-deb", "-x", deb ? deb : "", root, NULL };
	if (!deb || spawn_wait(x, NULL, NULL, log) != 0) {
		vmr_err("kernel %s: cannot unpack the package with dpkg-deb", pkg);
		goto remove_tmp;
	}
	unlink(deb);
	if (rename(tmp, dest) < 0 && errno != EEXIST && errno != ENOTEMPTY) {
		vmr_errno("cannot move %s into the kernel cache", pkg);
		goto remove_tmp;
	}
	r = 0;
remove_tmp:
	vmr_rm_rf(tmp);  /* after a lost race, the winner's copy stays */
free_paths:
	free(deb);
	free(log);
	free(root);
	free(tmp);
	return r;
}

static int kernel_from_package(const char *spec, const char *cache, struct vm_kernel *k)
{
	char *dest = xasprintf("%s/%s", cache, spec), *root = xasprintf("%s/root", dest);
	int r = 0;

	k->from_package = true;
	if (access(root, R_OK) != 0) {
		if (vmr_mkdir_p(cache, NULL) < 0) {
			vmr_errno("cannot create kernel cache %s", cache);
			r = -3;
			goto free_paths;
		}
		if ((r = kernel_fetch(spec, cache, dest)) < 0)
			goto free_paths;
		k->downloaded = true;
	}
	if (kernel_find_image(root, k) < 0) {
		vmr_err("kernel %s: package has no boot/vmlinuz-* (not a kernel image package?)", spec);
		r = -2;
	}
free_paths:
	free(root);
	free(dest);
	return r;
}

/* An image path: when it sits in an unpacked tree (ROOT/boot/vmlinuz-V with
 * ROOT/lib/modules/V), its modules come along. */
static int kernel_from_path(const char *spec, struct vm_kernel *k)
{
	char *real = realpath(spec, NULL);
	const char *base;

	if (!real) {
		vmr_errno("kernel %s", spec);
		return -2;
	}
	k->vmlinuz = real;
	base = strrchr(real, '/') + 1;
	k->version = xstrdup(strncmp(base, "vmlinuz-", 8) ? base : base + 8);
	if (!strncmp(base, "vmlinuz-", 8) && base - real >= 6 && !strncmp(base - 6, "/boot/", 6)) {
		char *mods = xasprintf("%.*s/lib/modules/%s", (int)(base - 6 - real), real, base + 8);
		if (access(mods, R_OK) == 0)
			k->moddir = mods;
		else
			free(mods);
	}
	return 0;
}

int kernel_resolve(const char *spec, const char *cache, struct vm_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->spec = xstrdup(spec);
	if (kernel_spec_is_package(spec))
		return kernel_from_package(spec, cache, k);
	return kernel_from_path(spec, k);
}

void kernel_free(struct vm_kernel *k)
{
	free(k->spec);
	free(k->vmlinuz);
	free(k->moddir);
	free(k->version);
	memset(k, 0, sizeof(*k));
}
