/* The test definition, the helper calls and the job: see lava.h. */
#include "vm/lava.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/util.h"
#include "vm/proto.h"
#include "workload/workload.h"

#define LAVA_DB "/tmp/vmregress-lava.db"

/* A YAML single-quoted scalar. */
static void lava_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* A word of a shell command line, quoted when it needs to be. */
static void lava_shell_word(FILE *f, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+@%,") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (strchr("\"\\$`", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void lava_step(FILE *f, int indent, const char *step)
{
	fprintf(f, "%*s- ", indent, "");
	lava_quote(f, step);
	fputc('\n', f);
}

/* A LAVA test case or set name: letters, digits, '-', '_' and '.'. */
static char *lava_name(const char *s)
{
	char *n = xstrdup(s && *s ? s : "unnamed");
	for (char *c = n; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", *c))
			*c = '_';
	return n;
}

void lava_testdef_write(FILE *f, const struct lava_testdef *t, int indent)
{
	const char *vmr = t->vmregress ? t->vmregress : "vmregress";
	const char *label = t->label ? t->label : t->suite;
	char *suite_base = lava_name(strrchr(label, '/') ? strrchr(label, '/') + 1 : label);
	char *dot = strstr(suite_base, ".ini");
	if (dot && !dot[4])
		*dot = '\0';
	fprintf(f, "%*smetadata:\n%*s  format: Lava-Test Test Definition 1.0\n%*s  name: vmregress-%s\n", indent, "",
		indent, "", indent, "", suite_base);
	fprintf(f, "%*s  description: ", indent, "");
	char *desc = xasprintf("vmregress, the %s suite: a test set per case, a measurement per headline metric", label);
	lava_quote(f, desc);
	free(desc);
	fprintf(f, "\n%*s  os: [debian]\n%*s  scope: [performance]\n", indent, "", indent, "");
	fprintf(f, "%*srun:\n%*s  steps:\n", indent, "", indent, "");
	char *buf = NULL;
	size_t len = 0;
	FILE *s = open_memstream(&buf, &len);
	lava_shell_word(s, vmr);
	fputs(" run ", s);
	lava_shell_word(s, t->suite);
	/* LAVA exports its job's id to the test shell: the run is named after
	 * it, and keeps it, the device and its type in its environment */
	fprintf(s, " --quiet --db %s --name lava-${LAVA_JOB_ID:-local}-%s", LAVA_DB, suite_base);
	fputs(" --lava \"job_id=${LAVA_JOB_ID:-}\" --lava \"device=${" LAVA_ENV_DEVICE ":-}\""
	      " --lava \"device_type=${" LAVA_ENV_DEVICE_TYPE ":-}\"", s);
	if (t->iterations > 0)
		fprintf(s, " --iterations %ld", t->iterations);
	/* a failed case is reported as a failed test case, not as a stopped run */
	fputs(" || echo \"vmregress run exited $?\"", s);
	fclose(s);
	lava_step(f, indent + 2, buf);
	free(buf);
	s = open_memstream(&buf, &len);
	lava_shell_word(s, vmr);
	fprintf(s, " lava cases last --db %s > /tmp/vmregress-lava.sh", LAVA_DB);
	fclose(s);
	lava_step(f, indent + 2, buf);
	free(buf);
	lava_step(f, indent + 2, ". /tmp/vmregress-lava.sh");
	/* the run's JSON, every iteration, framed in the log for lava import */
	s = open_memstream(&buf, &len);
	lava_shell_word(s, vmr);
	fprintf(s, " lava attach last --db %s", LAVA_DB);
	fclose(s);
	lava_step(f, indent + 2, buf);
	free(buf);
	if (t->db) {
		s = open_memstream(&buf, &len);
		lava_shell_word(s, vmr);
		fprintf(s, " push last --db %s --to ", LAVA_DB);
		lava_shell_word(s, t->db);
		fclose(s);
		lava_step(f, indent + 2, buf);
		free(buf);
	}
	free(suite_base);
}

json_t *lava_env_parse(const struct strlist *kv)
{
	static const char *const keys[] = { "job_id", "device", "device_type" };
	json_t *o = json_object();
	for (size_t i = 0; i < kv->n; i++) {
		const char *eq = strchr(kv->v[i], '=');
		size_t k = 0, n = eq ? (size_t)(eq - kv->v[i]) : 0;
		while (k < 3 && (strlen(keys[k]) != n || strncmp(keys[k], kv->v[i], n)))
			k++;
		if (k == 3) {
			vmr_err("--lava %s: not KEY=VALUE with KEY job_id, device or device_type", kv->v[i]);
			json_decref(o);
			return NULL;
		}
		if (eq[1])
			json_object_set_new(o, keys[k], json_string(eq + 1));
	}
	return o;
}

struct lava_gz {
	z_stream zs;
	unsigned char *out;
	size_t cap;
	bool failed;
};

struct lava_gz *lava_gz_new(void)
{
	struct lava_gz *g = xcalloc(1, sizeof(*g));
	*g = (struct lava_gz){ .cap = 1 << 16 };
	if (deflateInit2(&g->zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return NULL;
	}
	g->out = xmalloc(g->cap);
	return g;
}

/* Deflate text[0..len) (flush Z_NO_FLUSH or Z_FINISH) into g->out,
 * grown as it fills. */
static void lava_gz_deflate(struct lava_gz *g, const char *text, size_t len, int flush)
{
	g->zs.next_in = (Bytef *)text;
	g->zs.avail_in = (uInt)len;
	for (;;) {
		if (g->zs.total_out == g->cap)
			g->out = xrealloc(g->out, g->cap *= 2);
		g->zs.next_out = g->out + g->zs.total_out;
		g->zs.avail_out = (uInt)(g->cap - g->zs.total_out);
		int z = deflate(&g->zs, flush);
		if (z == Z_STREAM_END || (flush == Z_NO_FLUSH && !g->zs.avail_in && g->zs.avail_out))
			return;
		if (z != Z_OK && z != Z_BUF_ERROR) {
			g->failed = true;
			return;
		}
	}
}

void lava_gz_add(struct lava_gz *g, const char *text, size_t len)
{
	if (!g->failed)
		lava_gz_deflate(g, text, len, Z_NO_FLUSH);
}

int lava_gz_emit(FILE *f, struct lava_gz *g)
{
	if (!g)
		return errno = ENOMEM, -1;
	if (!g->failed)
		lava_gz_deflate(g, "", 0, Z_FINISH);
	int r = g->failed ? (errno = EIO, -1) : proto_emit(f, LAVA_RUN_FRAME, 0, g->out, g->zs.total_out);
	lava_gz_free(g);
	return r;
}

void lava_gz_free(struct lava_gz *g)
{
	if (!g)
		return;
	deflateEnd(&g->zs);
	free(g->out);
	free(g);
}

/* pass, fail or skip for a case: fail if an iteration did not pass and
 * was not skipped, skip if none ran. */
static const char *lava_case_result(const struct run_case *c)
{
	bool pass = false;
	for (size_t k = 0; k < c->niter; k++) {
		if (c->iters[k].outcome == OUTCOME_PASS)
			pass = true;
		else if (c->iters[k].outcome != OUTCOME_SKIP)
			return "fail";
	}
	return pass ? "pass" : "skip";
}

/* The mean of a metric over the case's passing iterations, by its combine
 * rule; false when none passed. */
static bool lava_metric_mean(const struct run_case *c, const char *name, double *mean, const char **unit)
{
	double sum = 0, inv = 0;
	size_t n = 0;
	enum combine comb = COMBINE_AMEAN;
	for (size_t k = 0; k < c->niter; k++) {
		const struct metric *m = result_find_metric(&c->iters[k], name);
		if (c->iters[k].outcome != OUTCOME_PASS || !m || !isfinite(m->value))
			continue;
		sum += m->value;
		inv += m->value != 0 ? 1 / m->value : INFINITY;
		comb = m->combine;
		*unit = m->unit;
		n++;
	}
	if (!n)
		return false;
	*mean = comb == COMBINE_HMEAN ? (isfinite(inv) ? (double)n / inv : 0) : sum / (double)n;
	return isfinite(*mean);
}

static void lava_case_write(FILE *f, const struct run_case *c)
{
	char *cname = lava_name(c->name);
	fprintf(f, "lava-test-set start %s\n", cname);
	fprintf(f, "lava-test-case %s --result %s\n", cname, lava_case_result(c));
	const struct result *first = NULL;
	for (size_t k = 0; k < c->niter && !first; k++)
		if (c->iters[k].nmetrics)
			first = &c->iters[k];
	for (size_t m = 0; first && m < first->nmetrics; m++) {
		const char *name = first->metrics[m].name, *unit = NULL;
		double mean;
		if (!c->workload || !workload_metric_headline(c->workload, name) || !lava_metric_mean(c, name, &mean, &unit))
			continue;
		char *mname = lava_name(name), *uname = lava_name(unit && *unit ? unit : "none");
		fprintf(f, "lava-test-case %s.%s --result pass --measurement %.10g --units %s\n", cname, mname, mean, uname);
		free(mname);
		free(uname);
	}
	fprintf(f, "lava-test-set stop %s\n", cname);
	free(cname);
}

void lava_cases_write(FILE *f, const struct run *r)
{
	fputs("# LAVA's helpers for a vmregress run (vmregress lava cases)\n", f);
	for (size_t c = 0; c < r->ncases; c++)
		lava_case_write(f, &r->cases[c]);
	if (r->info.uuid)
		fprintf(f, "lava-test-reference vmregress-run --result pass --reference urn:uuid:%s\n", r->info.uuid);
}

bool lava_boot_method_ok(const char *method)
{
	static const char *const methods[] = { "u-boot", "ipxe", "grub", "barebox", "depthcharge" };
	for (size_t i = 0; method && i < sizeof(methods) / sizeof(methods[0]); i++)
		if (!strcmp(method, methods[i]))
			return true;
	return false;
}

/* A deployed file: its URL, and its compression from its name's end. */
static void lava_url(FILE *f, const char *key, const char *url, bool compressed)
{
	static const char *const ends[][2] = { { ".gz", "gz" }, { ".xz", "xz" }, { ".bz2", "bz2" }, { ".zst", "zstd" } };
	fprintf(f, "    %s:\n      url: ", key);
	lava_quote(f, url);
	fputc('\n', f);
	size_t n = strlen(url);
	for (size_t i = 0; compressed && i < sizeof(ends) / sizeof(ends[0]); i++)
		if (n > strlen(ends[i][0]) && !strcmp(url + n - strlen(ends[i][0]), ends[i][0]))
			fprintf(f, "      compression: %s\n", ends[i][1]);
}

/* The deploy and boot of the matrix's guest under LAVA's qemu device type. */
static void lava_job_qemu(FILE *f, const struct lava_job *j)
{
	fprintf(f, "context:\n  arch: amd64\n  memory: %llu\n  extra_options: ['-smp %d']\n",
		(unsigned long long)(j->mem_bytes >> 20), j->cpus);
	char *append = xasprintf("console=ttyS0,115200 rdinit=/init panic=-1%s%s", j->append ? " " : "",
				 j->append ? j->append : "");
	char *karg = xasprintf("-kernel {kernel} -append \"%s\"", append);
	fputs("actions:\n- deploy:\n    to: tmpfs\n    timeout: {minutes: 5}\n    images:\n      kernel:\n        image_arg: ", f);
	lava_quote(f, karg);
	fputs("\n        url: ", f);
	lava_quote(f, j->kernel_url);
	fputs("\n      ramdisk:\n        image_arg: '-initrd {ramdisk}'\n        url: ", f);
	lava_quote(f, j->ramdisk_url);
	fputs("\n        compression: gz\n        format: cpio.newc\n        overlays:\n          lava: true\n", f);
	fputs("      disk:\n        image_arg: '-drive format=raw,if=virtio,file={disk}'\n        url: ", f);
	lava_quote(f, j->disk_url);
	fputs("\n        compression: gz\n- boot:\n    method: qemu\n    media: tmpfs\n    timeout: {minutes: 5}\n    prompts: ['/tmp # ', '/ # ']\n", f);
	free(karg);
	free(append);
}

/* A board's: the files by tftp (LAVA adds its test overlay to the
 * ramdisk, with a u-boot header for bootm's uImage), booted by the
 * method's `ramdisk` commands of the device type, the console and root
 * arguments the device type's, the command line's rest in the context. */
static void lava_job_board(FILE *f, const struct lava_job *j)
{
	if (j->append) {
		fputs("context:\n  extra_kernel_args: ", f);
		lava_quote(f, j->append);
		fputc('\n', f);
	}
	fputs("actions:\n- deploy:\n    to: tftp\n    timeout: {minutes: 10}\n", f);
	lava_url(f, "kernel", j->kernel_url, false);
	if (j->kernel_type)
		fprintf(f, "      type: %s\n", j->kernel_type);
	lava_url(f, "ramdisk", j->ramdisk_url, true);
	if (j->kernel_type && !strcmp(j->kernel_type, "uimage"))
		fputs("      header: u-boot\n", f);
	if (j->dtb_url)
		lava_url(f, "dtb", j->dtb_url, false);
	if (j->modules_url)
		lava_url(f, "modules", j->modules_url, true);
	fprintf(f, "- boot:\n    method: %s\n    commands: ramdisk\n    timeout: {minutes: 10}\n"
		   "    prompts: ['/tmp # ', '/ # ']\n", j->boot_method);
}

void lava_job_write(FILE *f, const struct lava_job *j)
{
	bool qemu = !strcmp(j->device_type, "qemu");
	fputs("# A LAVA v2 job written by vmregress lava job (docs/lab.md)\njob_name: ", f);
	lava_quote(f, j->name);
	fputs("\ndevice_type: ", f);
	lava_quote(f, j->device_type);
	fprintf(f, "\nvisibility: public\npriority: medium\n"
		   "timeouts:\n  job: {minutes: %ld}\n  action: {minutes: %ld}\n  connection: {minutes: 2}\n",
		j->timeout_min, j->timeout_min);
	/* exported to the test shell: the device's run records it */
	fputs("environment:\n  " LAVA_ENV_DEVICE_TYPE ": ", f);
	lava_quote(f, j->device_type);
	fputc('\n', f);
	if (qemu)
		lava_job_qemu(f, j);
	else
		lava_job_board(f, j);
	fprintf(f, "- test:\n    timeout: {minutes: %ld}\n    definitions:\n    - from: inline\n      name: vmregress\n"
		   "      path: inline/vmregress.yaml\n      repository:\n", j->timeout_min);
	lava_testdef_write(f, &j->test, 8);
}
