/* A LAVA job run here by lava-run: see lava.h. */
#include "vm/lava.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "core/yaml.h"
#include "vm/guest.h"
#include "vm/spawn.h"

#define LAVA_PYTHON "/usr/bin/python3"
#define LAVA_SITE "usr/lib/python3/dist-packages"

static const char *const lava_packages[] = { "lava-dispatcher", "lava-dispatcher-host", "lava-common", "lava-server" };
/* lava-run's imports, and the Debian packages that have them */
static const char lava_python_check[] =
	"import importlib, sys\n"
	"mods = {'jinja2': 'python3-jinja2', 'pexpect': 'python3-pexpect', 'requests': 'python3-requests',\n"
	"        'setproctitle': 'python3-setproctitle', 'magic': 'python3-magic', 'configobj': 'python3-configobj',\n"
	"        'netifaces': 'python3-netifaces', 'pyudev': 'python3-pyudev', 'aiohttp': 'python3-aiohttp',\n"
	"        'voluptuous': 'python3-voluptuous', 'yaml': 'python3-yaml'}\n"
	"missing = []\n"
	"for m, p in mods.items():\n"
	"    try:\n"
	"        importlib.import_module(m)\n"
	"    except ImportError:\n"
	"        missing.append(p)\n"
	"print(' '.join(missing))\n";

/* Fetch and unpack the packages into dir/root, once: a half-done fetch is
 * in a directory of its own and moved into place whole. */
static int lava_fetch(const char *dir)
{
	char *root = xasprintf("%s/root", dir), *tmp = xasprintf("%s/.fetch.%d", dir, (int)getpid());
	char *troot = xasprintf("%s/root", tmp), *log = xasprintf("%s/apt.log", tmp);
	int r = 0;
	if (access(root, F_OK) == 0)
		goto free_paths;
	if (vmr_mkdir_p(troot, NULL) < 0) {
		r = vmr_errno("lava: cannot create %s", tmp);
		goto free_paths;
	}
	for (size_t i = 0; i < sizeof(lava_packages) / sizeof(lava_packages[0]) && r == 0; i++) {
		char *apt[] = { "apt-get", "download", "-q", "-o", "APT::Sandbox::User=root", (char *)lava_packages[i], NULL };
		if (spawn_wait(apt, tmp, log, log) != 0)
			r = vmr_err("lava: apt-get download %s failed (see it run by hand; Debian 12 has it)", lava_packages[i]);
	}
	char *x = xasprintf("for d in *.deb; do dpkg-deb -x \"$d\" root || exit 1; done; rm -f *.deb");
	char *sh[] = { "sh", "-c", x, NULL };
	if (r == 0 && spawn_wait(sh, tmp, NULL, log) != 0)
		r = vmr_err("lava: cannot unpack the LAVA packages with dpkg-deb");
	free(x);
	if (r == 0 && rename(troot, root) < 0 && errno != EEXIST && errno != ENOTEMPTY)
		r = vmr_errno("lava: cannot move the LAVA packages into %s", dir);
	vmr_rm_rf(tmp);
free_paths:
	free(root), free(tmp), free(troot), free(log);
	return r;
}

/* lava_dispatcher imports guestfs (python3-guestfs) at module level, and
 * Debian's would pull a systemd upgrade onto the host.  Its one use is
 * building disk images for overlays that are not `lava: true`; our jobs
 * give the ramdisk with `overlays: {lava: true}`, which LAVA unpacks and
 * packs with cpio, so an empty module satisfies the import and nothing
 * ever calls it. */
static int lava_shim(const char *dir)
{
	char *shim = xasprintf("%s/shim", dir), *py = xasprintf("%s/shim/guestfs.py", dir);
	static const char text[] = "# An empty guestfs for lava_dispatcher's module-level import: vmregress's\n"
				   "# jobs use overlays: {lava: true} (cpio), never libguestfs (src/vm/lava_local.c).\n";
	int r = vmr_mkdir_p(shim, NULL) < 0 || vmr_write_atomic(py, text, sizeof(text) - 1, 0644) < 0
			? vmr_errno("lava: cannot write %s", py)
			: 0;
	free(shim), free(py);
	return r;
}

static int lava_python_deps(const char *work)
{
	char *out = xasprintf("%s/python-deps.txt", work), *missing = NULL;
	char *argv[] = { LAVA_PYTHON, "-c", (char *)lava_python_check, NULL };
	int r = spawn_wait(argv, NULL, out, NULL);
	if (r != 0 || vmr_read_line(out, &missing) < 0) {
		r = vmr_err("lava: cannot run %s (Debian's python3)", LAVA_PYTHON);
	} else if (*missing) {
		r = vmr_err("lava: lava-run needs %s (Debian packages; scripts/deps installs them)", missing);
	}
	free(missing);
	unlink(out);
	free(out);
	return r;
}

/* The device dictionary: LAVA's qemu template with the job's memory and
 * options, rendered by jinja2 as lava-server renders it. */
static int lava_device(const char *job_yaml, const char *pkgroot, const char *work, const char *name, char **device)
{
	char *text = NULL, why[256] = "";
	size_t len = 0;
	if (vmr_read_file(job_yaml, &text, &len) < 0)
		return vmr_errno("lava: cannot read %s", job_yaml);
	json_t *job = yaml_to_json(text, len, why, sizeof(why));
	free(text);
	if (!json_is_object(job)) {
		json_decref(job);
		return vmr_err("lava: %s is not a LAVA job: %s", job_yaml, why[0] ? why : "not a mapping");
	}
	json_t *ctx = json_object_get(job, "context");
	json_int_t mem = json_integer_value(json_object_get(ctx, "memory"));
	/* TCG: a host whose KVM runs simple code may still fail a real kernel
	 * (QEMU then asserts on an MSR), and lava-run would call that an
	 * infrastructure error */
	enum guest_accel accel = GUEST_ACCEL_TCG;
	char *opts = xstrdup(accel == GUEST_ACCEL_KVM ? "" : "'-accel tcg'");
	size_t i;
	json_t *o;
	json_array_foreach(json_object_get(ctx, "extra_options"), i, o) {
		char *n = xasprintf("%s%s'%s'", opts, *opts ? ", " : "", json_string_value(o) ? json_string_value(o) : "");
		free(opts);
		opts = n;
	}
	json_decref(job);
	/* the device's name, as a lab's device dictionary gives it to the test
	 * shell (base.jinja2's `environment`; LAVA exports no name itself) */
	json_t *qname = json_string(name);
	char *jname = json_dumps(qname, JSON_ENCODE_ANY);
	json_decref(qname);
	char *tpl = xasprintf("{%% extends 'qemu.jinja2' %%}\n{%% set arch = 'amd64' %%}\n{%% set memory = %lld %%}\n"
			      "{%% set mac_addr = '52:54:00:12:34:59' %%}\n{%% set no_kvm = %s %%}\n"
			      "{%% set extra_options = [%s] %%}\n{%% set environment = {'" LAVA_ENV_DEVICE "': %s} %%}\n",
			      (long long)(mem > 0 ? mem : 512), accel == GUEST_ACCEL_KVM ? "False" : "True", opts, jname);
	free(jname);
	char *tpath = xasprintf("%s/vmregress-device.jinja2", work);
	*device = xasprintf("%s/device.yaml", work);
	int r = vmr_write_atomic(tpath, tpl, strlen(tpl), 0644) < 0 ? vmr_errno("lava: cannot write %s", tpath) : 0;
	char *script = xasprintf("import jinja2, sys\n"
				 "env = jinja2.Environment(loader=jinja2.FileSystemLoader([sys.argv[1], sys.argv[2]]),\n"
				 "                         trim_blocks=True, autoescape=False)\n"
				 "sys.stdout.write(env.get_template('vmregress-device.jinja2').render())\n");
	char *types = xasprintf("%s/usr/share/lava-server/device-types", pkgroot), *err = xasprintf("%s/jinja2.err", work);
	char *argv[] = { LAVA_PYTHON, "-c", script, (char *)work, types, NULL };
	if (r == 0 && spawn_wait(argv, NULL, *device, err) != 0)
		r = vmr_err("lava: cannot render LAVA's qemu device type (see %s)", err);
	free(script), free(types), free(err), free(tpath), free(tpl), free(opts);
	return r;
}

int lava_local_run(const char *job_yaml, const char *cache, const char *work, const char *job_id,
		   const char *device_name, char **log)
{
	char *dir = xasprintf("%s/lava", cache), *pkgroot = xasprintf("%s/lava/root", cache), *device = NULL;
	char *disp = xasprintf("%s/dispatcher.yaml", work), *prefix = xasprintf("prefix: %s/tmp/\n", work);
	char *out = xasprintf("%s/out", work), *tmp = xasprintf("%s/tmp", work);
	int r = -3;
	*log = xasprintf("%s/lava-run.log", work);
	if (vmr_mkdir_p(dir, NULL) < 0 || vmr_mkdir_p(out, NULL) < 0 || vmr_mkdir_p(tmp, NULL) < 0) {
		vmr_errno("lava: cannot create %s or %s", dir, out);
		goto free_paths;
	}
	if (lava_python_deps(work) < 0 || lava_fetch(dir) < 0 || lava_shim(dir) < 0 ||
	    lava_device(job_yaml, pkgroot, work, device_name, &device) < 0)
		goto free_paths;
	/* lava-run keeps its files under /var/lib/lava/dispatcher/tmp/JOB
	 * unless the dispatcher's prefix, an absolute path, replaces it */
	if (vmr_write_atomic(disp, prefix, strlen(prefix), 0644) < 0) {
		vmr_errno("lava: cannot write %s", disp);
		goto free_paths;
	}
	const char *path = getenv("PATH");
	char *envpy = xasprintf("PYTHONPATH=%s/shim:%s/" LAVA_SITE, dir, pkgroot);
	char *envpath = xasprintf("PATH=%s/usr/bin:%s", pkgroot, path ? path : "/usr/bin:/bin");
	char *lavarun = xasprintf("%s/usr/bin/lava-run", pkgroot);
	char *argv[] = { "env", envpy, envpath, LAVA_PYTHON, lavarun, "--job-id", (char *)job_id, "--output-dir", out,
			 "--device", device, "--dispatcher", disp, (char *)job_yaml, NULL };
	r = spawn_wait(argv, work, *log, *log);
	if (r < 0)
		vmr_errno("lava: cannot start lava-run");
	free(envpy), free(envpath), free(lavarun);
free_paths:
	free(dir), free(pkgroot), free(device), free(disp), free(prefix), free(out), free(tmp);
	return r;
}
