/* The kernel matrix's host side: see matrix.h. */
#include "vm/matrix.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/suite.h"
#include "vm/import.h"
#include "vm/initramfs.h"
#include "vm/modules.h"
#include "vm/selftests.h"
#include "vm/spawn.h"

/* Ctrl-C or a kill: stop the guest, keep what it said, remove the work
 * directory, exit. */
static volatile sig_atomic_t matrix_stop;

static void matrix_on_signal(int sig)
{
	matrix_stop = sig;
}

static void matrix_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = matrix_on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static const char *const matrix_faults[] = { NULL, "panic", "hang", "garbage" };

/* A test's own command or script instead of a suite: nothing to store. */
static bool matrix_adhoc(const struct matrix_opts *o)
{
	return o->guest_cmd || o->guest_script;
}

/* The static vmregress for guests: --static-binary, $VMR_STATIC, next to
 * this binary (vmregress-static, build/vmregress-static), or this binary
 * itself when it is static. */
static char *matrix_find_static(const struct matrix_opts *o)
{
	const char *env = getenv("VMR_STATIC");
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (o->static_bin)
		return access(o->static_bin, R_OK) == 0 ? xstrdup(o->static_bin) : NULL;
	if (env && *env)
		return access(env, R_OK) == 0 ? xstrdup(env) : NULL;
	if (n <= 0)
		return NULL;
	self[n] = '\0';
	char *dir = dirname(self);
	const char *cands[] = { "vmregress-static", "build/vmregress-static", "../libexec/vmregress/vmregress-static" };
	for (size_t i = 0; i < ARRAY_SIZE(cands); i++) {
		char *p = xasprintf("%s/%s", dir, cands[i]);
		if (access(p, R_OK) == 0)
			return p;
		free(p);
	}
	return NULL;
}

/* The vmregress arguments a guest runs. */
static void matrix_guest_args(const struct matrix_ctx *c, const char *label, struct strlist *args)
{
	const struct matrix_opts *o = c->o;

	if (o->guest_cmd) {
		char *copy = xstrdup(o->guest_cmd), *save = NULL;
		for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
			strlist_add(args, w);
		free(copy);
		return;
	}
	strlist_add(args, "run");
	strlist_add(args, "/suite.ini");
	strlist_add(args, "--quiet");
	strlist_add(args, "--db");
	strlist_add(args, "/tmp/results.db");
	strlist_add(args, "--name");
	strlist_add(args, label);
	if (o->iterations > 0) {
		char n[32];
		snprintf(n, sizeof(n), "%ld", o->iterations);
		strlist_add(args, "--iterations");
		strlist_add(args, n);
	}
}

/* The disk, and zram for guests and for suites that ask for zram swap.
 * The disk's ext2 is ext2's, or ext4's where ext2 is not built (Debian's
 * generic kernels, whose zswap the cloud ones lack); ext4 asks for crc32c
 * by its crypto name, which no module's depends= gives. */
const struct vm_module_want matrix_want[] = {
	{ "virtio_pci", true }, { "virtio_blk", false }, { "ext2", true }, { "crc32c_generic", true },
	{ "ext4", true }, { "zram", true }, { "lz4", true }, { "lzo_rle", true },
};

static int matrix_modules(const struct matrix_ctx *c, const struct vm_kernel *k, const char *dir,
			  struct vm_modules *mods)
{
	memset(mods, 0, sizeof(*mods));
	if (!k || !k->moddir) {
		if (k)
			vmr_warn("kernel %s: no module tree beside it; virtio-blk must be built in", k->spec);
		return 0;
	}
	if (vmr_mkdir_p(dir, NULL) < 0) {
		vmr_errno("cannot create %s", dir);
		return -1;
	}
	return modules_resolve(k->moddir, matrix_want, MATRIX_NWANT, dir, mods);
}

/* Build the initramfs for one guest into path. */
static int matrix_initramfs(const struct matrix_ctx *c, const struct vm_kernel *k, const char *label,
			    const char *path, struct matrix_guest *g)
{
	char *matched = NULL, *note = NULL;
	struct strlist args = { 0 };
	struct vm_modules mods = { 0 };
	char *moddir = xasprintf("%s/%s.modules", c->work, label), *script;
	int r;

	struct strlist extra = { 0 };
	char *in_guest = NULL;
	matrix_guest_args(c, label, &args);
	if (c->o->guest_script) {
		const char *base = strrchr(c->o->guest_script, '/');
		in_guest = xasprintf("/%s", base ? base + 1 : c->o->guest_script);
		strlist_add(&extra, c->o->guest_script);
	}
	for (size_t i = 0; i < c->o->guest_files.n; i++)
		strlist_add(&extra, c->o->guest_files.v[i]);
	if (c->suite_file)
		/* the kernel's selftests a suite runs, of the kernel's own version
		 * where the suite asks for that */
		selftests_guest_files(c->suite_file, k ? k->version : NULL, &extra, &matched, &note);
	if (g) {
		g->selftests = matched;
		g->selftests_note = note;
	} else {
		free(matched);
		free(note);
	}
	struct guest_plan plan = {
		.cmd = (const char *const *)args.v, .swap = c->o->swap, .swap_bytes = c->o->swap_size,
		.fault = matrix_faults[c->o->guest_fault], .db = matrix_adhoc(c->o) ? NULL : "/tmp/results.db",
		.script = in_guest,
	};
	r = matrix_modules(c, k, moddir, &mods);
	if (r == 0) {
		script = initramfs_init_script(&plan);
		r = initramfs_build(path, c->static_bin, c->busybox, &mods, script, c->suite_file,
				    (const char *const *)extra.v);
		free(script);
	}
	modules_free(&mods);
	strlist_free(&extra);
	free(in_guest);
	strlist_free(&args);
	free(moddir);
	return r;
}

static char *matrix_label(const struct vm_kernel *k, size_t ai, size_t nappend)
{
	char *l = nappend > 1 ? xasprintf("%s.%zu", k->version, ai + 1) : xstrdup(k->version);
	for (char *p = l; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || strchr("-_.+", *p)))
			*p = '_';
	return l;
}

static void matrix_fail(struct matrix_guest *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void matrix_fail(struct matrix_guest *g, const char *fmt, ...)
{
	va_list ap;

	g->status = "failed";
	free(g->reason);
	va_start(ap, fmt);
	if (vasprintf(&g->reason, fmt, ap) < 0)
		g->reason = NULL;
	va_end(ap);
}

/* Judge a finished guest from its console. */
static void matrix_judge(struct matrix_guest *g, const struct guest_outcome *out, uint64_t timeout)
{
	char why[256] = "", t[32];
	int pr = proto_parse(out->log, out->log_len, &g->frames, why, sizeof(why));
	const struct proto_frame *so = proto_find(&g->frames, "stdout");

	g->elapsed_s = out->elapsed_s;
	g->status = "complete";
	if (so)
		g->rc = so->rc;
	if (pr < 0)
		matrix_fail(g, "garbled results on the console: %s", why);
	else if (out->timed_out)
		matrix_fail(g, "watchdog: no results within %s", units_format_time(t, sizeof(t), timeout));
	else if (out->panicked && !g->frames.done)
		matrix_fail(g, "the guest kernel panicked");
	else if (!g->frames.done)
		matrix_fail(g, "the guest stopped before sending its results (%s)",
			    out->exit_status == 0 ? "qemu exited" : "qemu failed");
	else if (!so)
		matrix_fail(g, "the guest sent no output frame");
	else if (so->rc == VMR_EXIT_FAIL)
		g->reason = xstrdup("a test failed in the guest");
	else if (so->rc != 0)
		matrix_fail(g, "the command in the guest exited %d (see its stderr)", so->rc);
}

/* Keep what a guest sent: LABEL.stdout, LABEL.stderr, LABEL.dmesg, ... */
static void matrix_keep_frames(const struct matrix_ctx *c, const struct matrix_guest *g)
{
	for (size_t i = 0; i < g->frames.n; i++) {
		const struct proto_frame *f = &g->frames.frames[i];
		char *p = xasprintf("%s/%s.%s", c->log_dir, g->label, f->label);
		if (vmr_write_atomic(p, f->data, f->len, 0644) < 0)
			vmr_warn("cannot write %s: %s", p, strerror(errno));
		free(p);
	}
}

static json_t *matrix_facts(const struct matrix_ctx *c, const struct matrix_guest *g)
{
	json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:b, s:s, s:s}", "name", c->o->name, "kernel", g->k->spec,
			      "kernel_release", g->k->version, "accel", c->accel == GUEST_ACCEL_KVM ? "kvm" : "tcg",
			      "emulated", c->accel != GUEST_ACCEL_KVM, "append", g->append ? g->append : "",
			      "console_log", g->log_path);
	json_object_set_new(m, "mem_bytes", json_integer((json_int_t)c->o->mem));
	json_object_set_new(m, "cpus", json_integer(c->o->cpus));
	json_object_set_new(m, "numa_tiered", json_boolean(c->o->numa_tiered));
	json_object_set_new(m, "disk_write_rate", json_integer((json_int_t)c->o->disk_write_rate));
	json_object_set_new(m, "reason", g->reason ? json_string(g->reason) : json_null());
	if (g->selftests) {  /* which kernel's selftests it ran, and why those */
		json_object_set_new(m, "selftests", json_string(g->selftests));
		json_object_set_new(m, "selftests_match", json_string(g->selftests_note));
	}
	return m;
}

/* Store the guest's run (or a failed run when nothing usable came home). */
static int matrix_store(struct matrix_ctx *c, struct matrix_guest *g)
{
	const struct proto_frame *db = proto_find(&g->frames, "db");
	const struct matrix_store_as *as = c->o->store_as;
	char *name = as ? xstrdup(as->run_name) : xasprintf("%s-%s", c->o->name, g->label);
	const char *suite = as ? as->suite : c->o->suite;
	json_t *facts = matrix_facts(c, g);
	int r;

	if (db && !strcmp(g->status, "complete")) {
		char *path = xasprintf("%s/%s.db", c->work, g->label);
		r = vmr_write_atomic(path, db->data, db->len, 0600);
		if (r < 0)
			vmr_errno("cannot write %s", path);
		else
			r = import_guest_run_group(c->st, path, name, suite, c->o->name, as ? as->group : NULL,
						   facts, &g->run_id);
		unlink(path);
		free(path);
	} else {
		if (!strcmp(g->status, "complete"))
			matrix_fail(g, "the guest sent no results store");
		json_object_set_new(facts, "reason", json_string(g->reason));
		r = import_failed_run(c->st, name, suite, c->o->name, as ? as->group : NULL, facts, &g->run_id);
	}
	json_decref(facts);
	free(name);
	return r;
}

static int matrix_run_guest(struct matrix_ctx *c, struct matrix_guest *g)
{
	char *initrd = xasprintf("%s/%s.cpio", c->work, g->label), *disk = NULL;
	/* Under emulation on a loaded host the kernel's check that the timer
	 * interrupt arrives through the IO-APIC can time out and panic ("IO-APIC
	 * + timer doesn't work"); a KVM guest skips that check by itself. */
	/* a hugetlb pool for the selftests that map hugetlb pages, reserved
	 * at the guest's boot: the host's is never touched */
	unsigned pool = c->suite_file ? selftests_hugetlb_pool(c->suite_file, c->o->mem) : 0;
	char hugepages[32] = "";
	if (pool)
		snprintf(hugepages, sizeof(hugepages), " hugepages=%u", pool);
	char *append = xasprintf("console=ttyS0 panic=-1 quiet%s%s%s%s", c->accel == GUEST_ACCEL_TCG ? " no_timer_check" : "",
				 hugepages, g->append ? " " : "", g->append ? g->append : "");
	struct guest_outcome out = { 0 };
	int r = -1;

	g->rc = -1;
	g->log_path = xasprintf("%s/%s.console.log", c->log_dir, g->label);
	if (matrix_initramfs(c, g->k, g->label, initrd, g) < 0)
		goto free_paths;
	disk = xasprintf("%s/%s.disk", c->work, g->label);
	if (vmr_write_atomic(disk, "", 0, 0600) < 0 || truncate(disk, (off_t)c->o->disk_size) < 0) {
		vmr_errno("cannot create guest disk %s", disk);
		goto free_paths;
	}
	struct guest_config cfg = {
		.kernel = g->k->vmlinuz, .initrd = initrd, .append = append, .disk = disk,
		.disk_write_bps = c->o->disk_write_rate, .log_path = g->log_path, .mem_bytes = c->o->mem, .cpus = (int)c->o->cpus, .accel = c->accel,
		.timeout_ns = c->o->timeout, .stop = &matrix_stop, .numa_tiered = c->o->numa_tiered,
	};
	if (!c->o->json)
		fprintf(stderr, "vmregress: booting %s%s%s under %s\n", g->k->spec, g->append ? " with " : "",
			g->append ? g->append : "", c->accel == GUEST_ACCEL_KVM ? "kvm" : "tcg");
	if (guest_run(&cfg, &out) < 0)
		goto free_paths;
	matrix_judge(g, &out, c->o->timeout);
	if (out.stopped)
		matrix_fail(g, "interrupted by signal %d", (int)matrix_stop);
	matrix_keep_frames(c, g);
	if (c->st && matrix_store(c, g) < 0)
		goto free_paths;
	guest_outcome_free(&out);
	r = 0;
free_paths:
	if (disk && !c->o->keep)
		unlink(disk);  /* sparse, but it may hold gigabytes of swap now */
	if (!c->o->keep)
		unlink(initrd);
	free(disk);
	free(initrd);
	free(append);
	return r;
}

static char *matrix_default_name(void)
{
	char buf[64];
	time_t t = time(NULL);
	struct tm tm = { 0 };

	strftime(buf, sizeof(buf), "matrix-%Y%m%d-%H%M%S", localtime_r(&t, &tm));
	return xstrdup(buf);
}

static char *matrix_default_log_dir(const char *name)
{
	const char *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (x && *x == '/')
		return xasprintf("%s/vmregress/matrix/%s", x, name);
	return xasprintf("%s/.local/share/vmregress/matrix/%s", home && *home ? home : "/root", name);
}

/* Work directories of matrix processes that died (kill -9) hold guest
 * disks that may be gigabytes: remove those whose owner is gone. */
static void matrix_sweep_stale(const char *tmp)
{
	DIR *d = opendir(tmp);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		int pid, end = 0;
		if (sscanf(e->d_name, "vmregress-matrix.%d.%*6[A-Za-z0-9]%n", &pid, &end) != 1 || !end ||
		    e->d_name[end] || pid <= 0 || pid == getpid())
			continue;
		if (kill(pid, 0) < 0 && errno == ESRCH) {
			char *p = xasprintf("%s/%s", tmp, e->d_name);
			vmr_rm_rf(p);
			free(p);
		}
	}
	if (d)
		closedir(d);
}

/* Find the guest's ingredients and the accelerator; make the directories. */
static int matrix_prepare(struct matrix_ctx *c)
{
	struct matrix_opts *o = c->o;
	const char *tmp = getenv("TMPDIR");

	if (!(c->static_bin = matrix_find_static(o))) {
		vmr_err("matrix: no statically linked vmregress for the guests (run 'make' in the source "
			"tree, which builds build/vmregress-static, or give --static-binary)");
		return VMR_EXIT_CANNOT;
	}
	if (!(c->busybox = initramfs_find_busybox())) {
		vmr_err("matrix: no static busybox (install Debian's busybox-static or set VMR_BUSYBOX)");
		return VMR_EXIT_CANNOT;
	}
	if (!matrix_adhoc(o) && !(c->suite_file = suite_find(o->suite)))
		return VMR_EXIT_USAGE;
	matrix_sweep_stale(tmp && *tmp ? tmp : "/tmp");
	c->work = xasprintf("%s/vmregress-matrix.%d.XXXXXX", tmp && *tmp ? tmp : "/tmp", (int)getpid());
	if (!mkdtemp(c->work)) {
		vmr_errno("cannot create a work directory in %s", tmp && *tmp ? tmp : "/tmp");
		free(c->work);
		c->work = NULL;
		return VMR_EXIT_CANNOT;
	}
	return VMR_EXIT_OK;
}

/* Boot k under KVM with an init that only says VMR-DONE: a KVM that runs
 * a few instructions may still fail on a real kernel. */
static bool matrix_kvm_boots(struct matrix_ctx *c, const struct vm_kernel *k)
{
	struct guest_plan plan = { .cmd = NULL };
	char *initrd = xasprintf("%s/kvm-probe.cpio", c->work), *script = initramfs_init_script(&plan);
	struct guest_outcome out = { 0 };
	bool ok = false;

	if (initramfs_build(initrd, c->static_bin, c->busybox, NULL, script, NULL, NULL) == 0) {
		struct guest_config cfg = {
			.kernel = k->vmlinuz, .initrd = initrd, .append = "console=ttyS0 panic=-1 quiet",
			.mem_bytes = 256 << 20, .cpus = 1, .accel = GUEST_ACCEL_KVM, .timeout_ns = 20 * 1000000000ull,
		};
		if (guest_run(&cfg, &out) == 0) {
			ok = out.done_seen && !out.kvm_failed;
			snprintf(c->accel_why, sizeof(c->accel_why), "a test guest %s under kvm",
				 out.kvm_failed ? "hit a KVM internal error" : out.timed_out ? "hung" : "failed");
		}
		guest_outcome_free(&out);
	}
	unlink(initrd);
	free(script);
	free(initrd);
	return ok;
}

/* The probe guest costs its timeout on a host whose KVM hangs, so its
 * verdict is kept in the cache for as long as the host stays up (the boot
 * id changes on reboot). */
static char *matrix_verdict_path(const struct matrix_ctx *c)
{
	char *cache = c->o->cache ? xstrdup(c->o->cache) : kernel_default_cache();
	char *p = xasprintf("%s/kvm-verdict", cache);
	free(cache);
	return p;
}

static bool matrix_kvm_verdict(struct matrix_ctx *c, const struct vm_kernel *k)
{
	char *path = matrix_verdict_path(c), *boot = NULL, *old = NULL, *line;
	bool ok;

	vmr_read_line("/proc/sys/kernel/random/boot_id", &boot);
	if (boot && vmr_read_line(path, &old) == 0 && !strncmp(old, boot, strlen(boot)) &&
	    old[strlen(boot)] == ' ') {
		ok = old[strlen(boot) + 1] == '1';
		snprintf(c->accel_why, sizeof(c->accel_why), "%s", old + strlen(boot) + 2 + !ok);
		goto free_paths;
	}
	ok = matrix_kvm_boots(c, k);
	line = xasprintf("%s %d %s\n", boot ? boot : "-", ok, ok ? "" : c->accel_why);
	if (boot && vmr_mkdir_parent(path, NULL) == 0)
		vmr_write_atomic(path, line, strlen(line), 0644);
	free(line);
free_paths:
	free(old);
	free(boot);
	free(path);
	return ok;
}

static int matrix_accel(struct matrix_ctx *c, const struct vm_kernel *k)
{
	enum guest_accel want = c->o->accel == 1 ? GUEST_ACCEL_KVM : c->o->accel == 2 ? GUEST_ACCEL_TCG
						      : GUEST_ACCEL_AUTO;
	if (guest_pick_accel(want, &c->accel, c->accel_why, sizeof(c->accel_why)) == 0 &&
	    c->accel == GUEST_ACCEL_KVM && !matrix_kvm_verdict(c, k))
		c->accel = GUEST_ACCEL_TCG;
	if (want == GUEST_ACCEL_KVM && c->accel != GUEST_ACCEL_KVM) {
		vmr_err("--accel kvm: kvm cannot run guests here: %s", c->accel_why);
		return VMR_EXIT_CANNOT;
	}
	if (c->accel == GUEST_ACCEL_TCG && want == GUEST_ACCEL_AUTO)
		vmr_warn("kvm cannot run guests here (%s): using tcg emulation, times will be slow", c->accel_why);
	return VMR_EXIT_OK;
}

static int matrix_resolve_kernels(struct matrix_ctx *c, struct vm_kernel *ks)
{
	char *cache = c->o->cache ? xstrdup(c->o->cache) : kernel_default_cache();
	int r = VMR_EXIT_OK;

	for (size_t i = 0; i < c->o->kernels.n && r == VMR_EXIT_OK; i++) {
		int kr = kernel_resolve(c->o->kernels.v[i], cache, &ks[i]);
		if (kr < 0)
			r = kr == -3 ? VMR_EXIT_CANNOT : VMR_EXIT_USAGE;
	}
	free(cache);
	return r;
}

static int matrix_only_initramfs(struct matrix_ctx *c, struct vm_kernel *k)
{
	return matrix_initramfs(c, k, k ? k->version : "none", c->o->build_initramfs, NULL) < 0 ? VMR_EXIT_CANNOT
											 : VMR_EXIT_OK;
}

static int matrix_run_all(struct matrix_ctx *c, struct vm_kernel *ks)
{
	size_t na = c->o->appends.n ? c->o->appends.n : 1, n = c->o->kernels.n * na;
	struct matrix_guest *g = xcalloc(n, sizeof(*g));
	int r = VMR_EXIT_OK;

	c->log_dir = c->o->log_dir ? xstrdup(c->o->log_dir) : matrix_default_log_dir(c->o->name);
	if (vmr_mkdir_p(c->log_dir, NULL) < 0) {
		vmr_errno("cannot create %s", c->log_dir);
		r = VMR_EXIT_CANNOT;
	}
	if (r == VMR_EXIT_OK && !matrix_adhoc(c->o)) {
		char *path = c->o->db ? xstrdup(c->o->db) : store_default_path();
		int e = store_open(&c->st, path, STORE_CREATE);
		if (e < 0)
			r = e == -2 ? VMR_EXIT_USAGE : VMR_EXIT_CANNOT;
		free(path);
	}
	for (size_t i = 0; i < n && r == VMR_EXIT_OK && !matrix_stop; i++) {
		g[i].k = &ks[i / na];
		g[i].append = c->o->appends.n ? c->o->appends.v[i % na] : NULL;
		g[i].label = matrix_label(g[i].k, i % na, na);
		if (matrix_run_guest(c, &g[i]) < 0)
			r = VMR_EXIT_CANNOT;
	}
	if (r == VMR_EXIT_OK && matrix_stop) {
		vmr_err("matrix: interrupted by signal %d", (int)matrix_stop);
		r = 128 + matrix_stop;
	} else if (r == VMR_EXIT_OK) {
		r = c->report(c, g, n);
	}
	if (c->st)
		store_close(c->st);
	for (size_t i = 0; i < n; i++) {
		free(g[i].label);
		free(g[i].reason);
		free(g[i].selftests);
		free(g[i].selftests_note);
		free(g[i].log_path);
		proto_result_free(&g[i].frames);
	}
	free(g);
	return r;
}

int matrix_host(struct matrix_opts *o, matrix_report_fn report)
{
	struct matrix_ctx c = { .o = o, .report = report };
	struct vm_kernel *ks = xcalloc(o->kernels.n + 1, sizeof(*ks));
	int r;

	if (!o->name)
		o->name = matrix_default_name();
	if ((r = matrix_prepare(&c)) != VMR_EXIT_OK)
		goto free_ctx;
	if ((r = matrix_resolve_kernels(&c, ks)) != VMR_EXIT_OK)
		goto remove_work;
	matrix_catch_signals();
	if (o->build_initramfs)
		r = matrix_only_initramfs(&c, o->kernels.n ? &ks[0] : NULL);
	else if ((r = matrix_accel(&c, &ks[0])) == VMR_EXIT_OK)
		r = matrix_run_all(&c, ks);
remove_work:
	if (!o->keep)
		vmr_rm_rf(c.work);
	else if (!o->json)
		fprintf(stderr, "vmregress: work directory kept: %s\n", c.work);
free_ctx:
	for (size_t i = 0; i < o->kernels.n; i++)
		kernel_free(&ks[i]);
	free(ks);
	free(c.work);
	free(c.static_bin);
	free(c.busybox);
	free(c.log_dir);
	free(c.suite_file);
	return r;
}
