/* vmregress lava testdef|job|cases|attach|import|run-local: vmregress in a
 * LAVA lab (vm/lava.h; docs/lab.md).  testdef and job write what a lab
 * runs; cases and attach run on the device, turning a stored run into
 * LAVA's helper calls and framing its JSON in the log; import reads what
 * LAVA gave back into the store; run-local runs a job with LAVA's own
 * lava-run on this machine and imports it. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/util.h"
#include "harness/suite.h"
#include "report/outcome_text.h"
#include "report/run_json.h"
#include "store/store.h"
#include "vm/initramfs.h"
#include "vm/kernel.h"
#include "vm/lava.h"

struct lava_cmd {
	char *suite, *db, *fleet, *kernel, *device_type, *append, *output, *static_bin, *cache, *name;
	char *job_id, *device, *vmregress;
	bool emulated;              /* run-local: the job ran under QEMU's emulation (TCG) */
	char *kernel_url, *ramdisk_url, *dtb_url, *modules_url, *boot_method, *kernel_type;
	uint64_t mem, disk;
	long cpus, iterations, timeout_min;
	bool keep;
};

#define O(f) offsetof(struct lava_cmd, f)
const struct opt lava_cmd_opts[] = {
	{ .name = "suite", .type = OPT_STR, .off = O(suite), .def = "quick", .metavar = "SUITE",
	  .help = "testdef, job: the suite the device runs" },
	{ .name = "iterations", .type = OPT_INT, .off = O(iterations), .min = 0, .max = 1000000, .metavar = "N",
	  .help = "testdef, job: iterations per case (default the suite's)" },
	{ .name = "fleet", .type = OPT_STR, .off = O(fleet), .metavar = "URL",
	  .help = "testdef, job: a fleet store the device pushes its run to (postgresql://...)" },
	{ .name = "vmregress", .type = OPT_STR, .off = O(vmregress), .metavar = "PATH",
	  .help = "testdef, job: the device's vmregress (default: on PATH; a qemu job's ramdisk has /vmregress)" },
	{ .name = "kernel", .type = OPT_STR, .off = O(kernel), .metavar = "PATH|PACKAGE",
	  .help = "job: a kernel image, or a Debian kernel package fetched into the cache" },
	{ .name = "device-type", .type = OPT_STR, .off = O(device_type), .def = "qemu", .metavar = "TYPE",
	  .help = "job: the LAVA device type (qemu, or a board's: see docs/lab.md); import: the one to record" },
	{ .name = "boot-method", .type = OPT_STR, .off = O(boot_method), .metavar = "METHOD",
	  .help = "job, not qemu: how the device type boots: " LAVA_BOOT_METHODS },
	{ .name = "kernel-url", .type = OPT_STR, .off = O(kernel_url), .metavar = "URL",
	  .help = "job, not qemu: where the lab's dispatcher fetches the kernel" },
	{ .name = "kernel-type", .type = OPT_STR, .off = O(kernel_type), .metavar = "TYPE",
	  .help = "job, u-boot: the kernel's type, image (booti), zimage (bootz) or uimage (bootm)" },
	{ .name = "ramdisk-url", .type = OPT_STR, .off = O(ramdisk_url), .metavar = "URL",
	  .help = "job, not qemu: the ramdisk with vmregress (a qemu job's, for an x86-64 board)" },
	{ .name = "dtb-url", .type = OPT_STR, .off = O(dtb_url), .metavar = "URL",
	  .help = "job, not qemu: the device tree blob, where the board needs one" },
	{ .name = "modules-url", .type = OPT_STR, .off = O(modules_url), .metavar = "URL",
	  .help = "job, not qemu: a tarball of the kernel's modules, added to the ramdisk by LAVA" },
	{ .name = "append", .type = OPT_STR, .off = O(append), .metavar = "ARGS", .help = "job: more kernel command line" },
	{ .name = "mem", .type = OPT_SIZE, .off = O(mem), .def = "512M", .min = 64 << 20, .max = 1ull << 40,
	  .metavar = "SIZE", .help = "job: guest memory" },
	{ .name = "cpus", .type = OPT_INT, .off = O(cpus), .def = "1", .min = 1, .max = 64, .metavar = "N",
	  .help = "job: guest CPUs" },
	{ .name = "disk", .type = OPT_SIZE, .off = O(disk), .def = "256M", .min = 16 << 20, .max = 1ull << 40,
	  .metavar = "SIZE", .help = "job: the raw disk for the sandbox's swap files" },
	{ .name = "timeout", .type = OPT_INT, .off = O(timeout_min), .def = "30", .min = 1, .max = 10080,
	  .metavar = "MINUTES", .help = "job: LAVA's timeouts for the job and its actions" },
	{ .name = "static-binary", .type = OPT_STR, .off = O(static_bin), .metavar = "PATH",
	  .help = "job: the statically linked vmregress for the ramdisk (default: found beside this one)" },
	{ .name = "output", .type = OPT_STR, .off = O(output), .metavar = "FILE", .short_name = 'o',
	  .help = "job: the job's YAML; the ramdisk and disk are written beside it" },
	{ .name = "cache", .type = OPT_STR, .off = O(cache), .metavar = "DIR",
	  .help = "job, run-local: the package cache (default $XDG_CACHE_HOME/vmregress)" },
	{ .name = "name", .type = OPT_STR, .off = O(name), .metavar = "NAME",
	  .help = "import, run-local: the stored run's name (default lava-JOB)" },
	{ .name = "job-id", .type = OPT_STR, .off = O(job_id), .metavar = "ID", .help = "import: the LAVA job's id" },
	{ .name = "device", .type = OPT_STR, .off = O(device), .metavar = "NAME",
	  .help = "import: the device it ran on; run-local: the device's name (default run-local)" },
	{ .name = "keep", .type = OPT_FLAG, .off = O(keep), .help = "run-local: keep lava-run's work directory" },
	{ .name = "db", .type = OPT_STR, .off = O(db), .metavar = "PATH",
	  .help = "cases, attach, import, run-local: the results store (" CMD_DB_DEFAULT ")" },
	OPT_END,
};
#undef O

static int lava_testdef_cmd(const struct lava_cmd *o)
{
	struct lava_testdef t = { .suite = o->suite, .iterations = o->iterations, .db = o->fleet,
				  .vmregress = o->vmregress ? o->vmregress : "vmregress" };
	lava_testdef_write(stdout, &t, 0);
	return fflush(stdout) == EOF ? vmr_errno("cannot write to standard output"), VMR_EXIT_CANNOT : VMR_EXIT_OK;
}

/* Text of j (JSON_COMPACT, as the whole run's dump writes it) without its
 * last n characters, added to g. */
static void lava_gz_json(struct lava_gz *g, json_t *j, size_t n)
{
	char *text = json_dumps(j, JSON_COMPACT);
	size_t len = text ? strlen(text) : 0;
	if (text && len >= n)
		lava_gz_add(g, text, len - n);
	free(text);
	json_decref(j);
}

struct lava_attach_each {
	struct lava_gz *g;
};

static int lava_attach_one(void *ctx, size_t i, const struct result *res)
{
	struct lava_attach_each *e = ctx;
	if (i)
		lava_gz_add(e->g, ",", 1);
	lava_gz_json(e->g, result_to_json(res), 0);
	return 0;
}

/* attach: run_to_json's document of run r (loaded with its metrics),
 * written a piece at a time, each iteration's whole result read from st
 * as it is added: the cases' array and each case's iterations are
 * written empty, less their closing "]}", and filled in. */
static int lava_attach(struct store *st, const struct run *r)
{
	struct lava_attach_each e = { .g = lava_gz_new() };
	if (!e.g)
		return lava_gz_emit(stdout, NULL);
	struct run head = *r;
	head.ncases = 0;
	lava_gz_json(e.g, run_to_json(&head), 2);
	int rc = 0;
	for (size_t i = 0; i < r->ncases && !rc; i++) {
		struct run_case c = r->cases[i];
		c.niter = 0;
		struct run one = { .ncases = 1, .cases = &c };
		json_t *j = run_to_json(&one);
		lava_gz_add(e.g, i ? "," : "", i ? 1 : 0);
		lava_gz_json(e.g, json_incref(json_array_get(json_object_get(j, "cases"), 0)), 2);
		json_decref(j);
		rc = store_case_each(st, r, &r->cases[i], RESULT_ALL, lava_attach_one, &e);
		lava_gz_add(e.g, "]}", 2);
	}
	lava_gz_add(e.g, "]}", 2);
	if (rc < 0) {
		lava_gz_free(e.g);
		return -2;
	}
	return lava_gz_emit(stdout, e.g);
}

/* cases: LAVA's helper calls; attach: the run's JSON framed for the log */
static int lava_cases_cmd(const struct lava_cmd *o, const char *spec, bool attach)
{
	struct store *st = NULL;
	int64_t id;
	struct run *r = NULL;
	int rc = VMR_EXIT_USAGE;
	/* the iterations' outcomes and metrics: attach reads each whole
	 * result again as it writes it */
	if (cmd_open_run(o->db, spec, false, &st, &id) == 0 && store_load_run_parts(st, id, RESULT_METRICS, &r) == 0) {
		rc = VMR_EXIT_OK;
		int w = attach ? lava_attach(st, r) : (lava_cases_write(stdout, r), 0);
		if (w == -2)
			rc = VMR_EXIT_CANNOT;  /* the store's message said why */
		else if (fflush(stdout) == EOF || w < 0)
			rc = (vmr_errno("lava %s: cannot write to standard output", attach ? "attach" : "cases"),
			      VMR_EXIT_CANNOT);
		run_free(r);
	}
	if (st)
		store_close(st);
	return rc;
}

/* The statically linked vmregress: the option, $VMR_STATIC, or beside us. */
static char *lava_static_binary(const struct lava_cmd *o)
{
	const char *env = getenv("VMR_STATIC");
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (o->static_bin || (env && *env))
		return xstrdup(o->static_bin ? o->static_bin : env);
	if (n <= 0)
		return NULL;
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	const char *cands[] = { "vmregress-static", "build/vmregress-static", "../libexec/vmregress/vmregress-static" };
	for (size_t i = 0; i < 3; i++) {
		char *p = xasprintf("%s/%s", self, cands[i]);
		if (access(p, R_OK) == 0)
			return p;
		free(p);
	}
	return NULL;
}

static char *lava_cache(const struct lava_cmd *o)
{
	if (o->cache)
		return xstrdup(o->cache);
	char *k = kernel_default_cache(), *slash = strrchr(k, '/');
	if (slash)
		*slash = '\0';  /* .../vmregress/kernels -> .../vmregress */
	return k;
}

static int lava_write_job(const struct lava_cmd *o, const struct lava_job *j)
{
	char *buf = NULL;
	size_t blen = 0;
	FILE *f = open_memstream(&buf, &blen);
	lava_job_write(f, j);
	fclose(f);
	int rc = vmr_write_atomic(o->output, buf, blen, 0644) < 0
			 ? (vmr_errno("lava job: cannot write %s", o->output), VMR_EXIT_CANNOT)
			 : VMR_EXIT_OK;
	free(buf);
	return rc;
}

/* A board's job: the URLs the user gives, deployed by tftp, booted by the
 * method's `ramdisk` commands of the device type (docs/lab.md). */
static int lava_board_job_cmd(const struct lava_cmd *o)
{
	static const char *const types[] = { "image", "zimage", "uimage" };
	if (!o->kernel_url || !o->ramdisk_url || !o->boot_method || !o->output)
		return vmr_err("lava job: device type %s needs --boot-method, --kernel-url, --ramdisk-url and -o FILE "
			       "(docs/lab.md)", o->device_type), VMR_EXIT_USAGE;
	if (!lava_boot_method_ok(o->boot_method))
		return vmr_err("lava job: --boot-method %s: vmregress writes jobs for %s (a ramdisk deployed by tftp; "
			       "for another, change the boot action as docs/lab.md says)", o->boot_method,
			       LAVA_BOOT_METHODS), VMR_EXIT_USAGE;
	bool type_ok = !o->kernel_type;
	for (size_t i = 0; i < 3 && !type_ok; i++)
		type_ok = !strcmp(o->kernel_type, types[i]);
	if (!type_ok)
		return vmr_err("lava job: --kernel-type %s: LAVA's tftp deploy takes image, zimage or uimage",
			       o->kernel_type), VMR_EXIT_USAGE;
	if (o->kernel)
		return vmr_err("lava job: --kernel is for qemu jobs; a board's job takes --kernel-url"), VMR_EXIT_USAGE;
	char *name = xasprintf("vmregress %s on %s", o->suite, o->device_type);
	struct lava_job j = { .name = name, .device_type = o->device_type, .boot_method = o->boot_method,
			      .kernel_type = o->kernel_type, .kernel_url = o->kernel_url, .ramdisk_url = o->ramdisk_url,
			      .dtb_url = o->dtb_url, .modules_url = o->modules_url, .append = o->append,
			      .timeout_min = o->timeout_min,
			      .test = { .suite = o->suite, .iterations = o->iterations, .db = o->fleet,
					.vmregress = o->vmregress ? o->vmregress : "/vmregress" } };
	int rc = lava_write_job(o, &j);
	if (rc == VMR_EXIT_OK)
		outcome_lava_board_job(stdout, o->output, o->device_type, o->boot_method);
	free(name);
	return rc;
}

static int lava_job_cmd(const struct lava_cmd *o)
{
	if (strcmp(o->device_type, "qemu"))
		return lava_board_job_cmd(o);
	if (o->kernel_url || o->ramdisk_url || o->dtb_url || o->modules_url || o->boot_method || o->kernel_type)
		return vmr_err("lava job: a qemu job deploys the files it writes itself: --kernel-url, --ramdisk-url, "
			       "--dtb-url, --modules-url, --boot-method and --kernel-type are for other device types"),
		       VMR_EXIT_USAGE;
	if (!o->kernel || !o->output)
		return vmr_err("lava job: needs --kernel and -o FILE (see --help)"), VMR_EXIT_USAGE;
	char *stat = lava_static_binary(o), *busybox = initramfs_find_busybox(), *suite = suite_find(o->suite);
	char *cache = lava_cache(o), *kcache = xasprintf("%s/kernels", cache);
	char *ramdisk = NULL, *disk = NULL, *prefix = NULL, *abs = NULL;
	struct vm_kernel k = { 0 };
	int rc = VMR_EXIT_CANNOT;
	if (!stat || !busybox) {
		vmr_err("lava job: no %s (run 'make', or install Debian's busybox-static)",
			!stat ? "statically linked vmregress" : "static busybox");
		goto free_all;
	}
	if (!suite || kernel_resolve(o->kernel, kcache, &k) < 0) {
		rc = VMR_EXIT_USAGE;
		goto free_all;
	}
	size_t len = strlen(o->output);
	prefix = len > 5 && !strcmp(o->output + len - 5, ".yaml") ? strndup(o->output, len - 5) : xstrdup(o->output);
	if (lava_job_files(prefix, stat, busybox, k.moddir, suite, o->disk, &ramdisk, &disk) < 0)
		goto free_all;
	char *kabs = realpath(k.vmlinuz, NULL), *rabs = realpath(ramdisk, NULL), *dabs = realpath(disk, NULL);
	char *ku = xasprintf("file://%s", kabs), *ru = xasprintf("file://%s", rabs), *du = xasprintf("file://%s", dabs);
	char *name = xasprintf("vmregress %s on %s", o->suite, k.version);
	struct lava_job j = { .name = name, .device_type = "qemu", .kernel_url = ku, .ramdisk_url = ru, .disk_url = du,
			      .append = o->append, .mem_bytes = o->mem, .cpus = (int)o->cpus, .timeout_min = o->timeout_min,
			      .test = { .suite = "/suite.ini", .iterations = o->iterations, .db = o->fleet,
					.vmregress = "/vmregress", .label = o->suite } };
	rc = lava_write_job(o, &j);
	if (rc == VMR_EXIT_OK)
		outcome_lava_job(stdout, o->output, k.version, ramdisk, disk);
	free(name), free(ku), free(ru), free(du), free(kabs), free(rabs), free(dabs);
free_all:
	kernel_free(&k);
	free(stat), free(busybox), free(suite), free(cache), free(kcache), free(ramdisk), free(disk), free(prefix), free(abs);
	return rc;
}

/* The device's own run, every iteration, from the JSON that lava attach
 * framed in the log; NULL when the log has none (or it is broken: then
 * the measurements stand in, with a warning). */
static struct run *lava_attached_run(const char *path, const struct lava_results *res, const char *name)
{
	char *text = NULL, why[256] = "";
	size_t len = 0;
	int a = lava_attached_json(res, &text, &len, why, sizeof(why));
	struct run *r = NULL;
	json_error_t err;
	json_t *j = a > 0 ? json_loadb(text, len, 0, &err) : NULL;
	const char *rwhy = a > 0 && !j ? err.text : why;
	if (j)
		r = run_from_json(j, &rwhy);
	if (!r && a != 0)
		vmr_warn("lava import: %s: %s; reading LAVA's measurements instead", path, rwhy);
	if (r)
		lava_results_tag(r, res, name, "run-json");
	json_decref(j);
	free(text);
	return r;
}

/* Read LAVA's results and store their run; *run_id its id. */
static int lava_import_one(const struct lava_cmd *o, struct store *st, const char *path, const char *job_id,
			   const char *device)
{
	char *text = NULL, why[256] = "";
	size_t len = 0;
	struct lava_results res = { 0 };
	int rc = VMR_EXIT_USAGE;
	if (vmr_read_file(path, &text, &len) < 0)
		return vmr_errno("lava import: cannot read %s", path), VMR_EXIT_USAGE;
	if (lava_results_read(text, len, &res, why, sizeof(why)) < 0) {
		vmr_err("lava import: %s: %s", path, why);
		goto free_text;
	}
	if (job_id) {
		free(res.job_id);
		res.job_id = xstrdup(job_id);
	}
	res.device = device ? xstrdup(device) : NULL;
	res.device_type = xstrdup(o->device_type);
	char *name = o->name ? xstrdup(o->name) : xasprintf("lava-%s", res.job_id ? res.job_id : "job");
	struct run *r = lava_attached_run(path, &res, name);
	bool whole = r != NULL;
	const char *jid = r ? json_string_value(json_object_get(json_object_get(r->env, "lava"), "job_id")) : NULL;
	if (r && !o->name && !res.job_id && jid) {  /* the job the device's run names */
		free(name);
		name = xasprintf("lava-%s", jid);
		free(r->info.name);
		r->info.name = xstrdup(name);
	}
	if (!r)
		r = lava_results_run(&res, name);
	if (r && o->emulated) {  /* as the matrix records its guests', so compare knows */
		json_t *l = json_object_get(r->env, "lava");
		if (!json_is_object(l))
			json_object_set_new(r->env, "lava", l = json_object());
		json_object_set_new(l, "accel", json_string("tcg"));
		json_object_set_new(l, "emulated", json_true());
	}
	if (!r) {
		vmr_err("lava import: %s holds no vmregress test case (LAVA's verdict on the job: %s)", path,
			res.job_result ? res.job_result : "none");
	} else {
		int64_t id;
		int s = store_import_run(st, r, &id);
		if (s >= 0)
			outcome_lava_import(stdout, path, r, s == 0, whole);
		rc = s < 0 ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
		run_free(r);
	}
	free(name);
	lava_results_free(&res);
free_text:
	free(text);
	return rc;
}

static int lava_import_cmd(const struct lava_cmd *o, char **paths, int n)
{
	struct store *st = NULL;
	char *db = cmd_db_path(o->db);
	int rc = store_open(&st, db, STORE_CREATE) < 0 ? VMR_EXIT_CANNOT : VMR_EXIT_OK;
	for (int i = 0; i < n && rc == VMR_EXIT_OK; i++)
		rc = lava_import_one(o, st, paths[i], o->job_id, o->device);
	if (st)
		store_close(st);
	free(db);
	return rc;
}

static int lava_run_local_cmd(const struct lava_cmd *o, const char *job)
{
	char *cache = lava_cache(o), *log = NULL;
	const char *tmpdir = getenv("TMPDIR");
	char *work = xasprintf("%s/vmregress-lava.%d.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp", (int)getpid());
	char *abs = realpath(job, NULL), *id = xasprintf("%d", (int)getpid());
	int rc = VMR_EXIT_CANNOT;
	if (!abs) {
		vmr_errno("lava run-local: %s", job);
		rc = VMR_EXIT_USAGE;
		goto free_all;
	}
	if (!mkdtemp(work)) {
		vmr_errno("lava run-local: cannot create a work directory");
		goto free_all;
	}
	double t0 = vmr_wall_s();
	const char *device = o->device ? o->device : "run-local";
	int lr = lava_local_run(abs, cache, work, id, device, &log);
	if (lr < 0)
		goto remove_work;
	fprintf(stderr, "vmregress: lava-run exited %d after %.1f s (its log: %s)\n", lr, vmr_wall_s() - t0, log);
	struct lava_cmd io = *o;
	io.device_type = "qemu";
	io.job_id = id;  /* lava-run's log does not name its job */
	io.device = (char *)device;
	io.emulated = true;  /* lava_local_run's device is QEMU under TCG */
	rc = lava_import_cmd(&io, &log, 1);
	if (lr != 0 && rc == VMR_EXIT_OK)
		rc = VMR_EXIT_FAIL;
remove_work:
	if (!o->keep)
		vmr_rm_rf(work);
free_all:
	free(cache), free(log), free(work), free(abs), free(id);
	return rc;
}

int cmd_lava(int argc, char **argv)
{
	struct lava_cmd o = { 0 };
	OPT_DEFAULTS(lava_cmd_opts, &o);
	struct optset set = { lava_cmd_opts, &o, NULL };
	char **pos = NULL;
	int npos = 0, rc = VMR_EXIT_USAGE;
	int p = cmd_parse("lava", &set, 1, argc, argv, &pos, &npos);
	if (p) {
		rc = p > 0 ? VMR_EXIT_OK : VMR_EXIT_USAGE;
		goto free_opts;
	}
	const char *sub = npos ? pos[0] : "";
	if (!strcmp(sub, "testdef") && npos == 1)
		rc = lava_testdef_cmd(&o);
	else if (!strcmp(sub, "job") && npos == 1)
		rc = lava_job_cmd(&o);
	else if (!strcmp(sub, "cases") && npos == 2)
		rc = lava_cases_cmd(&o, pos[1], false);
	else if (!strcmp(sub, "attach") && npos == 2)
		rc = lava_cases_cmd(&o, pos[1], true);
	else if (!strcmp(sub, "import") && npos >= 2)
		rc = lava_import_cmd(&o, pos + 1, npos - 1);
	else if (!strcmp(sub, "run-local") && npos == 2)
		rc = lava_run_local_cmd(&o, pos[1]);
	else
		vmr_err("lava: usage: vmregress %s", cmd_find("lava")->usage);
free_opts:
	opt_free(lava_cmd_opts, &o);
	free(pos);
	return rc;
}
