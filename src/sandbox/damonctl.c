/* One kdamond for a recording: see damonctl.h. */
#include "sandbox/damonctl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "probe/damon.h"
#include "sandbox/journal.h"
#include "sandbox/knobs.h"
#include "sandbox/sandbox.h"
#include "sandbox/undo.h"

#define DC_PATH_MAX 320
#define DC_VALUE_MAX 128

/* ---- async-signal-safe file access (undo runs in the signal handler) ---- */

/* dst = a + decimal(n, when n >= 0) + b, without snprintf. */
static void dc_join(char *dst, size_t len, const char *a, long n, const char *b)
{
	char num[24];
	size_t at = 0, k = 0;
	if (n >= 0) {
		do {
			num[k++] = (char)('0' + n % 10);
			n /= 10;
		} while (n && k < sizeof(num));
	}
	for (const char *s = a; *s && at + 1 < len; s++)
		dst[at++] = *s;
	while (k && at + 1 < len)
		dst[at++] = num[--k];
	for (const char *s = b; *s && at + 1 < len; s++)
		dst[at++] = *s;
	dst[at] = '\0';
}

/* DAMON answers EBUSY while a command (update_schemes_tried_regions, a
 * kdamond starting or stopping) holds its lock: try again for a second. */
static bool dc_busy_again(int e, int *tries)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	if (e != -EBUSY || ++*tries > 50)
		return false;
	nanosleep(&ts, NULL);
	return true;
}

static int dc_read_once(const char *path, char *buf, size_t len)
{
	int e = knobs_read_file(path, buf, len);
	if (e < 0)
		return e;
	size_t n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int dc_write_once(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, value, strlen(value));
	int e = n < 0 ? errno : 0;
	close(fd);
	return n < 0 ? -e : 0;
}

/* A one-line file without its newline.  0 or -errno. */
static int dc_read(const char *path, char *buf, size_t len)
{
	int e, tries = 0;
	while ((e = dc_read_once(path, buf, len)) < 0 && dc_busy_again(e, &tries))
		;
	return e;
}

/* 0 or -errno. */
static int dc_write(const char *path, const char *value)
{
	int e, tries = 0;
	while ((e = dc_write_once(path, value)) < 0 && dc_busy_again(e, &tries))
		;
	return e;
}

static long dc_number(const char *s)
{
	long n = 0;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++)
		n = n * 10 + (*s - '0');
	return *s ? -1 : n;
}

/* root/kdamonds/ID/SUFFIX */
static void dc_kpath(char *dst, const char *root, int id, const char *suffix)
{
	char pre[DC_PATH_MAX];
	dc_join(pre, sizeof(pre), root, -1, "/kdamonds/");
	dc_join(dst, DC_PATH_MAX, pre, id, suffix);
}

bool damonctl_value_ok(const char *value)
{
	const char *p = !strncmp(value, "added:", 6) ? value + 6 : !strncmp(value, "blank:", 6) ? value + 6 : NULL;
	return p && dc_number(p) > 0;
}

static int damonctl_jrec_type = -1;

__attribute__((constructor)) static void damonctl_register(void)
{
	static const struct jrec_kind kind = {
		.name = "damon", .id_max = 63, .value_ok = damonctl_value_ok, .undo = damonctl_undo,
		.what = "kdamond", .done = "stopped", .cannot = "cannot put DAMON back as it was",
		.path_prefix = DAMON_ADMIN "/kdamonds/", .value_key = "kdamond",
	};
	damonctl_jrec_type = journal_kind_register(&kind);
}

int damonctl_undo(int id, const char *value)
{
	char path[DC_PATH_MAX], v[DC_VALUE_MAX];
	const char *root = DAMON_ADMIN;
	bool added = !strncmp(value, "added:", 6);
	long nr;

	dc_join(path, sizeof(path), root, -1, "/kdamonds/nr_kdamonds");
	if (dc_read(path, v, sizeof(v)) < 0 || (nr = dc_number(v)) <= id)
		return 0;  /* no DAMON, or the kdamond was never added or is gone */
	dc_kpath(path, root, id, "/contexts/0/targets/0/pid_target");
	if (dc_read(path, v, sizeof(v)) == 0 && strcmp(v, "0") && strcmp(v, value + 6)) {
		undo_say("the kdamond vmregress set up monitors process ", v, " now: left as it is", NULL);
		return 0;
	}
	/* off whatever state reads: a kdamond that is off already refuses
	 * (EINVAL with no context built, EPERM when it has stopped) */
	dc_kpath(path, root, id, "/state");
	int e = dc_write(path, "off");
	if (e < 0 && e != -EINVAL && e != -EPERM && e != -ENOENT)
		return e;
	if (!added) {
		dc_kpath(path, root, id, "/contexts/nr_contexts");
		e = dc_write(path, "0");
		return e == -ENOENT ? 0 : e;
	}
	if (nr != id + 1)
		return -EBUSY;  /* kdamonds were added after ours: removing it would drop theirs */
	dc_join(path, sizeof(path), root, -1, "/kdamonds/nr_kdamonds");
	dc_join(v, sizeof(v), "", id, "");
	return dc_write(path, v);
}

/* ---- choosing ---- */

static void dc_why(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void dc_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* avail_operations lists one name a line; said on one line, with spaces. */
static void dc_one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n')
			*s = ' ';
}

static bool dc_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return true;
	return false;
}

struct dc_seen {
	long nr;
	int on[DAMON_MAX_KDAMONDS], non;
	int blank;                  /* first off kdamond without a context, or -1 */
	int configured;             /* off kdamonds that have a context */
	char ops[DC_VALUE_MAX];     /* avail_operations of a context, "" unknown */
};

static void dc_look(const char *root, struct dc_seen *s)
{
	char path[DC_PATH_MAX], v[DC_VALUE_MAX];
	s->blank = -1;
	for (long i = 0; i < s->nr && i < DAMON_MAX_KDAMONDS; i++) {
		dc_kpath(path, root, (int)i, "/state");
		bool on = dc_read(path, v, sizeof(v)) == 0 && !strcmp(v, "on");
		dc_kpath(path, root, (int)i, "/contexts/nr_contexts");
		long nctx = dc_read(path, v, sizeof(v)) == 0 ? dc_number(v) : -1;
		dc_kpath(path, root, (int)i, "/contexts/0/avail_operations");
		if (!s->ops[0] && dc_read(path, v, sizeof(v)) == 0) {
			snprintf(s->ops, sizeof(s->ops), "%s", v);
			dc_one_line(s->ops);
		}
		if (on)
			s->on[s->non++] = (int)i;
		else if (nctx == 0 && s->blank < 0)
			s->blank = (int)i;
		else
			s->configured++;
	}
}

int damonctl_pick(const char *root, struct damonctl *c, char *why, size_t whylen)
{
	char path[DC_PATH_MAX], v[DC_VALUE_MAX];
	struct dc_seen s = { .nr = 0 };
	root = root ? root : DAMON_ADMIN;
	memset(c, 0, sizeof(*c));
	snprintf(c->root, sizeof(c->root), "%s", root);
	dc_join(path, sizeof(path), root, -1, "/kdamonds/nr_kdamonds");
	int e = dc_read(path, v, sizeof(v));
	if (e < 0 || (s.nr = dc_number(v)) < 0) {
		dc_why(why, whylen, "this kernel has no DAMON sysfs interface (%s: %s; CONFIG_DAMON_SYSFS)", path,
		       e < 0 ? strerror(-e) : "not a number");
		return -2;
	}
	dc_look(root, &s);
	if (s.ops[0] && !dc_has_word(s.ops, "vaddr")) {
		char busy[96] = "";
		if (s.non)
			snprintf(busy, sizeof(busy), "; and kdamond %d is on, so no kdamond can be added", s.on[0]);
		dc_why(why, whylen, "this kernel's DAMON monitors no virtual addresses (avail_operations: %s; "
		       "CONFIG_DAMON_VADDR is off)%s", s.ops, busy);
		return -2;
	}
	if (s.non) {
		dc_why(why, whylen, "DAMON is in use: kdamond %d is on, and while one runs DAMON lets no kdamond "
		       "be added or changed (nr_kdamonds: %s); vmregress leaves it as it is", s.on[0], strerror(EBUSY));
		return -2;
	}
	if (s.blank >= 0) {
		c->kdamond = s.blank;
		return 0;
	}
	if (s.nr > 0) {
		dc_why(why, whylen, "DAMON has %ld kdamond%s configured and off: adding one would make the kernel "
		       "drop their settings (writing nr_kdamonds makes every kdamond anew)", s.nr, s.nr == 1 ? "" : "s");
		return -2;
	}
	c->kdamond = 0;
	c->added = true;
	return 0;
}

/* ---- setting up ---- */

struct dc_step {
	const char *file;   /* under the kdamond's directory */
	const char *value;  /* NULL: the caller's */
};

static int dc_set(const struct damonctl *c, const char *file, const char *value, char *why, size_t whylen)
{
	char path[DC_PATH_MAX];
	dc_kpath(path, c->root, c->kdamond, file);
	int e = dc_write(path, value);
	if (e < 0)
		dc_why(why, whylen, "cannot write '%s' to %s: %s", value, path, strerror(-e));
	return e;
}

static int dc_configure(const struct damonctl *c, uint64_t sample_us, uint64_t aggr_us, char *why, size_t whylen)
{
	char pid[24], sample[24], aggr[24], path[DC_PATH_MAX], ops[DC_VALUE_MAX];
	snprintf(pid, sizeof(pid), "%d", (int)c->pid);
	snprintf(sample, sizeof(sample), "%" PRIu64, sample_us);
	snprintf(aggr, sizeof(aggr), "%" PRIu64, aggr_us);
	if (dc_set(c, "/contexts/nr_contexts", "1", why, whylen) < 0)
		return -2;
	dc_kpath(path, c->root, c->kdamond, "/contexts/0/avail_operations");
	if (dc_read(path, ops, sizeof(ops)) == 0 && (dc_one_line(ops), !dc_has_word(ops, "vaddr"))) {
		dc_why(why, whylen, "this kernel's DAMON monitors no virtual addresses (avail_operations: %s; "
		       "CONFIG_DAMON_VADDR is off)", ops);
		return -2;
	}
	const struct dc_step steps[] = {
		{ "/contexts/0/operations", "vaddr" },
		{ "/contexts/0/monitoring_attrs/intervals/sample_us", sample },
		{ "/contexts/0/monitoring_attrs/intervals/aggr_us", aggr },
		{ "/contexts/0/targets/nr_targets", "1" },
		{ "/contexts/0/targets/0/pid_target", pid },
		{ "/contexts/0/schemes/nr_schemes", "1" },
		{ "/contexts/0/schemes/0/action", "stat" },
		{ "/contexts/0/schemes/0/access_pattern/sz/max", "18446744073709551615" },
		{ "/contexts/0/schemes/0/access_pattern/nr_accesses/max", "4294967295" },
		{ "/contexts/0/schemes/0/access_pattern/age/max", "4294967295" },
		{ "/state", "on" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++)
		if (dc_set(c, steps[i].file, steps[i].value, why, whylen) < 0)
			return -2;
	return 0;
}

int damonctl_start(struct sandbox *sb, struct damonctl *c, pid_t pid, uint64_t sample_us, uint64_t aggr_us,
		   char *why, size_t whylen)
{
	struct jrec r = { .type = (enum jrec_type)damonctl_jrec_type, .id = c->kdamond };
	c->pid = pid;
	snprintf(r.value, sizeof(r.value), "%s:%d", c->added ? "added" : "blank", (int)pid);
	if (damonctl_jrec_type < 0 || sandbox_journal(sb, &r) < 0) {
		dc_why(why, whylen, "cannot journal the change to DAMON");
		return -2;
	}
	if (c->added) {
		char path[DC_PATH_MAX], n[24];
		dc_join(path, sizeof(path), c->root, -1, "/kdamonds/nr_kdamonds");
		snprintf(n, sizeof(n), "%d", c->kdamond + 1);
		int e = dc_write(path, n);
		if (e < 0) {
			dc_why(why, whylen, "cannot write '%s' to %s: %s", n, path, strerror(-e));
			return -2;
		}
	}
	return dc_configure(c, sample_us, aggr_us, why, whylen);
}

/* ---- reading the regions ---- */

static int dc_region_cmp(const void *a, const void *b)
{
	const struct damonctl_region *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int dc_read_u64(const char *dir, const char *name, uint64_t *out)
{
	char path[DC_PATH_MAX], v[DC_VALUE_MAX], *end;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (dc_read(path, v, sizeof(v)) < 0)
		return -1;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return errno || end == v || *end ? -1 : 0;
}

static int dc_read_region(const char *dir, struct damonctl_region *r)
{
	uint64_t acc = 0, age = 0;
	if (dc_read_u64(dir, "start", &r->start) < 0 || dc_read_u64(dir, "end", &r->end) < 0 ||
	    dc_read_u64(dir, "nr_accesses", &acc) < 0 || r->end <= r->start)
		return -1;
	dc_read_u64(dir, "age", &age);
	r->nr_accesses = acc > UINT32_MAX ? UINT32_MAX : (uint32_t)acc;
	r->age = age > UINT32_MAX ? UINT32_MAX : (uint32_t)age;
	return 0;
}

int damonctl_regions(const struct damonctl *c, struct damonctl_region **v, size_t *n)
{
	char path[DC_PATH_MAX];
	size_t cap = 0;
	*v = NULL;
	*n = 0;
	dc_kpath(path, c->root, c->kdamond, "/state");
	int e = dc_write(path, "update_schemes_tried_regions");
	if (e < 0) {
		errno = e == -EINVAL ? ESRCH : -e;  /* a kdamond that stopped refuses the command */
		return -1;
	}
	dc_kpath(path, c->root, c->kdamond, "/contexts/0/schemes/0/tried_regions");
	DIR *d = opendir(path);
	if (!d)
		return -1;
	for (struct dirent *de; (de = readdir(d));) {
		if (dc_number(de->d_name) < 0)
			continue;  /* total_bytes, . and .. */
		char *rdir = xasprintf("%s/%s", path, de->d_name);
		struct damonctl_region r = { .start = 0 };
		if (dc_read_region(rdir, &r) == 0) {
			if (*n == cap) {
				cap = cap ? 2 * cap : 64;
				*v = xrealloc(*v, cap * sizeof(**v));
			}
			(*v)[(*n)++] = r;
		}
		free(rdir);
	}
	closedir(d);
	qsort(*v, *n, sizeof(**v), dc_region_cmp);
	return 0;
}

/* ---- a recording's session ---- */

/* A lock wait of up to ten minutes, as a sandbox's default watchdog. */
#define DC_LOCK_WAIT_NS (600ull * 1000000000ull)

struct damonctl_session {
	struct damonctl c;
	struct sandbox *sb;
	int lock;
};

void damonctl_session_close(struct damonctl_session *s)
{
	if (!s)
		return;
	sandbox_close(s->sb);
	if (s->lock >= 0)
		close(s->lock);
	free(s);
}

int damonctl_session_regions(struct damonctl_session *s, struct damonctl_region **v, size_t *n)
{
	return damonctl_regions(&s->c, v, n);
}

static int dc_session_start(struct damonctl_session *s, pid_t pid, uint64_t aggr_us, char *why, size_t whylen)
{
	const char *lwhy;
	struct sandbox_cfg scfg = { .mem_bytes = 0 };
	int rc;
	/* refused at once where DAMON cannot be used; chosen again under the lock */
	if ((rc = damonctl_pick(NULL, &s->c, why, whylen)) < 0)
		return rc;
	if ((s->lock = knobs_lock(true, DC_LOCK_WAIT_NS, &lwhy)) < 0) {
		dc_why(why, whylen, "%s", s->lock == -2 ? lwhy : "cannot lock the knobs");
		return -2;
	}
	if ((rc = damonctl_pick(NULL, &s->c, why, whylen)) < 0)
		return rc;
	OPT_DEFAULTS(sandbox_opts, &scfg);
	scfg.no_sandbox = true;
	rc = sandbox_open(&s->sb, &scfg);
	opt_free(sandbox_opts, &scfg);
	if (rc < 0)
		return -3;  /* it said why */
	return damonctl_start(s->sb, &s->c, pid, aggr_us / 20 ? aggr_us / 20 : 1, aggr_us, why, whylen);
}

int damonctl_session_open(pid_t pid, uint64_t aggr_us, struct damonctl_session **out)
{
	struct damonctl_session *s = xcalloc(1, sizeof(*s));
	char why[512] = "";
	int rc = -2;
	*out = NULL;
	s->lock = -1;
	if (!vmr_is_root())
		snprintf(why, sizeof(why), "needs root (DAMON's sysfs interface is root's, and host-wide)");
	else
		rc = dc_session_start(s, pid, aggr_us, why, sizeof(why));
	if (rc < 0) {
		if (rc != -3)
			vmr_err("--method damon: %s", why);
		damonctl_session_close(s);
		return -2;
	}
	*out = s;
	return 0;
}
