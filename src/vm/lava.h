/* vmregress in a LAVA lab (Linaro's Automated Validation Architecture):
 * the test definition a device under test runs, the job that boots a
 * kernel with vmregress in its ramdisk and runs it, and the results LAVA
 * gives back, read into runs.
 *
 * The test definition (Lava-Test Test Definition 1.0) runs a suite with the
 * device's vmregress, then has `vmregress lava cases` turn the stored run
 * into LAVA's own helpers: per case a `lava-test-set`, a `lava-test-case
 * CASE --result pass|fail|skip`, and a `lava-test-case CASE.METRIC
 * --measurement VALUE --units UNIT` per headline metric (the mean of the
 * passing iterations); a `lava-test-reference vmregress-run --reference
 * urn:uuid:UUID` names the run, so that an import recognises a run the
 * device pushed to a fleet store itself (`--db`).
 *
 * The job (LAVA v2) for device type qemu deploys the kernel and a gzipped
 * newc ramdisk (busybox, the static vmregress, the suite as /suite.ini, the
 * modules the matrix loads; LAVA adds its test overlay to it) and a raw
 * disk for the sandbox's swap files, boots them with the matrix's guest
 * layout (memory, CPUs, cgroup v2, the disk as the sandbox's state), and
 * runs the definition inline. */
#ifndef VMR_LAVA_H
#define VMR_LAVA_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/run.h"
#include "core/strlist.h"

struct lava_testdef {
	const char *suite;        /* a name or a file on the device */
	long iterations;          /* 0: the suite's */
	const char *db;           /* a fleet store the device pushes the run to, or NULL */
	const char *vmregress;    /* the device's vmregress: "/vmregress" in our ramdisk */
	const char *label;        /* the suite's name, when suite is a path; NULL: from suite */
};

/* The definition's YAML, with the metadata, and the run steps indented by
 * indent spaces (0 for a file of its own). */
void lava_testdef_write(FILE *f, const struct lava_testdef *t, int indent);

/* The environment variables the definition reads on the device.  LAVA's
 * dispatcher (lava_dispatcher/actions/deploy/overlay.py) exports to the
 * test shell its job's id as LAVA_JOB_ID, the device dictionary's
 * `environment` and the job's `environment`, and no device name or type:
 * the job names its device type in its environment, a lab names each
 * device in its device dictionary's (docs/lab.md). */
#define LAVA_ENV_DEVICE "VMREGRESS_LAVA_DEVICE"
#define LAVA_ENV_DEVICE_TYPE "VMREGRESS_LAVA_DEVICE_TYPE"

/* `run --lava KEY=VALUE...` (job_id, device, device_type) as the object
 * stored under "lava" in the run's environment; an empty value is left
 * out.  NULL after a one-line error for another key or no '='. */
json_t *lava_env_parse(const struct strlist *kv);

/* The lines `vmregress lava cases RUN` prints: a shell script of LAVA
 * helper calls for a stored run (see above). */
void lava_cases_write(FILE *f, const struct run *r);

struct lava_job {
	const char *name;
	const char *device_type;  /* qemu, or a board's: then deployed by tftp */
	const char *boot_method;  /* not qemu: u-boot, ipxe, grub, barebox, depthcharge */
	const char *kernel_type;  /* not qemu: image, zimage, uimage, or NULL */
	const char *kernel_url, *ramdisk_url, *disk_url;  /* file:// or http(s):// */
	const char *dtb_url, *modules_url;                /* not qemu, or NULL */
	const char *append;       /* more kernel command line, or NULL */
	uint64_t mem_bytes;
	int cpus;
	long timeout_min;         /* the job's */
	struct lava_testdef test;
};

/* A LAVA v2 job: for device type qemu, the matrix's guest; for another,
 * the kernel, ramdisk (and dtb, modules) deployed by tftp and booted by
 * the boot method's `ramdisk` commands of the device type. */
void lava_job_write(FILE *f, const struct lava_job *j);
/* Whether a board's job can boot with this method (NULL: the list). */
bool lava_boot_method_ok(const char *method);
#define LAVA_BOOT_METHODS "u-boot, ipxe, grub, barebox, depthcharge"

/* The run's JSON (report/run_json.h's run_to_json) framed for the log
 * (`vmregress lava attach`): LAVA 2023.01 has no helper that carries a
 * file from the device home (lava-test-reference names a URL), so the
 * document goes gzipped in vm/proto.h's frames, label LAVA_RUN_FRAME, on
 * the test shell's output, which LAVA logs line by line.  It is gzipped
 * as it is written, in pieces (a run an iteration at a time): lava_gz_new
 * (NULL when zlib cannot start), lava_gz_add each piece in order, then
 * lava_gz_emit, which frames the whole and frees g: 0, or -1 with errno
 * set. */
#define LAVA_RUN_FRAME "run-json-gz"
struct lava_gz;
struct lava_gz *lava_gz_new(void);
void lava_gz_add(struct lava_gz *g, const char *text, size_t len);
int lava_gz_emit(FILE *f, struct lava_gz *g);
/* Free g unwritten (a document that could not be read whole). */
void lava_gz_free(struct lava_gz *g);

/* One test case LAVA reported. */
struct lava_case {
	char *suite;              /* "0_vmregress-quick", "lava" for LAVA's own */
	char *name;               /* "fault-zero" or "fault-zero.time-passes" */
	char *result;             /* pass | fail | skip | unknown */
	char *set;                /* the lava-test-set, or NULL */
	char *units, *reference;  /* or NULL */
	double measurement;       /* NAN when none */
	bool has_measurement;
};

struct lava_results {
	char *job_id, *device, *device_type;  /* NULL where not known */
	char *kernel;             /* the release in the kernel's banner on the console */
	double started, ended;
	struct lava_case *cases;
	size_t ncases;
	char *job_result;         /* LAVA's verdict on the job: pass, fail, incomplete */
	char *console;            /* the device's output (lava-run's `target` lines), or NULL */
	size_t console_len;
};

/* Read what LAVA gave back for a job, from text: lava-run's log (a line of
 * one YAML mapping each, the results on `lvl: results` lines), or a results
 * document as LAVA's REST API and `lavacli jobs logs/results` give them (a
 * YAML or JSON list of test cases).  0, or -1 with why set. */
int lava_results_read(const char *text, size_t len, struct lava_results *out, char *why, size_t whylen);
void lava_results_free(struct lava_results *r);

/* The run's JSON that `vmregress lava attach` framed in the device's
 * output, the last such frame: 1 with *json (NUL-terminated, *len bytes),
 * 0 when there is none, -1 with why set when one is broken. */
int lava_attached_json(const struct lava_results *r, char **json, size_t *len, char *why, size_t whylen);

/* The run of a job's vmregress cases: one case per lava-test-set (or case
 * without a metric), one iteration, its outcome from the case's result and
 * its metrics from the measurements; tagged "lava", the job id, device and
 * device type in its environment ("lava": {...}, lava_results_tag); its
 * UUID the one the device reported (lava-test-reference), else one made
 * from the job.
 * NULL when the job holds no vmregress case. */
struct run *lava_results_run(const struct lava_results *r, const char *name);

/* Name a run of a job `name`, tag it "lava" (unless tagged), and complete
 * its environment's "lava": the job id, device and device type the device
 * did not record, LAVA's verdict on the job, and where its iterations came
 * from ("run-json": the run's JSON in the log; "measurements": LAVA's
 * test cases, one iteration a case). */
void lava_results_tag(struct run *run, const struct lava_results *r, const char *name, const char *from);

/* The files a qemu job deploys, written beside its YAML: the ramdisk
 * (PREFIX.ramdisk.cpio.gz: the matrix's guest with a shell on the console
 * for LAVA's test shell) and a sparse raw disk (PREFIX.disk.img) for the
 * sandbox's swap files.  kernel_moddir may be NULL (virtio-blk and ext2
 * built in).  0, or -1 after a one-line error. */
int lava_job_files(const char *prefix, const char *static_bin, const char *busybox, const char *kernel_moddir,
		   const char *suite_file, uint64_t disk_bytes, char **ramdisk, char **disk);

/* Run a job with LAVA's own dispatcher, lava-run, on this machine: the
 * lava-dispatcher, lava-dispatcher-host, lava-common and lava-server
 * packages of Debian fetched with `apt-get download` into cache/lava and
 * unpacked there with `dpkg-deb -x` (never installed: lava-dispatcher
 * depends on systemd-sysv), run by /usr/bin/python3 with their Python
 * dependencies from Debian, against a QEMU device rendered from LAVA's own
 * qemu device-type template (lava-server's) with the job's memory and
 * options and the device's name in its environment, everything it writes under work.  *log: lava-run's log (its
 * stdout).  Returns lava-run's exit status, or -1 (-3: cannot run here)
 * after a one-line error. */
int lava_local_run(const char *job_yaml, const char *cache, const char *work, const char *job_id, const char *device,
		   char **log);

#endif
